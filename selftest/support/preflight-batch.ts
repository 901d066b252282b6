// Many `npm run preflight` cases in ONE child (./preflight-batch-child.ts): each case's settings in turn, with
// what the command would print on stdout and stderr and its exit code. A child of its own per case loads the
// same modules again each time; there they load once. For the cases whose line and code are asserted; the
// command's own process (its entry's exit) keeps a child of its own in preflight.test.ts.
import { cleanEnv, runNode, type ChildOutcome } from './child-run';

/** Each case's outcome, in the order given: the child's environment is the clean one with the case's settings on top. */
export async function preflightBatch(cases: readonly Record<string, string>[]): Promise<ChildOutcome[]> {
  const run = await runNode(
    ['--require', 'tsx/cjs', 'selftest/support/preflight-batch-child.ts', JSON.stringify(cases)],
    cleanEnv(),
  );
  if (run.status !== 0) throw new Error(`the preflight batch ended with ${run.status}:\n${run.stderr}`);
  return JSON.parse(run.stdout) as ChildOutcome[];
}
