// One Playwright result → one test verdict. A failure is non-conformance only when an assertion about the
// target failed (an `expect`, or a helper's named AssertionError); a transport problem or a target error is
// marked "[inconclusive]" at its source (the ledger client and matchers) and is reported as inconclusive;
// any other error — a TypeError in a spec, a title naming no catalogued rule, a broken fixture — is a defect
// of the harness itself, never a verdict on the target.
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestResult, TestStep } from '@playwright/test/reporter';
import {
  DEVIATION_SEEN,
  DEVIATION_UNMET,
  EXPECTED_STATUS_ANNOTATION,
  firstLine,
  INCONCLUSIVE,
  SETUP,
  TARGET_GONE,
} from '../core/verdict-marks';

import { boundReason, failureReason } from './reason';
import type { TestVerdict } from './verdicts';

export { TARGET_GONE };

/** An assertion a helper makes outside expect, e.g. the pinned deviations' DeviationAssertionError. */
const NAMED_ASSERTION = /^\s*\w*AssertionError\b/;

/** True when a step of the test (at any depth) is a failed `expect` — custom matchers included. */
export function failedExpect(steps: readonly TestStep[]): boolean {
  return steps.some((s) => (s.category === 'expect' && s.error !== undefined) || failedExpect(s.steps));
}

/** What a failed (not timed out) result means, from its errors and steps. */
export function failureKind(
  messages: readonly string[],
  steps: readonly TestStep[],
): 'setup' | 'inconclusive' | 'fail' | 'harness-defect' {
  const text = messages.map((m) => stripVTControlCharacters(m)).join('\n');
  if (text.includes(SETUP)) return 'setup';
  if (text.includes(INCONCLUSIVE)) return 'inconclusive';
  if (failedExpect(steps) || messages.some((m) => NAMED_ASSERTION.test(stripVTControlCharacters(m))))
    return 'fail';
  return 'harness-defect';
}

export function classify(test: TestCase, result: TestResult): { verdict: TestVerdict; reason?: string } {
  const annotation = (type: string) => test.annotations.find((a) => a.type === type)?.description;
  const messages = result.errors.map((e) => e.message ?? e.value ?? '');
  const error = messages.join('\n');
  const said = (text: string | undefined) => (text === undefined ? undefined : boundReason(text));
  const expectedStatus = annotation(EXPECTED_STATUS_ANNOTATION) ?? test.expectedStatus;
  if (result.status === 'skipped') {
    const reason = annotation('skip') ?? annotation('fixme');
    // Ended at set-up because the target was gone (core/target-lost.ts): no verdict, not a skipped rule.
    return { verdict: reason?.startsWith(INCONCLUSIVE) ? 'inconclusive' : 'skip', reason };
  }
  // Lost on the way (the target died, a transport error) or out of time, a test says nothing about the target:
  // an expected failure included — neither its known deviation nor the deviation's disappearance was seen.
  if (result.status !== 'passed') {
    // The harness's configuration is wrong (a configured user unknown): neither a failure nor an excused one.
    if (error.includes(SETUP)) return { verdict: 'setup', reason: said(firstLine(error)) };
    if (error.includes(INCONCLUSIVE) || result.status === 'interrupted') {
      return { verdict: 'inconclusive', reason: said(firstLine(error)) ?? result.status };
    }
    if (result.status === 'timedOut')
      return { verdict: 'inconclusive', reason: 'timed out waiting for the target' };
  }
  const kind = result.status === 'passed' ? undefined : failureKind(messages, result.steps ?? []);
  // A harness defect is never excused by an expectation: it says nothing about the target.
  if (kind === 'harness-defect') {
    return {
      verdict: 'harness-defect',
      reason: `harness defect: ${said(firstLine(error)) ?? 'no error message'}`,
    };
  }
  if (expectedStatus === 'failed') {
    if (result.status === 'passed') {
      return {
        verdict: 'unexpected-pass',
        reason: `expected to fail (${annotation('fail') ?? 'known deviation'}) but passed: update the expectations`,
      };
    }
    // A pinned deviation (fixtures/deviations.ts) names what the target did instead, as Canton does.
    const seen = annotation(DEVIATION_SEEN);
    return {
      verdict: 'known-deviation',
      reason: seen ? `${annotation('fail')} Seen: ${seen}.` : annotation('fail'),
    };
  }
  if (result.status === 'passed') return { verdict: 'pass' };
  // Expected to deviate as Canton does, the target failed otherwise: the annotation names both.
  // A FAIL says what the rule expected and what came back (reason.ts); the other kinds keep their first line.
  const reason = kind === 'fail' ? failureReason(messages, result.steps ?? []) : said(firstLine(error));
  return { verdict: kind!, reason: said(annotation(DEVIATION_UNMET)) ?? reason };
}
