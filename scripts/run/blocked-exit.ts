// The exit code of a run whose submitting rules were blocked by the participant's vetting listing
// (core/blocked.ts): the VET- rules judged that listing meanwhile. One of them failed: the participant is broken
// (exit 1, the failure). All passed: the listing stands, so the setting is wrong (exit 2 when nothing else
// failed), named in the one line the preflight prints.
import type { Blocked } from '../../core/blocked';
import { EXIT } from '../../core/exit-codes';
import { readJsonFile } from '../../reporters/allure-results';

interface Matrix {
  rules?: { id: string; verdict: string }[];
}

/** The line to print (undefined: none) and the exit code, from the run's target.json and rule matrix. */
export function blockedOutcome(
  targetFile: string,
  matrixFile: string,
  testsStatus: number,
): { line?: string; code: number } {
  const blocked = readJsonFile<{ blocked?: Blocked }>(targetFile)?.blocked;
  if (blocked === undefined) return { code: testsStatus };
  const failed = (readJsonFile<Matrix>(matrixFile)?.rules ?? [])
    .filter((r) => r.id.startsWith('VET-') && r.verdict === 'fail')
    .map((r) => r.id);
  if (failed.length > 0)
    return {
      line: `the participant's vetting listing fails ${failed.join(', ')}: the rules that submit were blocked by what it said (${blocked.answered}), not by a setting`,
      code: testsStatus === 0 ? EXIT.failed : testsStatus,
    };
  return {
    line: `${blocked.line} (the VET- rules pass: the participant's listing stands)`,
    code: testsStatus === 0 ? EXIT.badSetting : testsStatus,
  };
}
