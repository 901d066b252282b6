// The lean expect: a passing harness matcher never reaches Playwright's expect (no step, no stack capture), a
// failing one does and fails exactly as Playwright's would — same message, code frame at the caller's line —
// and everything else (`.not`, Playwright's own matchers) always goes through it.
import { test, expect } from '@playwright/test';
import type { Exchange } from '../core/evidence';
import type { LedgerResponse } from '../core/ledger-client';
import { lean } from '../fixtures/lean-expect';
import { HARNESS_MATCHERS } from '../fixtures/matchers';

const playwrights = expect.extend(HARNESS_MATCHERS);

/** The lean expect over a spy of Playwright's: `calls()` counts the checks that went through it. */
function spied() {
  let calls = 0;
  const spy = new Proxy(playwrights, {
    apply(target, thisArg, args) {
      calls++;
      return Reflect.apply(target, thisArg, args) as unknown;
    },
  });
  return { check: lean(spy, HARNESS_MATCHERS), calls: () => calls };
}

const ok = {
  status: 200,
  headers: {},
  contentType: 'application/json',
  text: '{}',
  json: {},
  body: {},
  durationMs: 1,
  exchange: { method: 'GET', url: 'http://127.0.0.1:1/v2/version' } as Exchange,
} as LedgerResponse;

test('a passing harness matcher never reaches Playwright expect', () => {
  const { check, calls } = spied();
  check(ok).toHaveStatus(200);
  check(ok).toHaveStatus([200, 204]);
  check.soft(ok, 'with a message').toHaveStatus(200);
  expect(calls()).toBe(0);
  expect(test.info().errors).toEqual([]);
});

test('a failing harness matcher fails through Playwright expect, located at the caller', () => {
  const { check, calls } = spied();
  let error: Error | undefined;
  try {
    check(ok).toHaveStatus(404);
  } catch (e) {
    error = e as Error;
  }
  expect(calls()).toBe(1);
  expect(error?.message).toContain('GET /v2/version: expected HTTP 404, got 200 {}');
  const frames = (error?.stack ?? '').split('\n').filter((l) => l.trimStart().startsWith('at '));
  expect(frames[0]).toContain('fixtures-lean-expect.test.ts');
  expect(frames.join('\n')).not.toMatch(/fixtures[/\\]lean-expect\.ts/);
});

test('.not and Playwright matchers always go through Playwright expect', () => {
  const { check, calls } = spied();
  check(ok).not.toHaveStatus(404);
  check(ok.status).toBe(200);
  expect(calls()).toBe(2);
});

test('a matcher that throws is left to Playwright expect, which reports it', () => {
  const exploding = {
    toExplode(): never {
      throw new Error('the matcher broke');
    },
  };
  let calls = 0;
  const spy = new Proxy(expect.extend(exploding), {
    apply(target, thisArg, args) {
      calls++;
      return Reflect.apply(target, thisArg, args) as unknown;
    },
  });
  const check = lean(spy, exploding);
  expect(() => check(ok).toExplode()).toThrow('the matcher broke');
  expect(calls).toBe(1);
});

test('an extended, soft or configured lean expect keeps the fast path for every matcher it has', () => {
  const seen: string[] = [];
  // Playwright calls a matcher with its full context (utils among it); the fast path with none.
  const noting = (tag: string) =>
    function (this: { utils?: unknown }) {
      seen.push(`${tag} ${this.utils === undefined ? 'direct' : 'playwright'}`);
      return { pass: true, message: () => '' };
    };
  const first = lean(expect, {}).extend({ toNoteA: noting('a') });
  const second = first.extend({ toNoteB: noting('b') });
  second(1).toNoteA();
  second(1).toNoteB();
  second.soft(1).toNoteB();
  second.configure({ timeout: 1 })(1).toNoteA();
  expect(seen).toEqual(['a direct', 'b direct', 'b direct', 'a direct']);
});
