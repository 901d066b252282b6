// The body schemas' standalone validators (schemas/compiled.ts) judge exactly as the live ajv does — the same
// verdict and the same error objects — and the generated module is read back from the cache, not rebuilt.
import { test, expect } from '@playwright/test';
import { existsSync, rmSync } from 'node:fs';
import { SCHEMA_IDS, schemaRegistry, validate, type SchemaName } from '../schemas';
import { cacheFile, compiledValidators } from '../schemas/compiled';
import * as ex from './schema-examples';

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
  test(`${name}: the compiled validator agrees with the live ajv, error for error`, () => {
    const live = schemaRegistry().getSchema(SCHEMA_IDS[name])!;
    let failures = 0;
    for (const data of cases(make)) {
      const expected = live(data) ? [] : [...(live.errors ?? [])];
      expect(validate(name, data), JSON.stringify(data).slice(0, 200)).toEqual(expected);
      if (expected.length > 0) failures++;
    }
    expect(failures, 'the broken cases fail').toBeGreaterThan(2);
  });
}

test('the generated module is stored, and read back by the next process instead of rebuilt', () => {
  const key = 'selftest: a module of one validator';
  rmSync(cacheFile(key), { force: true });
  let builds = 0;
  const generate = () => {
    builds++;
    return 'exports.always = function validate(data) { validate.errors = null; return data !== undefined; };';
  };
  const first = compiledValidators(key, generate);
  expect(existsSync(cacheFile(key))).toBe(true);
  const second = compiledValidators(key, generate);
  expect(builds).toBe(1);
  expect(first?.always?.(1)).toBe(true);
  expect(second?.always?.(undefined)).toBe(false);
  rmSync(cacheFile(key));
});
