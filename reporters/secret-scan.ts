// The secret gate: after a run, every file written under the output folders is read for the literal
// secrets of the run and for anything shaped like a JWT — inside zips too (a shard's blob report), and inside
// base64 (Playwright's HTML report embeds its data as a base64 zip in index.html; its JSON report carries
// attachments as base64). A hit names the file (and the entry) and what kind of secret it was, never the
// secret itself.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import type AdmZip from 'adm-zip';

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

/** A-Z, a-z, 0-9: what base64 and base64url share. */
const isAlnum = (c: number): boolean =>
  (c >= 0x41 && c <= 0x5a) || (c >= 0x61 && c <= 0x7a) || (c >= 0x30 && c <= 0x39);
/** base64url (JWT segments): alphanumerics, `_` and `-`. */
const isUrlChar = (c: number): boolean => isAlnum(c) || c === 0x5f || c === 0x2d;

/**
 * Whether `text` holds a JWT_SHAPE match. The same answer as `JWT_SHAPE.test(text)`, found from the payload's
 * `.eyJ` (rare) instead of every `eyJ` (thousands in a report's base64 JSON, where the plain regex is slow
 * on a single-file report): the regex then runs on the runs of base64url around each candidate only.
 */
export function hasJwtShape(text: string): boolean {
  for (let p = text.indexOf('.eyJ'); p >= 0; p = text.indexOf('.eyJ', p + 1)) {
    let start = p;
    while (start > 0 && isUrlChar(text.charCodeAt(start - 1))) start--;
    let end = p + 1;
    while (end < text.length && isUrlChar(text.charCodeAt(end))) end++;
    if (text.charCodeAt(end) === 0x2e) {
      end++;
      while (end < text.length && isUrlChar(text.charCodeAt(end))) end++;
    }
    if (JWT_SHAPE.test(text.slice(start, end))) return true;
  }
  return false;
}

/**
 * The SHA-256 of every asset the Allure report generator ships (its app script, styles: the same bytes in every
 * report, in reports/allure/ and, base64, in the single-file report). They exist before any run, so they hold
 * no secret of one: a file or embedded base64 identical to one is not read (2.7 MB of minified script, twice).
 * Anything else — every byte a run wrote — is.
 */
let shipped: Set<string> | undefined;
export function shippedAssetDigests(): Set<string> {
  if (shipped) return shipped;
  shipped = new Set();
  try {
    // The plugin exports only its entry point, dist/index.js; the archive is dist/static/report.tar.
    const dist = dirname(require.resolve('@allurereport/plugin-awesome'));
    const tar = readFileSync(join(dist, 'static', 'report.tar'));
    // ustar: 512-byte headers (name at 0, size in octal at 124), contents padded to 512.
    for (let at = 0; at + 512 <= tar.length;) {
      const name = tar.toString('latin1', at, at + 100).replace(/\0.*$/s, '');
      if (name === '') break;
      const size = parseInt(
        tar
          .toString('latin1', at + 124, at + 136)
          .replace(/\0.*$/s, '')
          .trim() || '0',
        8,
      );
      const type = tar[at + 156];
      if (type === 0x30 || type === 0) shipped.add(digest(tar.subarray(at + 512, at + 512 + size)));
      at += 512 + Math.ceil(size / 512) * 512;
    }
  } catch {
    // No Allure plugin installed (or another layout): nothing is skipped.
  }
  return shipped;
}

const digest = (bytes: Buffer): string => createHash('sha256').update(bytes).digest('hex');

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
export const BASE64_RUN = /[A-Za-z0-9+/]{64,}={0,2}/g;
const isBase64Char = (c: number): boolean => isAlnum(c) || c === 0x2b || c === 0x2f;

/**
 * The matches of BASE64_RUN, in one pass: a run of base64 characters is a match when it is 64 long or longer,
 * with up to two `=` after it. (The regex tries up to 64 characters at every position of a minified script
 * or a JSON text, then fails: slow on a single-file report.)
 */
export function* base64Runs(text: string): Generator<{ index: number; value: string }> {
  const n = text.length;
  for (let i = 0; i < n;) {
    if (!isBase64Char(text.charCodeAt(i))) {
      i++;
      continue;
    }
    const start = i;
    while (i < n && isBase64Char(text.charCodeAt(i))) i++;
    if (i - start < 64) continue;
    let end = i;
    while (end < n && end - i < 2 && text.charCodeAt(end) === 0x3d) end++;
    yield { index: start, value: text.slice(start, end) };
    i = end;
  }
}

/** Smaller files are read, not hashed (a digest costs more than a scan there). */
const SHIPPED_MIN_BYTES = 64 * 1024;
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
    // Loaded on the first zip: most runs write none (a shard's blob report does).
    // oxlint-disable-next-line typescript/no-require-imports
    const Zip = require('adm-zip') as typeof AdmZip;
    let entries: { name: string; data: Buffer }[];
    try {
      entries = new Zip(bytes)
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
  // The report generator's own assets, byte for byte: nothing of a run's (see shippedAssetDigests).
  if (bytes.length >= SHIPPED_MIN_BYTES && shippedAssetDigests().has(digest(bytes))) return out;
  // Binary files are read as latin1 so any embedded ASCII secret still matches byte for byte.
  const text = bytes.toString('latin1');
  for (const kind of secretsIn(text, secrets)) out.push({ where: '', kind });
  if (depth < MAX_DEPTH) {
    for (const m of base64Runs(text)) {
      const decoded = Buffer.from(m.value, 'base64');
      out.push(...inner(`base64 at ${m.index}`, hitsIn(decoded, secrets, false, depth + 1)));
    }
  }
  // One hit per kind and place: a secret found both as text and inside its own base64 is one finding.
  return out.filter((h, i) => out.findIndex((o) => o.where === h.where && o.kind === h.kind) === i);
}

function secretsIn(text: string, secrets: readonly Secret[]): Set<string> {
  const found = new Set<string>();
  for (const secret of secrets) if (needles(secret).some((n) => text.includes(n))) found.add(secret.kind);
  if (hasJwtShape(text)) found.add('a JWT-shaped string');
  return found;
}

export function describeHits(hits: readonly SecretHit[]): string {
  return hits.map((h) => `secret gate: ${h.kind} found in ${h.file}`).join('\n');
}
