// The root test of every harness fixture: Playwright's test without its browser fixtures. `test` from
// @playwright/test adds per-test auto fixtures for browsers ("trace recording", "context configuration") and
// loads the browser client in every worker; an API suite uses none of them, and each costs a step with a
// captured stack at set-up and teardown of every test. `_baseTest` is the same runner, typed and exported by
// @playwright/test (types/test.d.ts), with only the test runner's own fixtures. Without it (a Playwright that
// drops the export) the fixtures stand on `test` itself.
import * as playwright from '@playwright/test';

type Base = typeof playwright._baseTest;

/** `_baseTest` when the module exports it, else the full `test`. */
export function baseTestOf(pw: { _baseTest?: unknown; test: unknown }): Base {
  return (pw._baseTest ?? pw.test) as Base;
}

export const base = baseTestOf(playwright);
