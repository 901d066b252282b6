import { defineConfig } from '@playwright/test';

// The harness's own tests: sandbox (fastify inject), schemas vs spec/, fixtures, catalogue hygiene.
// Two workers even on two cores: many tests wait on child processes and sockets. The mutation run (minutes,
// its own two Playwright workers) is its own project, listed first so it starts at once and the other
// tests run beside it instead of after it.

/**
 * The self-tests that start conformance runs, Playwright listings or other slow children (a new one belongs
 * here); the order within a project is the files'.
 */
const RUNS = [
  'rules/catalogue-coverage.test.ts',
  'core/cleartext.test.ts',
  'history/compare.test.ts',
  'run/discovery-run.test.ts',
  'rules/expectations-layers.test.ts',
  'fixtures/rerun.test.ts',
  'preflight/forecast-skips.test.ts',
  'preflight/identity-settings.test.ts',
  'run/broken-listing.test.ts',
  'nightly/workflow.test.ts',
  'nightly/notify-changes.test.ts',
  'project/npm-scripts-help.test.ts',
  'run/participant-death.test.ts',
  'run/busy-participant.test.ts',
  'suite/readonly-inert.test.ts',
  'report/agreement.test.ts',
  'report/browser.test.ts',
  'report/history.test.ts',
  'report/reporter-leaks.test.ts',
  'history/intermittent.test.ts',
  'shard/sharding.test.ts',
  'report/triage.test.ts',
];

export default defineConfig({
  testDir: '.',
  fullyParallel: true,
  workers: 2,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  outputDir: '../test-results/selftest',
  // A folder for the child runs several self-tests share (support/once-across-workers.ts), removed at the end.
  globalSetup: require.resolve('./support/global-setup'),
  reporter: [['list'], ['junit', { outputFile: '../reports/selftest/junit.xml' }]],
  projects: [
    { name: 'mutation', testMatch: 'mutation/mutation.test.ts' },
    // The type check and the linters next: single-threaded tools, they run beside the mutation run.
    { name: 'static', testMatch: 'project/static.test.ts' },
    // Then the files whose tests start child runs or wait on slow children, and the short tests last: they
    // fill both workers to the end instead of one worker finishing a long chain alone.
    { name: 'runs', testMatch: RUNS },
    {
      name: 'selftest',
      testMatch: '**/*.test.ts',
      testIgnore: ['mutation/mutation.test.ts', 'project/static.test.ts', ...RUNS],
    },
  ],
});
