// The secret gate: after a run, every file written under the output folders is read for the literal
// secrets of the run and for anything shaped like a JWT — inside zips too (a shard's blob report). A hit names
// the file (and the zip entry) and what kind of secret it was, never the secret itself.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import AdmZip from 'adm-zip';

export interface Secret {
  /** What it is, for the message: "LEDGER_HMAC_SECRET", "minted token"… */
  kind: string;
  value: string;
}

export interface SecretHit {
  file: string;
  kind: string;
}

/** A JWT: base64url header and payload that both start as JSON objects (`{"` → `eyJ`), then a signature. */
export const JWT_SHAPE = /eyJ[A-Za-z0-9_-]{8,}\.eyJ[A-Za-z0-9_-]{8,}\.[A-Za-z0-9_-]*/;

/** Values this short would match by accident (and are no real secret). */
const MIN_SECRET_LENGTH = 8;

function* files(dir: string, exclude: ReadonlySet<string>): Generator<string> {
  if (exclude.has(resolve(dir))) return;
  let entries: string[];
  try {
    entries = readdirSync(dir);
  } catch {
    return;
  }
  for (const name of entries) {
    const path = join(dir, name);
    let stat;
    try {
      stat = statSync(path);
    } catch {
      continue; // removed while we looked (another run cleaning its output)
    }
    if (stat.isDirectory()) yield* files(path, exclude);
    else if (stat.isFile()) yield path;
  }
}

/** PEM keys are also looked for by their body lines, so a re-wrapped or JSON-escaped key is still found. */
function needles(secret: Secret): string[] {
  if (!secret.value.includes('-----BEGIN')) return [secret.value];
  const body = secret.value
    .split(/\r?\n/)
    .filter((l) => l && !l.startsWith('-----'))
    .filter((l) => l.length >= 40);
  return [secret.value, ...body];
}

/** `exclude`: folders not to enter (the self-tests' own output, which holds planted secrets on purpose). */
export function scanForSecrets(
  dirs: readonly string[],
  secrets: readonly Secret[],
  exclude: readonly string[] = [],
): SecretHit[] {
  const usable = secrets.filter((s) => s.value.length >= MIN_SECRET_LENGTH);
  const skip = new Set(exclude.map((d) => resolve(d)));
  const hits: SecretHit[] = [];
  for (const dir of dirs) {
    for (const file of files(dir, skip)) {
      // Binary files are read as latin1 so any embedded ASCII secret still matches byte for byte.
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      // A zip (Playwright's blob report of a shard, a trace) is deflated: its entries are read one by one, in
      // memory. One that cannot be read (truncated, a bad checksum, an unknown method) could hide anything.
      if (file.endsWith('.zip')) {
        let entries: { name: string; data: Buffer }[];
        try {
          entries = new AdmZip(bytes)
            .getEntries()
            .filter((entry) => !entry.isDirectory)
            .map((entry) => ({ name: entry.entryName, data: entry.getData() }));
        } catch {
          hits.push({ file, kind: 'an unreadable zip (its contents could not be checked)' });
          continue;
        }
        for (const entry of entries) {
          for (const kind of secretsIn(entry.data.toString('latin1'), usable))
            hits.push({ file: `${file} › ${entry.name}`, kind });
        }
        continue;
      }
      for (const kind of secretsIn(bytes.toString('latin1'), usable)) hits.push({ file, kind });
    }
  }
  return hits;
}

function secretsIn(text: string, secrets: readonly Secret[]): Set<string> {
  const found = new Set<string>();
  for (const secret of secrets) if (needles(secret).some((n) => text.includes(n))) found.add(secret.kind);
  if (JWT_SHAPE.test(text)) found.add('a JWT-shaped string');
  return found;
}

export function describeHits(hits: readonly SecretHit[]): string {
  return hits.map((h) => `secret gate: ${h.kind} found in ${h.file}`).join('\n');
}
