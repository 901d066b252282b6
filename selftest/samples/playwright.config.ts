// A conformance run of the deliberately failing samples in this folder, for the self-tests that inspect what a
// failing run leaves behind (redaction, transcript attachments). The real run's config with the samples as
// its tests and every output under SAMPLE_OUT — never the real reports/.
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';
import { isAllureReporter } from '../../reporters/allure-name';

const out = process.env.SAMPLE_OUT;
if (!out) throw new Error('SAMPLE_OUT is unset: run the samples through selftest/core/redaction.test.ts');

function allureReporter(): [string, Record<string, unknown>] {
  const reporters = Array.isArray(base.reporter) ? base.reporter : [];
  const allure = reporters.find((r) => isAllureReporter(r[0]));
  return [allure?.[0] ?? 'allure-playwright', { ...(allure?.[1] as Record<string, unknown> | undefined) }];
}
const [allureName, allureOptions] = allureReporter();

export default defineConfig({
  ...base,
  testDir: '.',
  testMatch: '*.sample.ts',
  // The self-test gives the target (LEDGER_BASE_URL): no sandbox, and no reports/target.json overwritten.
  globalSetup: undefined,
  outputDir: `${out}/test-results`,
  // The real run's Allure options (what the report shows is what is tested), written elsewhere.
  reporter: [
    ['list'],
    [allureName, { ...allureOptions, resultsDir: `${out}/allure-results` }],
    ['junit', { outputFile: `${out}/junit.xml` }],
  ],
});
