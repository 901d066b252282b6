// The body schemas' standalone validators (schemas/compiled.ts) judge exactly as the live ajv does — the same
// verdict and the same error objects — and the generated module is read back from the cache, not rebuilt.
import { expect, test } from '../support/test';
import { chmodSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMA_IDS, schemaRegistry, validate, type SchemaName } from '../../schemas';
import { cacheFile, cachedValidator, privateDir, standaloneModule } from '../../schemas/compiled';
import * as ex from './schema-examples';
import { withTempDir } from '../support/temp-dir';

const EXAMPLES: Record<SchemaName, () => Record<string, unknown>> = {
  'version-response': ex.versionDefaults,
  'vetting-list-request': () => ({ pageSize: 10, pageToken: '' }),
  'vetting-list-response': ex.vettingPage,
  'submit-request': ex.submitRequest,
  'submit-response': ex.treeResponse,
  'canton-error': ex.invalidArgumentError,
};

/** The example, then wrong shapes, then the example with each top-level field in turn made a number. */
function cases(make: () => Record<string, unknown>): unknown[] {
  const broken = Object.keys(make()).map((k) => ({ ...make(), [k]: 42 }));
  return [make(), {}, null, 'text', [make()], ...broken];
}

for (const [name, make] of Object.entries(EXAMPLES) as [SchemaName, () => Record<string, unknown>][]) {
  test(`${name}: the standalone validator agrees with the live ajv, error for error`, () => {
    const live = schemaRegistry().getSchema(SCHEMA_IDS[name])!;
    // Stored, then read back: the standalone code itself, whatever the state of the machine's cache.
    const key = `selftest: ${name}`;
    rmSync(cacheFile(key), { force: true });
    let builds = 0;
    const build = () => {
      builds++;
      return { code: standaloneModule(schemaRegistry(), { v: SCHEMA_IDS[name] }), live };
    };
    // A miss compiles, stores the module and answers with the live validator; a hit reads it back, uncompiled.
    expect(cachedValidator(key, 'v', build)).toBe(live);
    const standalone = cachedValidator(key, 'v', build);
    rmSync(cacheFile(key));
    expect(standalone).not.toBe(live);
    expect(builds, 'compiled once').toBe(1);
    expect(schemaRegistry(), 'one live ajv for the process').toBe(schemaRegistry());
    let failures = 0;
    for (const data of cases(make)) {
      const expected = live(data) ? [] : [...(live.errors ?? [])];
      const got = standalone(data) ? [] : [...(standalone.errors ?? [])];
      expect(got, JSON.stringify(data).slice(0, 200)).toEqual(expected);
      expect(validate(name, data)).toEqual(expected);
      if (expected.length > 0) failures++;
    }
    expect(failures, 'the broken cases fail').toBeGreaterThan(2);
  });
}

test('the cache is used only in a directory no other user can write (its code is run)', async () => {
  await withTempDir('ledger-conformance-private-', (dir) => {
    expect(privateDir(dir)).toBe(true);
    chmodSync(dir, 0o777);
    expect(privateDir(dir)).toBe(false);
    chmodSync(dir, 0o775);
    expect(privateDir(dir)).toBe(false);
    expect(privateDir(join(dir, 'missing'))).toBe(false);
  });
});
