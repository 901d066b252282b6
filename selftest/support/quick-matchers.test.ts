// support/test.ts's expect: a quick matcher passes only where Playwright's own passes, and a failing check
// still fails through Playwright's expect, with its message.
import { expect as playwrightExpect } from '@playwright/test';
import { expect, QUICK, test } from './test';

type Case = [matcher: keyof typeof QUICK, received: unknown, expected?: unknown];

const sparse: unknown[] = [];
sparse[1] = 1;
class Point {
  constructor(readonly x: number) {}
}
const CASES: Case[] = [
  ['toBe', 1, 1],
  ['toBe', 0, -0],
  ['toBe', NaN, NaN],
  ['toBe', {}, {}],
  ['toEqual', { a: 1, b: [1, { c: 2 }] }, { a: 1, b: [1, { c: 2 }] }],
  ['toEqual', { a: 1, b: undefined }, { a: 1 }],
  ['toEqual', sparse, [undefined, 1]],
  ['toEqual', new Point(1), { x: 1 }],
  ['toEqual', [1, 'x'], playwrightExpect.arrayContaining(['x'])],
  ['toEqual', 'abc', playwrightExpect.stringMatching(/b/)],
  ['toEqual', new Map([[1, 2]]), new Map([[1, 2]])],
  ['toEqual', 0, -0],
  ['toStrictEqual', [1], [1]],
  ['toBeDefined', null],
  ['toBeDefined', undefined],
  ['toBeUndefined', undefined],
  ['toBeNull', null],
  ['toBeNull', undefined],
  ['toBeTruthy', 'x'],
  ['toBeTruthy', 0],
  ['toBeFalsy', ''],
  ['toBeGreaterThan', 2, 1],
  ['toBeGreaterThan', 1, 1],
  ['toBeGreaterThan', 2n, 1n],
  ['toBeGreaterThanOrEqual', 1, 1],
  ['toBeLessThan', 1, 2],
  ['toBeLessThanOrEqual', 2, 2],
  ['toHaveLength', [1, 2], 2],
  ['toHaveLength', 'ab', 2],
  ['toHaveLength', { length: 2 }, 2],
  ['toHaveLength', [1], 2],
  ['toMatch', 'a-b', /A/i],
  ['toMatch', 'a-b', /b/g],
  ['toMatch', 'a-b', '-'],
  ['toMatch', 'a-b', 'c'],
  ['toContain', 'abc', 'b'],
  ['toContain', [1, 2], 2],
  ['toContain', [{ a: 1 }], { a: 1 }],
  ['toContain', [NaN], NaN],
  ['toContain', new Set([1]), 1],
];

test('a quick matcher passes only where Playwright’s own passes', () => {
  let quick = 0;
  for (const [name, received, expected] of CASES) {
    const passes = (QUICK[name] as (r: unknown, e: unknown) => { pass: boolean })(received, expected).pass;
    if (!passes) continue;
    quick++;
    const own = (playwrightExpect(received) as unknown as Record<string, (e: unknown) => void>)[name]!;
    expect(() => own(expected), `${name}(${String(received)}, ${String(expected)})`).not.toThrow();
  }
  expect(quick, 'the table has cases the quick matchers pass').toBeGreaterThan(20);
});

test('a failing check goes to Playwright’s expect and fails with its message', () => {
  expect(() => expect(1, 'the count').toBe(2)).toThrow(/the count[\s\S]*toBe[\s\S]*Expected/);
  expect(() => expect({ a: 1 }).toEqual({ a: 2 })).toThrow(/toEqual/);
  expect(() => expect([1]).toContain(2)).toThrow(/toContain/);
  expect(() => expect('abc').toMatch(/z/)).toThrow(/toMatch/);
  expect(() => expect(1).not.toBe(1)).toThrow(/not/);
});
