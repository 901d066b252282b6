// The secret gate: after a run, every file written under the output folders is read for the literal
// secrets of the run and for anything shaped like a JWT — inside zips too (a shard's blob report), and inside
// base64 (Playwright's HTML report embeds its data as a base64 zip in index.html; its JSON report carries
// attachments as base64). A hit names the file (and the entry) and what kind of secret it was, never the
// secret itself.
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

/** Every file under `dir`; `dir` may also be a single file (a reporter's outputFile). */
function* files(dir: string, exclude: ReadonlySet<string>): Generator<string> {
  if (exclude.has(resolve(dir))) return;
  let entries: string[];
  try {
    if (statSync(dir).isFile()) {
      yield dir;
      return;
    }
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
      let bytes: Buffer;
      try {
        bytes = readFileSync(file);
      } catch {
        continue;
      }
      for (const { where, kind } of hitsIn(bytes, usable, file.endsWith('.zip')))
        hits.push({ file: where === '' ? file : `${file} › ${where}`, kind });
    }
  }
  return hits;
}

const UNREADABLE_ZIP = 'an unreadable zip (its contents could not be checked)';
const ZIP_MAGIC = Buffer.from('PK\x03\x04', 'latin1');
/** A base64 run long enough to hide a token (a JSON report's attachment body, the HTML report's data zip). */
const BASE64_RUN = /[A-Za-z0-9+/]{64,}={0,2}/g;
/** Zips in base64 in zips…: two levels cover every reporter's output (a blob's report.jsonl attachments). */
const MAX_DEPTH = 3;

/** Hits in one file's bytes, `where` naming the zip entry or embedded base64 they were found in ('' = the file). */
function hitsIn(
  bytes: Buffer,
  secrets: readonly Secret[],
  zipByName: boolean,
  depth = 0,
): { where: string; kind: string }[] {
  const out: { where: string; kind: string }[] = [];
  const inner = (where: string, found: { where: string; kind: string }[]) =>
    found.map((h) => ({ where: h.where === '' ? where : `${where} › ${h.where}`, kind: h.kind }));
  // A zip is deflated: its entries are read one by one, in memory. One that cannot be read (truncated, a bad
  // checksum, an unknown method) could hide anything.
  if (zipByName || bytes.subarray(0, 4).equals(ZIP_MAGIC)) {
    let entries: { name: string; data: Buffer }[];
    try {
      entries = new AdmZip(bytes)
        .getEntries()
        .filter((entry) => !entry.isDirectory)
        .map((entry) => ({ name: entry.entryName, data: entry.getData() }));
    } catch {
      return [{ where: '', kind: UNREADABLE_ZIP }];
    }
    for (const entry of entries)
      out.push(...inner(entry.name, hitsIn(entry.data, secrets, false, depth + 1)));
    return out;
  }
  // Binary files are read as latin1 so any embedded ASCII secret still matches byte for byte.
  const text = bytes.toString('latin1');
  for (const kind of secretsIn(text, secrets)) out.push({ where: '', kind });
  if (depth < MAX_DEPTH) {
    for (const m of text.matchAll(BASE64_RUN)) {
      const decoded = Buffer.from(m[0], 'base64');
      out.push(...inner(`base64 at ${m.index}`, hitsIn(decoded, secrets, false, depth + 1)));
    }
  }
  // One hit per kind and place: a secret found both as text and inside its own base64 is one finding.
  return out.filter((h, i) => out.findIndex((o) => o.where === h.where && o.kind === h.kind) === i);
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
