// Reasons in the rule's words, and one JUnit element per verdict, from real Playwright errors: a matcher error
// (toMatch on undefined, which drops the check's message from the error), a failed toBe with and without a
// message, a helper's message in the harness's voice carrying a long body; then a JUnit file as Playwright
// writes it (a FAIL as `<error>`, another as `<failure type="expect.toMatch">`, an inconclusive as `<failure>`,
// another ended at its start as `<skipped>`)
// rewritten in the verdicts' elements, its counts moved, twice with the same result.
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import type { TestStep } from '@playwright/test/reporter';
import { expect, test } from '../support/test';
import { boundReason, errorDetail, failureReason, MAX_BODY, MAX_REASON } from '../../reporters/reason';
import { markVerdictElements, type JUnitVerdict } from '../../reporters/junit-verdicts';
import { withTempDir } from '../support/temp-dir';

/** The message Playwright's expect throws for `check`. */
function thrown(check: () => void): string {
  try {
    check();
  } catch (e) {
    return (e as Error).stack?.split('\n    at ')[0] ?? String(e);
  }
  throw new Error('the check passed');
}

/** A failed expect step, as the reporter receives it, titled as Playwright titles it. */
const step = (title: string): TestStep =>
  ({ category: 'expect', title, error: { message: 'x' }, steps: [] }) as unknown as TestStep;

const PLAYWRIGHT_WORDS = /TypeError|expect\(received\)|Error: /;

test('a matcher error keeps the check’s own message and says what came back', () => {
  const message = thrown(() =>
    expect(undefined as unknown as string, 'traceparent carries the trace id').toMatch(/^00-/),
  );
  expect(stripVTControlCharacters(message)).toMatch(/^TypeError: expect\(received\)\.toMatch/);
  const reason = failureReason([message], [step('traceparent carries the trace id')]);
  expect(reason).toBe('traceparent carries the trace id: got undefined (received value must be a string)');
});

test('a failed toBe: its message, then expected and got; without a message, the matcher’s name', () => {
  const said = thrown(() => expect(404, 'the status of a duplicate').toBe(409));
  expect(failureReason([said], [step('the status of a duplicate')])).toBe(
    'the status of a duplicate: expected 409, got 404',
  );
  const bare = thrown(() => expect('b').toBe('a'));
  const reason = failureReason([bare], [step('Expect "toBe"')]);
  expect(reason).toBe('the check (toBe): expected "a", got "b"');
  for (const r of [reason, failureReason([said], [])]) expect(r).not.toMatch(PLAYWRIGHT_WORDS);
});

