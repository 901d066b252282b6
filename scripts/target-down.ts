// The exit code of a run that could not judge the target: the participant was down from the start, or was lost
// during the run, and nothing else went wrong (no non-conformance, no harness defect). CI can then tell
// "participant down" from "participant non-conformant".
import { readJsonFile } from '../reporters/allure-results';

export const TARGET_DOWN_EXIT = 4;

/** Verdicts that say something is wrong besides the target being gone. */
const WORSE = new Set(['fail', 'unexpected-pass', 'harness-defect']);

/** `testsStatus` (Playwright's exit code), or TARGET_DOWN_EXIT when the rule matrix says the target was gone. */
export function runExitCode(matrixFile: string, testsStatus: number): number {
  const matrix = readJsonFile<{ targetLost?: string; tests?: { verdict: string }[] }>(matrixFile);
  if (testsStatus === 0 || !matrix?.targetLost) return testsStatus;
  return matrix.tests?.some((t) => WORSE.has(t.verdict)) ? testsStatus : TARGET_DOWN_EXIT;
}
