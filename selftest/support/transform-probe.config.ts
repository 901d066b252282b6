// The run selftest/plumbing/transform.test.ts starts with and without plumbing/transform.cjs: one
// test that reports, as annotations, how this process loaded TypeScript.
import { defineConfig } from '@playwright/test';

export default defineConfig({
  testDir: '.',
  testMatch: 'transform-probe.spec.ts',
  workers: 1,
  reporter: [['json']],
});
