// `expect`'s common matchers for the self-tests' hot loops (properties, soaks, tables of hundreds of cases),
// throwing plain errors. Playwright's expect records a test step per call — a 50-frame source-mapped stack, a
// message to the runner, and a search of the test's earlier steps, so a test of thousands of checks is
// quadratic: a large share of npm test's CPU went there. Single checks keep `expect` and its diffs.
import { inspect, isDeepStrictEqual } from 'node:util';

const show = (v: unknown): string => inspect(v, { depth: 6, breakLength: Infinity, maxStringLength: 600 });

/** `actual` has every key of `expected` with a matching value (objects compared the same way, recursively). */
function matchesObject(actual: unknown, expected: unknown): boolean {
  if (expected === null || typeof expected !== 'object' || Array.isArray(expected))
    return isDeepStrictEqual(actual, expected);
  if (actual === null || typeof actual !== 'object') return false;
  return Object.entries(expected).every(([k, v]) => matchesObject((actual as Record<string, unknown>)[k], v));
}

export function claim(actual: unknown, message = '') {
  const fail = (what: string, expected: unknown): never => {
    throw new Error(`${message}\n  ${what}: ${show(expected)}\n  received: ${show(actual)}`.trimStart());
  };
  const n = actual as number;
  return {
    toBe: (e: unknown) => void (Object.is(actual, e) || fail('expected', e)),
    toEqual: (e: unknown) => void (isDeepStrictEqual(actual, e) || fail('expected (deep)', e)),
    toMatchObject: (e: object) => void (matchesObject(actual, e) || fail('expected to include', e)),
    toMatch: (re: RegExp) =>
      void ((typeof actual === 'string' && re.test(actual)) || fail('expected to match', re)),
    toContain: (item: unknown) =>
      void (
        (typeof actual === 'string'
          ? typeof item === 'string' && actual.includes(item)
          : Array.isArray(actual) && actual.includes(item)) || fail('expected to contain', item)
      ),
    toBeDefined: () => void (actual !== undefined || fail('expected', 'a value')),
    toBeLessThan: (e: number) => void (n < e || fail('expected less than', e)),
    toBeLessThanOrEqual: (e: number) => void (n <= e || fail('expected at most', e)),
    toBeGreaterThan: (e: number) => void (n > e || fail('expected more than', e)),
    toBeGreaterThanOrEqual: (e: number) => void (n >= e || fail('expected at least', e)),
  };
}
