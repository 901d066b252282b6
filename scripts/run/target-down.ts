// The exit code of a run that could not judge the target: the participant was down from the start, or was lost
// during the run, and nothing else went wrong (no non-conformance, no harness defect). CI can then tell
// "participant down" from "participant non-conformant".
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { displayUrl } from '../../core/settings';
import { readJsonFile } from '../../reporters/allure-results';
import { EXIT } from '../../core/exit-codes';

export const TARGET_DOWN_EXIT = EXIT.targetDown;
/** A setting is wrong: the exit code of a run stopped by one, and of one whose only trouble was one. */
export const SETTING_EXIT = EXIT.badSetting;

/** Verdicts that say something is wrong besides the target being gone. */
const WORSE = new Set(['fail', 'unexpected-pass', 'harness-defect']);

interface Matrix {
  targetLost?: string;
  tests?: { verdict: string }[];
  changes?: { since: unknown; newFailures: unknown[]; harnessDefects?: unknown[] };
}

/**
 * `testsStatus` (Playwright's exit code), or TARGET_DOWN_EXIT when the rule matrix says the target was gone.
 * With LEDGER_FAIL_ON=regressions a run whose failures were all there in the baseline run passes: only a new
 * failure fails it, and so does a harness defect, never an old one (with no baseline to compare with, every
 * failure counts).
 */
export function runExitCode(
  matrixFile: string,
  testsStatus: number,
  failOn: 'any' | 'regressions' = 'any',
): number {
  const matrix = readJsonFile<Matrix>(matrixFile);
  if (testsStatus === 0) return testsStatus;
  if (matrix?.targetLost && !matrix.tests?.some((t) => WORSE.has(t.verdict))) return TARGET_DOWN_EXIT;
  // A configured user the participant does not know, and nothing else wrong: a setting to fix, as at the start.
  if (
    matrix?.tests?.some((t) => t.verdict === 'setup') &&
    !matrix.tests.some((t) => WORSE.has(t.verdict) || t.verdict === 'inconclusive')
  )
    return SETTING_EXIT;
  const changes = matrix?.changes;
  const regressions = (changes?.newFailures.length ?? 0) + (changes?.harnessDefects?.length ?? 0);
  if (failOn === 'regressions' && testsStatus === 1 && changes?.since && regressions === 0) return 0;
  return testsStatus;
}

/**
 * Why a shard could not judge the target, or undefined: its target.json says the target gave no answer when
 * the run started (or stopped answering during the preflight), or a worker marked it lost during the run
 * (core/target-lost.ts keeps the mark under the shard's output folder). A shard has no rule matrix: the
 * merge gives the verdict, this only lets the shard's exit code say what `npm run conformance` would.
 */
export function shardTargetDown(targetFile: string, outputDir: string): string | undefined {
  const unreachable = readJsonFile<{ unreachable?: string }>(targetFile)?.unreachable;
  if (unreachable) return `target unreachable: ${unreachable}`;
  const marks = join(outputDir, '.target-lost');
  const first = existsSync(marks) ? readdirSync(marks).sort()[0] : undefined;
  return first ? `target lost: ${readFileSync(join(marks, first), 'utf8')}` : undefined;
}

/** A shard's exit code: Playwright's, or TARGET_DOWN_EXIT when the target was gone and no test failed. */
export function shardExitCode(testsStatus: number, down: string | undefined): number {
  return down && (testsStatus === 0 || testsStatus === TARGET_DOWN_EXIT) ? TARGET_DOWN_EXIT : testsStatus;
}

/**
 * The one line a run that ends with TARGET_DOWN_EXIT prints, naming the participant by its URL without
 * credentials (or the in-process sandbox), so a nightly can tell "participant down" at a glance.
 */
export function targetDownLine(target: string | undefined, cause: string, consequence: string): string {
  const name = target ? displayUrl(target) : 'the in-process sandbox';
  return (
    `ledger-conformance: participant ${name} did not answer (${cause.replace(/^target unreachable: /, '')}): ` +
    `${consequence}; check that it is running and that this machine reaches it`
  );
}
