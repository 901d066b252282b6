import { defineConfig } from '@playwright/test';

// The harness's own tests: sandbox (fastify inject), schemas vs spec/, fixtures, catalogue hygiene.
// Two workers even on two cores: many tests wait on child processes and sockets. The mutation run (minutes,
// its own two Playwright workers) is its own project, listed first so it starts at once and the other
// tests run beside it instead of after it.
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
    { name: 'mutation', testMatch: 'mutation.test.ts' },
    // The type check and the linters next: single-threaded tools, they run beside the mutation run.
    { name: 'static', testMatch: 'static.test.ts' },
    { name: 'selftest', testMatch: '**/*.test.ts', testIgnore: ['mutation.test.ts', 'static.test.ts'] },
  ],
});
