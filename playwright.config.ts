// The conformance run. Settings are validated here, before anything starts: a wrong one stops the run with
// one message naming the variable and the fix. The global setup starts the in-process sandbox when
// LEDGER_BASE_URL is unset. All output goes under reports/ (and test-results/conformance).
import { join } from 'node:path';
import type { PlaywrightTestConfig } from '@playwright/test';
import { displayUrl, ensureRunId, loadDotenv } from './core/settings';
import { settingsOrExit } from './scripts/run/settings-check';
import { tagSelectionOrExit } from './core/selection';
import { ALLURE_REPORTER, CONSOLE_REPORTER } from './reporters/allure-name';
import { reportsDir } from './core/reports-dir';
import { TIMEOUTS } from './core/timeouts';

loadDotenv();
// One run id for the whole run: set before the workers start, so they inherit it.
const runId = ensureRunId();

const s = settingsOrExit();
// Tag selection (LEDGER_TAGS=@readonly, or --grep @readonly): a grep of the rule ids carrying the tags.
const selection = tagSelectionOrExit();
// LEDGER_TIMEOUT_SCALE, else the scale the global setup measured on the participant. Playwright evaluates this
// file in its runner before the global setup (no measurement yet: 1) and again in every worker, which it starts
// after the global setup with the measured scale in its environment; the workers apply the test and expect
// timeouts, so those follow the measurement (docs/running.md "Timeouts").
const scale = s.timeoutScale;
// reports/, or the folder a runner moved this run's output to (the mutation runner, the self-tests).
const reports = reportsDir();

// A plain object, not defineConfig(): loading @playwright/test for defineConfig only marks the object.
export default {
  testDir: 'tests',
  outputDir: 'test-results/conformance',
  fullyParallel: true,
  // LEDGER_WORKERS, else chooseWorkers (core/settings.ts); `--workers` on the command line still wins.
  workers: s.workers,
  ...selection,
  forbidOnly: !!process.env.CI,
  // LEDGER_RECHECK=on: a failed test runs once more after every other test (Playwright's isolated retry); the
  // rule matrix keeps its first verdict and notes the re-check (reporters/rule-matrix.ts).
  retries: s.history.recheck ? 1 : 0,
  retryStrategy: 'isolated',
  // Canton's own conformance tool allows 30 s per test × its timeout scale factor (core/timeouts.ts).
  timeout: TIMEOUTS.testMs * scale,
  expect: { timeout: TIMEOUTS.expectMs * scale },
  globalSetup: require.resolve('./scripts/run/global-setup'),
  reporter: [
    // First: a team's expectations entry naming a test the suite does not have stops the run before any test.
    ['./reporters/expectations-titles.ts'],
    // Playwright's list in the rule matrix's words: a known deviation is `~`, never ✘ beside "passed".
    [CONSOLE_REPORTER],
    [
      ALLURE_REPORTER,
      {
        resultsDir: join(reports, 'allure-results'),
        detail: false,
        environmentInfo: {
          target: s.baseUrl ? displayUrl(s.baseUrl) : 'in-process sandbox',
          run_id: runId,
          seed: s.seed === undefined ? 'per test' : String(s.seed),
          timeout_scale: String(scale),
          auth: s.auth.kind,
        },
      },
    ],
    ['junit', { outputFile: join(reports, 'junit.xml') }],
    ['./reporters/rule-matrix.ts'],
  ],
  use: {
    // No traces, screenshots or videos: an API suite needs none, and a trace would record request headers.
    trace: 'off',
    screenshot: 'off',
    video: 'off',
  },
} satisfies PlaywrightTestConfig;
