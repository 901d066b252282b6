// A verdict as a report reads it, with what the target's history says beside it (never instead of it). The
// words themselves are VERDICT_WORDS' (reporters/verdicts.ts), the one table of them.
import { VERDICT_WORDS, type RuleVerdict } from './verdicts';

/**
 * A rule's verdict with what its history says beside it, never instead of it: a FAIL tonight is a FAIL in every
 * view, with "intermittent" (reporters/intermittent.ts) or its re-check's outcome after it.
 */
export function verdictText(
  verdict: RuleVerdict,
  row: { intermittent?: boolean; recheck?: 'passed' | 'failed' } = {},
): string {
  const word = VERDICT_WORDS[verdict].word;
  if (row.recheck === 'passed') return `${word} (passed on re-check: intermittent)`;
  const again = row.recheck === 'failed' ? ' (failed on re-check)' : '';
  return `${word}${again}${row.intermittent ? ' (intermittent)' : ''}`;
}
