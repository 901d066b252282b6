// The lean conformance run (LEAN_RUN_CONFIG in child-run.ts) of the self-tests that read only the rule matrix
// and the run's output (discovery-run, forecast-skips, rule-needs, expectations-layers, cleartext, compare,
// intermittent): the real config (global setup with its discovery, preflight and run-information block, fixtures,
// the rule matrix) against LEDGER_BASE_URL or the in-process sandbox, every output under LEDGER_REPORTS_DIR —
// never the real reports/ — and no Allure or JUnit writer (the rule matrix is all these self-tests read).
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import base from '../../playwright.config';
import { reportsDir, reportsMoved } from '../../core/reports-dir';
import { discardAllureMetadata } from '../../scripts/mutation/discard-allure';

const out = reportsMoved() ? reportsDir() : undefined;
if (!out)
  throw new Error(
    'LEDGER_REPORTS_DIR is unset: run this config through a self-test (discovery-run, compare, intermittent…)',
  );
const ROOT = resolve(__dirname, '..', '..');

// No Allure writer reads the labels, description and parameter each test sends (the rule matrix reads none):
// dropped at the source, as in a fault run, rather than sent to the runner for nothing.
discardAllureMetadata();

export default defineConfig({
  ...base,
  testDir: resolve(ROOT, 'tests'),
  outputDir: `${out}/test-results`,
  // The staging-like participant runs on this machine, and npm test runs other self-tests beside this one:
  // one worker (the remote default, twice the cores, is for a participant that makes workers wait; here
  // each extra worker only added its start-up to a run that shares the cores anyway).
  workers: 1,
  reporter: [['dot'], [resolve(ROOT, 'reporters/rule-matrix.ts')]],
});
