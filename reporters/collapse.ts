// A night of collapse: most rules that passed in the target's last healthy run failed or were inconclusive
// together (the participant half down, a proxy failing). Such a run is kept in the series, marked, and shown in
// the pictures, but no status of it counts toward the intermittent rule and it is no baseline for the next run:
// every rule's state stays as it was. Trunk's flaky detection leaves such nights out the same way.
import type { JudgedRun } from './run-series';
import type { RuleVerdict } from './verdicts';

/** More than this share of the rules that passed last failed or went inconclusive together. */
export const COLLAPSE_SHARE = 0.5;
/** Fewer rules than this passing before is too small a sample to call anything a collapse. */
export const COLLAPSE_MIN_RULES = 10;

const GONE_BAD: ReadonlySet<RuleVerdict> = new Set(['fail', 'inconclusive', 'harness-defect']);

/** Why tonight is a collapse, or undefined when it is not. */
export function collapseOf(
  series: readonly JudgedRun[],
  tonight: Readonly<Record<string, RuleVerdict>>,
): string | undefined {
  const healthy = [...series].reverse().find((r) => !r.collapsed);
  if (healthy === undefined) return undefined;
  // Rules that passed then and were run tonight (a rule not selected tonight says nothing).
  const passed = Object.entries(healthy.verdicts)
    .filter(([rule, v]) => v === 'pass' && tonight[rule] !== undefined && tonight[rule] !== 'not-run')
    .map(([rule]) => rule);
  if (passed.length < COLLAPSE_MIN_RULES) return undefined;
  const bad = passed.filter((rule) => GONE_BAD.has(tonight[rule]!));
  if (bad.length <= passed.length * COLLAPSE_SHARE) return undefined;
  return `${bad.length} of the ${passed.length} rules that passed on ${healthy.generatedAt} failed or were inconclusive together`;
}
