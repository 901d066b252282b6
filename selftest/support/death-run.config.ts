// The conformance run of selftest/run/participant-death.test.ts: the lean run (./discovery-run.config.ts: the
// real config's fixtures, global setup, timeouts and rule matrix, one worker, outputs under LEDGER_REPORTS_DIR)
// with its tests in a fixed order, so "the participant dies after N requests" is reproducible, plus
// Playwright's JSON report (start time and duration of every test, to tell the tests before the participant
// died from those after).
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';
import { reportsDir } from '../../core/reports-dir';
import lean from './discovery-run.config';

// Its tests fail on purpose (the participant breaks): uncoloured snippets, the runner's CPU saved.
plainErrorSnippets();

export default defineConfig({
  ...lean,
  fullyParallel: false,
  reporter: [
    ['list'],
    [resolve(__dirname, '..', '..', 'reporters/rule-matrix.ts')],
    ['json', { outputFile: `${reportsDir()}/playwright.json` }],
  ],
});
