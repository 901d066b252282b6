// The self-tests' `test`: Playwright's runner without its browser fixtures (plumbing/base-test.ts). `test` from
// @playwright/test sets up and tears down its browser auto-fixtures around every test, each a step with a
// captured, source-mapped stack: a cost per test that a unit test, driving no browser through them, need not
// pay (the browser self-tests launch Chromium through playwright-core, support/report-kit.ts).
export { base as test } from '../../plumbing/base-test';
export { expect } from '@playwright/test';
