// `npm run conformance [-- <playwright args>]`: validates the settings, clears the previous run's results,
// runs the suite (the global setup prints the run-information block), builds the Allure HTML once and exits
// non-zero when a test failed (or the report could not be built).
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { loadDotenv, newRunId } from '../fixtures/settings';
import { buildAllureReport, OUTPUT, RESULTS, ROOT } from './allure-report';
import { settingsOrExit } from './run-settings';

loadDotenv();
settingsOrExit();
// One run id for the whole run; playwright.config.ts keeps it and the workers inherit it.
process.env.LEDGER_RUN_ID ||= newRunId();

// allure-playwright appends to its results folder and Allure never cleans its output: start from nothing.
for (const p of [RESULTS, OUTPUT, join(ROOT, 'reports', 'junit.xml'), join(ROOT, 'reports', 'target.json')]) {
  rmSync(p, { recursive: true, force: true });
}
rmSync(join(ROOT, 'test-results', 'conformance'), { recursive: true, force: true });

const cli = require.resolve('@playwright/test/cli');
const run = spawnSync(process.execPath, [cli, 'test', ...process.argv.slice(2)], {
  cwd: ROOT,
  stdio: 'inherit',
});
const testsStatus = run.status ?? 1;
const reportStatus = buildAllureReport();
process.exit(testsStatus !== 0 ? testsStatus : reportStatus);
