// The self-tests' `test` and `expect`. `test` is Playwright's runner without its browser fixtures
// (plumbing/base-test.ts): `test` from @playwright/test sets up and tears down its browser auto-fixtures around
// every test, each a step with a captured, source-mapped stack, a cost per test that a self-test, driving no
// browser through them, need not pay (the browser self-tests launch Chromium through playwright-core,
// support/report-kit.ts). `expect` checks its common matchers first without a reported step
// (plumbing/lean-expect.ts): a passing check of a table or a loop costs no stack, no zone and no message to
// the runner; a failing one goes to Playwright's expect, which checks it again and reports it with its diff,
// as before. Each quick matcher passes only where Playwright's would (stricter is allowed: Playwright then
// decides).
import { isDeepStrictEqual } from 'node:util';
import { expect as playwrightExpect } from '@playwright/test';
import { lean } from '../../plumbing/lean-expect';

export { base as test } from '../../plumbing/base-test';

const verdict = (pass: boolean) => ({ pass, message: () => '' });
const numbers = (a: unknown, b: unknown): a is number => typeof a === 'number' && typeof b === 'number';
const lengthOf = (v: unknown): unknown =>
  v !== null && v !== undefined ? (v as { length?: unknown }).length : undefined;

export const QUICK = {
  toBe: (received: unknown, expected: unknown) => verdict(Object.is(received, expected)),
  // Node's deep strict equality is stricter than Playwright's toEqual (prototypes, undefined properties,
  // asymmetric matchers are not equal to anything here): where it says no, Playwright's toEqual decides.
  toEqual: (received: unknown, expected: unknown) => verdict(isDeepStrictEqual(received, expected)),
  toStrictEqual: (received: unknown, expected: unknown) => verdict(isDeepStrictEqual(received, expected)),
  toBeDefined: (received: unknown) => verdict(received !== undefined),
  toBeUndefined: (received: unknown) => verdict(received === undefined),
  toBeNull: (received: unknown) => verdict(received === null),
  toBeTruthy: (received: unknown) => verdict(!!received),
  toBeFalsy: (received: unknown) => verdict(!received),
  toBeGreaterThan: (r: unknown, e: unknown) => verdict(numbers(r, e) && r > (e as number)),
  toBeGreaterThanOrEqual: (r: unknown, e: unknown) => verdict(numbers(r, e) && r >= (e as number)),
  toBeLessThan: (r: unknown, e: unknown) => verdict(numbers(r, e) && r < (e as number)),
  toBeLessThanOrEqual: (r: unknown, e: unknown) => verdict(numbers(r, e) && r <= (e as number)),
  toHaveLength: (received: unknown, expected: unknown) =>
    verdict(typeof expected === 'number' && lengthOf(received) === expected),
  toMatch: (received: unknown, expected: unknown) =>
    verdict(
      typeof received === 'string' &&
        (typeof expected === 'string'
          ? received.includes(expected)
          : expected instanceof RegExp && new RegExp(expected).test(received)),
    ),
  // Strings by substring, arrays by strict equality of an item, as Playwright's toContain.
  toContain: (received: unknown, expected: unknown) =>
    verdict(
      typeof received === 'string'
        ? typeof expected === 'string' && received.includes(expected)
        : Array.isArray(received) && received.indexOf(expected) !== -1,
    ),
};

export const expect = lean(playwrightExpect, QUICK);
