// The self-tests' `test` and `expect`. `test` is Playwright's runner without its browser fixtures
// (plumbing/base-test.ts): `test` from @playwright/test sets up and tears down its browser auto-fixtures around
// every test, a cost per test that a self-test, driving no browser through them, need not pay (the browser
// self-tests launch Chromium through playwright-core, support/report-kit.ts). `expect` is Playwright's own.
export { expect } from '@playwright/test';
export { base as test } from '../../plumbing/base-test';