test('a helper’s message keeps its words without its class, its body cut at a boundary', () => {
  const body = JSON.stringify({
    vettedPackages: Array.from({ length: 40 }, (_, i) => ({ packageId: `p${i}` })),
  });
  const message = `Error: expected a rejection of an expired token {status 401}, got 200 ${body}\n  ✗ status: expected 401, got 200`;
  const reason = failureReason([message], [])!;
  expect(reason).toMatch(
    /^expected a rejection of an expired token \{status 401\}, got 200 \{"vettedPackages"/,
  );
  // The body is cut to its opening; the expectation's own braces before it are no body and stay whole.
  expect(reason.length).toBeLessThan(MAX_BODY + 120);
  expect(reason).toMatch(/[}"\]]… \(cut; whole in the evidence attachment\)$/);
  expect(boundReason('short and whole')).toBe('short and whole');
  expect(boundReason(reason), 'bounded once, whoever bounds it again').toBe(reason);
  // Prose is kept whole up to MAX_REASON, then cut at a word.
  const prose = `known deviation of canton 3.4.11:${' word'.repeat(Math.floor((MAX_REASON - 40) / 5))}`;
  expect(boundReason(prose)).toBe(prose);
  const long = boundReason(`${prose} and more words after it, a good many more words than fit`);
  expect(long).toMatch(/ \w+… \(cut; whole in the evidence attachment\)$/);
  expect(long.length).toBeLessThan(MAX_REASON + 50);
  const detail = errorDetail(message, reason);
  expect(detail).not.toContain('expected a rejection');
  expect(detail).toContain('✗ status: expected 401, got 200');
});

const PLAYWRIGHT_JUNIT = `<testsuites id="" name="" tests="5" failures="2" skipped="1" errors="1" time="1">
<testsuite name="auth.spec.ts" tests="3" failures="0" skipped="1" time="1" errors="1">
<testcase name="Auth › AUTH-MALFORMED-TOKEN a malformed token is rejected" classname="auth.spec.ts" time="0">
<skipped>
</skipped>
</testcase>
<testcase name="Auth › AUTH-EXPIRED-TOKEN an expired token is rejected with 401 — vetting list" classname="auth.spec.ts" time="0.1">
<error message="expected a rejection of an expired token, got 200 {&quot;a&quot;:1}" type="Error">
<![CDATA[  auth.spec.ts:1 › AUTH-EXPIRED-TOKEN

    Error: expected a rejection of an expired token, got 200 {"a":1}
]]>
</error>
</testcase>
<testcase name="Auth › AUTH-NO-HEADER a request without the Authorization header is rejected — vetting list" classname="auth.spec.ts" time="0.1">
</testcase>
</testsuite>
<testsuite name="submission.spec.ts" tests="2" failures="2" skipped="0" time="1" errors="0">
<testcase name="Sub › SUB-TRACEPARENT a traceparent header comes back in traceContext" classname="submission.spec.ts" time="0.1">
<failure message="expect(received).toMatch(expected)" type="expect.toMatch">
<![CDATA[  submission.spec.ts:1 › SUB-TRACEPARENT

    TypeError: expect(received).toMatch(expected)

    Matcher error: received value must be a string
]]>
</failure>
</testcase>
<testcase name="Sub › SUB-TIMESTAMPS timestamps" classname="submission.spec.ts" time="0.1">
<failure message="expect(received).toBe(expected)" type="expect.toBe">
</failure>
</testcase>
</testsuite>
</testsuites>
`;

test('JUnit: a FAIL is a <failure> whatever found it, an inconclusive an <error>, counts moved', async () => {
  await withTempDir('junit-verdicts-', (dir) => {
    const path = join(dir, 'junit.xml');
    writeFileSync(path, PLAYWRIGHT_JUNIT);
    const tests: JUnitVerdict[] = [
      {
        title: 'AUTH-EXPIRED-TOKEN an expired token is rejected with 401 — vetting list',
        file: 'auth.spec.ts',
        verdict: 'fail',
        reason: 'expected a rejection of an expired token, got 200 {"a":1}',
      },
      {
        title: 'AUTH-NO-HEADER a request without the Authorization header is rejected — vetting list',
        file: 'auth.spec.ts',
        verdict: 'pass',
      },
      {
        title: 'SUB-TRACEPARENT a traceparent header comes back in traceContext',
        file: 'submission.spec.ts',
        verdict: 'fail',
        reason: 'traceparent carries the trace id: got undefined',
      },
      {
        title: 'SUB-TIMESTAMPS timestamps',
        file: 'submission.spec.ts',
        verdict: 'inconclusive',
        reason: '[inconclusive] lost',
      },
      {
        title: 'AUTH-MALFORMED-TOKEN a malformed token is rejected',
        file: 'auth.spec.ts',
        verdict: 'inconclusive',
        reason: '[inconclusive] target unreachable: refused',
      },
    ];
    expect(markVerdictElements(path, tests)).toBeGreaterThanOrEqual(3);
    const once = readFileSync(path, 'utf8');
    markVerdictElements(path, tests);
    expect(readFileSync(path, 'utf8'), 'idempotent').toBe(once);
    expect(once).toMatch(/<testsuites [^>]*failures="2" skipped="0" errors="2"/);
    expect(once).toMatch(/<testsuite name="auth.spec.ts" [^>]*failures="1" skipped="0" time="1" errors="1"/);
    // A test that ended at its start, the target gone, is skipped to Playwright: inconclusive, an <error>.
    expect(once).toContain(
      '<error message="inconclusive: target unreachable: refused" type="inconclusive">\n</error>',
    );
    expect(once).toMatch(
      /<testsuite name="submission.spec.ts" [^>]*failures="1" skipped="0" time="1" errors="1"/,
    );
    expect(once).toContain(
      '<failure message="FAIL: expected a rejection of an expired token, got 200 {&quot;a&quot;:1}" type="FAIL">',
    );
    expect(once).toContain(
      '<failure message="FAIL: traceparent carries the trace id: got undefined" type="FAIL">',
    );
    expect(once).toContain('<error message="inconclusive: lost" type="inconclusive">');
    expect(once.match(/<\/error>/g)).toHaveLength(2);
    expect(once).not.toMatch(/expect\(received\)|TypeError/);
  });
});
