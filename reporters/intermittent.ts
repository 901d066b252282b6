// The one written rule for "intermittent", per rule and target, over the target's judged runs (run-series.ts).
// It is Allure 3's status-changes rule (allure3 packages/core-api/src/utils/flaky/status-changes.ts): take the
// rule's last `window` statuses before tonight and tonight's; a streak of `settle` identical statuses resets the
// count (the last such streak is the anchor); the rule is intermittent when its status changed more than once
// after the anchor, except a pass → FAIL → pass recovery (two changes that end where a passing streak was).
// A status is what the participant did: it passed the rule, or failed it (a known deviation and a waived failure
// are failures of the participant: a rule flipping between pass and known deviation flips). A run without a
// status for the rule (skip, inconclusive, not selected), and a collapsed run, add nothing. A re-check adds its
// own status after the run's first one: a FAIL that passed on re-check is two statuses, FAIL then pass.
import type { RuleVerdict } from './verdicts';

export type Status = 'passes' | 'fails';
export type RuleState = 'intermittent' | 'stable';

export interface IntermittentRule {
  /** How many statuses before tonight's are looked at (LEDGER_INTERMITTENT_WINDOW, Allure's history depth). */
  window: number;
  /** A streak this long of one status settles a rule (LEDGER_INTERMITTENT_SETTLE, Allure's stabilization). */
  settle: number;
}

export const DEFAULT_RULE: IntermittentRule = { window: 10, settle: 5 };

/** What the participant did in a verdict, or undefined when the verdict says nothing of it. */
export function statusOf(v: RuleVerdict | undefined): Status | undefined {
  if (v === 'pass' || v === 'unexpected-pass') return 'passes';
  if (v === 'fail' || v === 'known-deviation') return 'fails';
  return undefined;
}

/**
 * Whether `statuses` (oldest first; the last is tonight's) make the rule intermittent. Undefined when there is
 * nothing before tonight to compare with, as Allure says of a first run.
 */
export function isIntermittent(statuses: readonly Status[], rule: IntermittentRule = DEFAULT_RULE): boolean {
  if (statuses.length < 2) return false;
  const seen = statuses.slice(-(rule.window + 1));
  const period = Math.min(rule.settle, rule.window + 1);
  let anchor = 0;
  let streak = 0;
  for (let i = 0; i < seen.length; i++) {
    streak = i > 0 && seen[i] === seen[i - 1] ? streak + 1 : 1;
    if (streak >= period) anchor = i;
  }
  let changes = 0;
  for (let i = anchor + 1; i < seen.length; i++) if (seen[i] !== seen[i - 1]) changes++;
  if (changes <= 1) return false;
  // A single failing night between passes is a recovery, not a pattern.
  return !(changes === 2 && seen[anchor] === 'passes' && seen[seen.length - 1] === 'passes');
}

/** The state after each status of a rule's series: `states[i]` is its state once `statuses[0..i]` are known. */
export function statesOf(statuses: readonly Status[], rule: IntermittentRule = DEFAULT_RULE): RuleState[] {
  return statuses.map((_, i) => (isIntermittent(statuses.slice(0, i + 1), rule) ? 'intermittent' : 'stable'));
}
