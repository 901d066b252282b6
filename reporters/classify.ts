// One Playwright result → one test verdict. A failure is non-conformance only when an assertion about the
// target failed; a transport problem or a target error is marked "[inconclusive]" at its source (the ledger
// client and matchers) and is reported as inconclusive, never as a failed rule.
import { stripVTControlCharacters } from 'node:util';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import type { TestVerdict } from './verdicts';

export const INCONCLUSIVE_MARK = '[inconclusive]';

function firstLine(text: string | undefined): string | undefined {
  // Playwright error messages carry ANSI colour codes.
  return text === undefined
    ? undefined
    : stripVTControlCharacters(text)
        .split('\n')
        .find((l) => l.trim())
        ?.trim();
}

export function classify(test: TestCase, result: TestResult): { verdict: TestVerdict; reason?: string } {
  const annotation = (type: string) => test.annotations.find((a) => a.type === type)?.description;
  const error = result.errors.map((e) => e.message ?? e.value ?? '').join('\n');
  if (result.status === 'skipped')
    return { verdict: 'skip', reason: annotation('skip') ?? annotation('fixme') };
  if (test.expectedStatus === 'failed') {
    return result.status === 'failed'
      ? { verdict: 'known-deviation', reason: annotation('fail') }
      : {
          verdict: 'unexpected-pass',
          reason: `expected to fail (${annotation('fail') ?? 'known deviation'}) but passed: update the baseline`,
        };
  }
  if (result.status === 'passed') return { verdict: 'pass' };
  if (error.includes(INCONCLUSIVE_MARK) || result.status === 'interrupted') {
    return { verdict: 'inconclusive', reason: firstLine(error) ?? result.status };
  }
  if (result.status === 'timedOut')
    return { verdict: 'inconclusive', reason: 'timed out waiting for the target' };
  return { verdict: 'fail', reason: firstLine(error) };
}
