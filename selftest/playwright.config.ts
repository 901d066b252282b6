import { defineConfig } from '@playwright/test';

// The harness's own tests: sandbox (fastify inject), schemas vs spec/, fixtures, catalogue hygiene.
export default defineConfig({
  testDir: '.',
  testMatch: '**/*.test.ts',
  fullyParallel: true,
  forbidOnly: !!process.env.CI,
  timeout: 60_000,
  outputDir: '../test-results/selftest',
  reporter: [['list'], ['junit', { outputFile: '../reports/selftest/junit.xml' }]],
});
