// The conformance run of the report self-tests: the real config (same reporters, same Allure options, same
// global setup, so what the report shows is what is tested), with the suite's specs plus the report samples
// (selftest/report-samples) and every output under LEDGER_REPORTS_DIR — never the real reports/.
import { resolve } from 'node:path';
import { defineConfig, type ReporterDescription } from '@playwright/test';
import base from '../../playwright.config';
import { isAllureReporter } from '../../reporters/allure-name';
import { reportsDir, reportsMoved } from '../../core/reports-dir';

const out = reportsMoved() ? reportsDir() : undefined;
if (!out) throw new Error('LEDGER_REPORTS_DIR is unset: run this config through the report self-tests');
const ROOT = resolve(__dirname, '..', '..');

/** The real reporters, their output moved under `out`. */
function reporters(): ReporterDescription[] {
  const list: ReporterDescription[] = Array.isArray(base.reporter) ? base.reporter : [];
  return list.map(([name, options]): ReporterDescription => {
    if (isAllureReporter(name)) return [name, { ...options, resultsDir: `${out}/allure-results` }];
    if (name === 'junit') return [name, { ...options, outputFile: `${out}/junit.xml` }];
    if (name.startsWith('./')) return [resolve(ROOT, name), options];
    return [name, options];
  });
}

export default defineConfig({
  ...base,
  testDir: ROOT,
  testMatch: ['tests/**/*.spec.ts', 'selftest/report-samples/*.sample.ts'],
  outputDir: `${out}/test-results`,
  // A few dozen tests: one worker. A second one's start-up bought little wall time in
  // a self-test that runs beside others on two cores.
  workers: 1,
  reporter: reporters(),
});
