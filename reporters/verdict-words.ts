// A verdict as a report reads it, with what the target's history says beside it (never instead of it). The
// words themselves are VERDICT_WORDS' (reporters/verdicts.ts), the one table of them.
import { VERDICT_WORDS, type RuleVerdict } from './verdicts';

/** VERDICT_WORDS' word of each verdict, by verdict. */
export const LABEL = Object.fromEntries(Object.entries(VERDICT_WORDS).map(([v, w]) => [v, w.word])) as Record<
  RuleVerdict,
  string
>;

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
