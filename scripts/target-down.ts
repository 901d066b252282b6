// The exit code of a run that could not judge the target: the participant was down from the start, or was lost
// during the run, and nothing else went wrong (no non-conformance, no harness defect). CI can then tell
// "participant down" from "participant non-conformant".
import { readJsonFile } from '../reporters/allure-results';

export const TARGET_DOWN_EXIT = 4;

/** Verdicts that say something is wrong besides the target being gone. */
const WORSE = new Set(['fail', 'unexpected-pass', 'harness-defect']);

interface Matrix {
  targetLost?: string;
  tests?: { verdict: string }[];
  changes?: { since: unknown; newFailures: unknown[] };
}

/**
 * `testsStatus` (Playwright's exit code), or TARGET_DOWN_EXIT when the rule matrix says the target was gone.
 * With LEDGER_FAIL_ON=regressions a run whose failures were all there in the baseline run passes: only a new
 * failure fails it (with no baseline to compare with, every failure counts).
 */
export function runExitCode(
  matrixFile: string,
  testsStatus: number,
  failOn: 'any' | 'regressions' = 'any',
): number {
  const matrix = readJsonFile<Matrix>(matrixFile);
  if (testsStatus === 0) return testsStatus;
  if (matrix?.targetLost && !matrix.tests?.some((t) => WORSE.has(t.verdict))) return TARGET_DOWN_EXIT;
  const changes = matrix?.changes;
  if (failOn === 'regressions' && testsStatus === 1 && changes?.since && changes.newFailures.length === 0)
    return 0;
  return testsStatus;
}
