// A shard's blob report holds what no other output of a run holds: every step of every test with its error,
// Playwright's own API steps included, and their errors quote Playwright's call log — the request headers,
// the bearer token among them (the ledger client redacts the error it rethrows, but not the inner step's).
// Before the blob leaves the shard it goes through the harness's `redact` (fixtures/redact.ts): the run's
// literal secrets, JWT-shaped strings and bearer values are masked in every text entry. The secret gate then
// reads the result, so anything redaction missed still fails the shard.
import { writeFileSync } from 'node:fs';
import AdmZip from 'adm-zip';
import { redact, registerSecret } from '../fixtures/redact';
import type { Secret } from '../reporters/secret-scan';

/** Entries that are text (report.jsonl, error-context .md, JSON/text attachments); images etc. stay as they are. */
const TEXT = /\.(jsonl|json|md|txt|log|html|xml|csv|yaml|yml)$/i;

/** Rewrites the zip with its text entries redacted; returns how many entries changed. */
export function redactBlob(zip: string, secrets: readonly Secret[]): number {
  for (const { value } of secrets) {
    registerSecret(value);
    // In report.jsonl a secret is JSON-escaped (a PEM's newlines become \n).
    registerSecret(JSON.stringify(value).slice(1, -1));
  }
  const archive = new AdmZip(zip);
  let changed = 0;
  for (const entry of archive.getEntries()) {
    if (entry.isDirectory || !TEXT.test(entry.entryName)) continue;
    const text = entry.getData().toString('utf8');
    const masked = redact(text);
    if (masked === text) continue;
    entry.setData(Buffer.from(masked, 'utf8'));
    changed++;
  }
  // toBuffer + writeFileSync rather than archive.writeZip, which reports a failed write only to a callback.
  if (changed > 0) writeFileSync(zip, archive.toBuffer());
  return changed;
}
