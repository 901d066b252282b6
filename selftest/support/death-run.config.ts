// The conformance run of selftest/run/participant-death.test.ts: the real config (same fixtures, global
// setup, timeouts and the rule matrix that judges every test), against LEDGER_BASE_URL, every output under
// LEDGER_REPORTS_DIR — never the real reports/ — plus Playwright's JSON report (start time and duration of
// every test, to tell the tests before the participant died from those after).
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';
import base from '../../playwright.config';
import { reportsDir, reportsMoved } from '../../core/reports-dir';

const out = reportsMoved() ? reportsDir() : undefined;
if (!out)
  throw new Error(
    'LEDGER_REPORTS_DIR is unset: run this config through selftest/run/participant-death.test.ts',
  );
const ROOT = resolve(__dirname, '..', '..');

// Its tests fail on purpose (the participant breaks): uncoloured snippets, the runner's CPU saved.
plainErrorSnippets();

export default defineConfig({
  ...base,
  testDir: resolve(ROOT, 'tests'),
  outputDir: `${out}/test-results`,
  // One worker: the tests run in a fixed order, so "the participant dies after N requests" is reproducible.
  workers: 1,
  fullyParallel: false,
  reporter: [
    ['list'],
    [resolve(ROOT, 'reporters/rule-matrix.ts')],
    ['json', { outputFile: `${out}/playwright.json` }],
  ],
});
