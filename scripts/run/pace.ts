// How fast a run may go at the participant, as the run-information block states it: how many tests at once
// (the choice itself is core/settings.ts' chooseWorkers: playwright.config.ts needs it first) and the timeout
// scale — LEDGER_TIMEOUT_SCALE when set, else one measured on the participant before any worker starts
// (scripts/preflight/checks.ts, timeAnswers), so a slow but working participant gets verdicts, not timeouts.
// Pure: the global setup and `npm run preflight` print what these return.
import type { Settings } from '../../core/settings';
import { TIMEOUTS } from '../../core/timeouts';

/** What the preflight measured: one answer each, on a connection already open. */
export interface AnswerTimes {
  versionMs: number;
  /**
   * One submission of the command template: its time, or the request timeout it did not answer within. Absent
   * when it was not timed: `why` says why.
   */
  submission: { ms: number; status: number } | { noAnswerWithinMs: number } | { why: string };
}

/** The largest scale LEDGER_TIMEOUT_SCALE takes, and so the largest measured one. */
const MAX_SCALE = 100;

export interface TimeoutScaleChoice {
  scale: number;
  /** Where the scale comes from, as the run-information block says it (in parentheses after the number). */
  source: string;
  /** Whether it was measured (to hand to the workers). */
  measured: boolean;
}

/** `12 ms`, `1.0 s`. */
export function duration(ms: number): string {
  return ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`;
}

/**
 * The run's timeout scale. An explicit LEDGER_TIMEOUT_SCALE always wins. Otherwise the slowest answer measured
 * over TIMEOUTS.referenceAnswerMs, rounded up to a tenth, never below 1 (today's defaults) nor above MAX_SCALE; a
 * submission that got no answer within the request timeout is not counted (no time would be right for it).
 * `times` undefined: nothing was measured, and `unmeasured` says why.
 */
export function chooseTimeoutScale(
  s: Pick<Settings, 'timeoutScale' | 'timeoutScaleExplicit'>,
  times: AnswerTimes | undefined,
  unmeasured = 'not measured',
): TimeoutScaleChoice {
  if (s.timeoutScaleExplicit)
    return { scale: s.timeoutScale, source: 'LEDGER_TIMEOUT_SCALE', measured: false };
  if (times === undefined)
    return { scale: 1, source: `${unmeasured}; LEDGER_TIMEOUT_SCALE unset`, measured: false };
  const sub = times.submission;
  const slowest = Math.max(times.versionMs, 'ms' in sub ? sub.ms : 0);
  const scale = Math.min(MAX_SCALE, Math.max(1, Math.ceil((slowest / TIMEOUTS.referenceAnswerMs) * 10) / 10));
  const submission =
    'ms' in sub
      ? `submission ${duration(sub.ms)}${sub.status < 300 ? '' : ` (answered ${sub.status})`}`
      : 'noAnswerWithinMs' in sub
        ? `submission: no answer within ${duration(sub.noAnswerWithinMs)}, not counted`
        : `no submission: ${sub.why}`;
  const fix = 'noAnswerWithinMs' in sub ? ': set it for a participant this slow' : '';
  return {
    scale,
    source: `measured: version ${duration(times.versionMs)}, ${submission}; LEDGER_TIMEOUT_SCALE unset${fix}`,
    measured: true,
  };
}

/** The run-information block's timeout line. */
export const timeoutScaleLine = (c: TimeoutScaleChoice): string => `${c.scale} (${c.source})`;

/**
 * The run-information block's workers line: the number Playwright runs (`--workers` on the command line
 * overrides the settings') and where it comes from.
 */
export function workersLine(
  effective: number | undefined,
  s: Pick<Settings, 'workers' | 'workersWhy'>,
): string {
  if (effective !== undefined && effective !== s.workers) return `${effective} (--workers)`;
  return `${s.workers} (${s.workersWhy})`;
}
