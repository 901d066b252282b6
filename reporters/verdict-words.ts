// How each verdict reads in the matrix, the console, compare and the pictures of the last nights.
import type { RuleVerdict } from './verdicts';

/** How each verdict reads in a report: the ones that need a look in capitals. */
export const LABEL: Record<RuleVerdict, string> = {
  pass: 'pass',
  fail: 'FAIL',
  'known-deviation': 'known deviation',
  'unexpected-pass': 'UNEXPECTED PASS',
  'harness-defect': 'HARNESS DEFECT',
  setup: 'SET-UP MISTAKE',
  inconclusive: 'inconclusive',
  skip: 'skip',
  'not-run': 'not run',
};

/**
 * A rule's verdict with what its history says beside it, never instead of it: a FAIL tonight is a FAIL in every
 * view, with "intermittent" (reporters/intermittent.ts) or its re-check's outcome after it.
 */
export function verdictText(
  verdict: RuleVerdict,
  row: { intermittent?: boolean; recheck?: 'passed' | 'failed' } = {},
): string {
  if (row.recheck === 'passed') return `${LABEL[verdict]} (passed on re-check: intermittent)`;
  const again = row.recheck === 'failed' ? ' (failed on re-check)' : '';
  return `${LABEL[verdict]}${again}${row.intermittent ? ' (intermittent)' : ''}`;
}
