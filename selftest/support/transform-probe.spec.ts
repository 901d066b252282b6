// Run by selftest/plumbing/transform.test.ts (transform-probe.config.ts), not by the self-test suite.
import { expect, test } from '@playwright/test';
import { answer, whereAmI } from './transform-probe-module';

test('how this worker loads TypeScript', async ({}, testInfo) => {
  const note = (type: string, description: string) => testInfo.annotations.push({ type, description });
  expect(answer()).toBe(42);
  note('stack', whereAmI());
  // import() of a .ts file needs Playwright's ESM loader; a specifier in a variable keeps it an import().
  const specifier = './transform-probe-module.ts';
  try {
    await import(specifier);
    note('import-ts', 'loaded');
  } catch (e) {
    note('import-ts', (e as { code?: string }).code ?? String(e));
  }
  note('PW_DISABLE_TS_ESM', process.env.PW_DISABLE_TS_ESM ?? '(unset)');
});
