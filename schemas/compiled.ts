// The body schemas compiled once per machine, not once per process: ajv's standalone code of each, generated
// by the first process that needs it and kept in the temporary directory under a hash of the schemas, ajv's
// version and its options. Loading ajv and compiling the schemas a worker uses costs
// it CPU, and a run starts several workers (npm test, many more); reading the generated module is cheap.
// The generated code is ajv's own, from the same options: the same checks, the same error objects.
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { runInThisContext } from 'node:vm';
import type Ajv2020 from 'ajv/dist/2020';
import type { ErrorObject } from 'ajv/dist/2020';

export type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/** Where a process looks first; a different user gets a directory of its own (as Playwright's caches). */
const CACHE_DIR = path.join(tmpdir(), `ledger-conformance-schemas-${process.getuid?.() ?? 'user'}`);

/**
 * `name`'s validator from `key`'s cached module. On a miss — or a module that does not load — `build` compiles it
 * with the live ajv: its standalone code is stored for the next process, its live validator serves this one. A
 * directory that is not this user's alone is never read nor written: every process then compiles, as before.
 */
export function cachedValidator(
  key: string,
  name: string,
  build: () => { code: string; live: Validator },
): Validator {
  const file = cacheFile(key);
  const usable = cacheUsable();
  if (usable) {
    try {
      const cached = load(readFileSync(file, 'utf8'), file)[name];
      if (cached) return cached;
    } catch {
      // Not there yet (or damaged): built below.
    }
  }
  const { code, live } = build();
  if (usable) store(file, code);
  return live;
}

let usableDir: boolean | undefined;

/** Whether CACHE_DIR can be trusted with code this process will run; made (0700) when missing. */
function cacheUsable(): boolean {
  if (usableDir === undefined) {
    try {
      mkdirSync(CACHE_DIR, { recursive: true, mode: 0o700 });
    } catch {
      // Unwritable temporary directory: checked below, and then not used.
    }
    usableDir = privateDir(CACHE_DIR);
  }
  return usableDir;
}

/**
 * A directory only this user can write: owned by it, not group- or world-writable. The temporary directory is
 * shared, and anyone who could put a file there would have it run by the next harness process.
 */
export function privateDir(dir: string): boolean {
  try {
    const st = statSync(dir);
    const uid = process.getuid?.();
    return st.isDirectory() && (uid === undefined || st.uid === uid) && (st.mode & 0o022) === 0;
  } catch {
    return false;
  }
}

/** The cache file of `key`. */
export const cacheFile = (key: string): string =>
  path.join(CACHE_DIR, `${createHash('sha256').update(key).digest('hex').slice(0, 24)}.js`);

function store(file: string, code: string): void {
  try {
    // Written aside and renamed: a worker reading at the same moment sees the whole module or none.
    const aside = `${file}.${process.pid}.tmp`;
    writeFileSync(aside, code);
    renameSync(aside, file);
  } catch {
    // No cache this time; the code is used from memory.
  }
}

/** A CommonJS module's exports, evaluated with this module's `require` (the runtime helpers live in ajv). */
function load(code: string, filename: string): Record<string, Validator> {
  const wrapper = runInThisContext(`(function (require, module, exports) {${code}\n})`, { filename }) as (
    r: NodeJS.Require,
    m: { exports: unknown },
    e: unknown,
  ) => void;
  const mod = { exports: {} as Record<string, Validator> };
  wrapper(require, mod, mod.exports);
  return mod.exports;
}

/** ajv's standalone module for `ids` (export name → $id), from an instance created with `code.source`. */
export function standaloneModule(ajv: Ajv2020, ids: Record<string, string>): string {
  // Loaded only on a cache miss: the code generator is most of ajv.
  // oxlint-disable-next-line typescript/no-require-imports
  const standalone = require('ajv/dist/standalone') as typeof import('ajv/dist/standalone');
  return standalone.default(ajv, ids);
}
