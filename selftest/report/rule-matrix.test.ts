// The rule matrix's classification of a test's end and a rule's verdict from its tests, for the cases no run of
// the self-tests gives: a known deviation, its unexpected pass, a skip's reason, and the matrix's view of a real
// run are agreement.test.ts's (the kinds run); a changed limit in the fingerprint, report/history.test.ts's.
import { expect, test } from '../support/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import { RULES } from '../../rules/catalogue';
import { DEVIATION_SEEN, DEVIATION_UNMET, INCONCLUSIVE } from '../../core/verdict-marks';
import { classify } from '../../reporters/classify';
import { renderMarkdown } from '../../reporters/matrix-render';
import { ruleRows, ruleVerdict, totals } from '../../reporters/verdicts';

function fakeTest(
  expectedStatus: 'passed' | 'failed',
  annotations: { type: string; description?: string }[] = [],
) {
  return { expectedStatus, annotations } as unknown as TestCase;
}
function fakeResult(status: TestResult['status'], message?: string, failedExpect = false) {
  // A failed expect shows as a step of category "expect" carrying the error (custom matchers included).
  const steps = failedExpect
    ? [{ category: 'test.step', steps: [{ category: 'expect', error: { message }, steps: [] }] }]
    : [];
  return { status, errors: message ? [{ message }] : [], steps } as unknown as TestResult;
}

test.describe('rule matrix verdicts', () => {
  test('an assertion failure is non-conformance, a marked transport problem is inconclusive', () => {
    expect(
      classify(fakeTest('passed'), fakeResult('failed', 'Error: expect(received).toBe(expected)', true))
        .verdict,
    ).toBe('fail');
    expect(
      classify(
        fakeTest('passed'),
        fakeResult('failed', 'Error: GET /v2/version: expected HTTP 200, got 404', true),
      ).verdict,
      'a custom matcher',
    ).toBe('fail');
    expect(
      classify(
        fakeTest('passed'),
        fakeResult('failed', 'DeviationAssertionError: the pinned deviation is no longer met'),
      ).verdict,
      "a helper's named assertion",
    ).toBe('fail');
    expect(
      classify(fakeTest('passed'), fakeResult('failed', `Error: ${INCONCLUSIVE} connection reset`)).verdict,
    ).toBe('inconclusive');
    // A test cut short says nothing of the target, whatever it expected (a known deviation included).
    for (const expected of ['passed', 'failed'] as const)
      for (const end of ['timedOut', 'interrupted'] as const)
        expect(classify(fakeTest(expected), fakeResult(end)).verdict, `${expected}, ${end}`).toBe(
          'inconclusive',
        );
    expect(classify(fakeTest('passed'), fakeResult('passed')).verdict).toBe('pass');
  });

  test('an error not from an assertion is a harness defect, never a verdict on the target', () => {
    const typeError = classify(
      fakeTest('passed'),
      fakeResult('failed', "TypeError: Cannot read properties of undefined (reading 'list')"),
    );
    expect(typeError).toEqual({
      verdict: 'harness-defect',
      reason: "harness defect: TypeError: Cannot read properties of undefined (reading 'list')",
    });
    expect(
      classify(
        fakeTest('passed'),
        fakeResult(
          'failed',
          'Error: X-Y is not in the rule catalogue: add it to rules/groups/ (or fix the title)',
        ),
      ).verdict,
    ).toBe('harness-defect');
    expect(ruleVerdict(['pass', 'harness-defect', 'inconclusive'])).toBe('harness-defect');
    expect(ruleVerdict(['fail', 'harness-defect'])).toBe('fail');
  });

  test('an expected failure excuses only an assertion: a harness defect stays one', () => {
    const deviation = fakeTest('failed', [{ type: 'fail', description: 'waived by team.json: flaky' }]);
    expect(classify(deviation, fakeResult('failed', 'TypeError: x is undefined')).verdict).toBe(
      'harness-defect',
    );
  });

  test('a pinned deviation: seen is known and says what was seen, unmet is a failure naming both', () => {
    const seen = fakeTest('failed', [
      { type: 'fail', description: 'known deviation of canton 3.4.11: Canton clamps.' },
      { type: DEVIATION_SEEN, description: 'runs the command' },
    ]);
    expect(classify(seen, fakeResult('failed', 'Error: expect(received)', true))).toEqual({
      verdict: 'known-deviation',
      reason: 'known deviation of canton 3.4.11: Canton clamps. Seen: runs the command.',
    });
    const unmet = `not Canton's known deviation (expected: runs the command): the tree is another command's; the rule: expected a rejection`;
    const failed = fakeTest('passed', [
      { type: 'fail', description: 'known deviation of canton 3.4.11: Canton clamps.' },
      { type: DEVIATION_UNMET, description: unmet },
    ]);
    expect(classify(failed, fakeResult('failed', `DeviationAssertionError: ${unmet}`, true))).toEqual({
      verdict: 'fail',
      reason: unmet,
    });
  });

  test('the worst test verdict decides a rule, and a rule without tests is not run', () => {
    expect(ruleVerdict(['pass', 'fail', 'known-deviation'])).toBe('fail');
    expect(ruleVerdict(['pass', 'known-deviation'])).toBe('known-deviation');
    expect(ruleVerdict(['pass', 'skip'])).toBe('pass');
    expect(ruleVerdict([])).toBe('not-run');
    const rows = ruleRows(RULES, [
      { ruleId: 'VER-SHAPE', title: 'VER-SHAPE x', file: 'f', verdict: 'pass', durationMs: 1 },
    ]);
    expect(rows.find((r) => r.id === 'VER-SHAPE')?.verdict).toBe('pass');
    expect(totals(rows)['not-run']).toBe(RULES.length - 1);
    const md = renderMarkdown({
      generatedAt: 'now',
      status: 'passed',
      fingerprintChanges: [],
      totals: totals(rows),
      rules: rows,
      uncatalogued: [],
    });
    expect(md).toContain('| VER-SHAPE | pass | interface |');
  });
});
