// A shard's blob report holds what no other output of a run holds: every step of every test with its error,
// Playwright's own API steps included, and their errors quote Playwright's call log — the request headers,
// the bearer token among them (the ledger client redacts the error it rethrows, but not the inner step's).
// Before the blob leaves the shard it goes through the harness's `redact` (fixtures/redact.ts): the run's
// literal secrets, JWT-shaped strings and bearer values are masked in every text entry. The secret gate then
// reads the result, so anything redaction missed still fails the shard.
import { redact, registerSecret } from '../fixtures/redact';
import type { Secret } from '../reporters/secret-scan';
import { readZip, writeZip } from '../reporters/zip';

/** Entries that are text (report.jsonl, error-context .md, JSON/text attachments); images etc. stay as they are. */
const TEXT = /\.(jsonl|json|md|txt|log|html|xml|csv|yaml|yml)$/i;

/** Rewrites the zip with its text entries redacted; returns how many entries changed. */
export function redactBlob(zip: string, secrets: readonly Secret[]): number {
  for (const { value } of secrets) {
    registerSecret(value);
    // In report.jsonl a secret is JSON-escaped (a PEM's newlines become \n).
    registerSecret(JSON.stringify(value).slice(1, -1));
  }
  let changed = 0;
  const entries = readZip(zip).map((entry) => {
    if (!TEXT.test(entry.name)) return entry;
    const text = entry.data.toString('utf8');
    const masked = redact(text);
    if (masked === text) return entry;
    changed++;
    return { name: entry.name, data: Buffer.from(masked, 'utf8') };
  });
  if (changed > 0) writeZip(zip, entries);
  return changed;
}
