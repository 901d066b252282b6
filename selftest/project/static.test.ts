// The type check, the linter and the formatter's check, as self-tests of their own project: run first and alone, these
// mostly single-threaded tools left a core idle; here they run beside the fault runs. `npm run typecheck` and
// `npm run lint` run the same commands alone.
import { expect, test } from '../support/test';
import { join } from 'node:path';
import { LINT_TOOLS, NO_GO_GC } from '../../scripts/dev/lint-tools';
import { ROOT, runNode } from '../support/child-run';

const TOOLS: [string, string[], NodeJS.ProcessEnv?][] = [
  // TypeScript 7's native compiler. One thread: the fault run and the other self-tests hold the other core, and the checker's
  // threads would only contend with them. By path: its package's exports do not include its bin script.
  [
    'tsc --noEmit (strict type check)',
    [join(ROOT, 'node_modules/typescript/bin/tsc'), '--noEmit', '-p', '.', '--singleThreaded'],
    NO_GO_GC,
  ],
  // The linters `npm run lint` runs, the same commands (scripts/dev/lint-tools.ts).
  ...LINT_TOOLS.map(({ name, nodeArgs, env }): [string, string[], NodeJS.ProcessEnv] => [
    name,
    nodeArgs,
    env,
  ]),
];

test.describe.configure({ mode: 'parallel' });

for (const [name, args, env] of TOOLS) {
  test(`${name} finds nothing`, async () => {
    // Far above what the slowest tool takes on a busy 2-core machine.
    test.setTimeout(180_000);
    const run = await runNode(args, { ...process.env, ...env });
    expect(run.status, `${run.stdout}\n${run.stderr}`.slice(-6000)).toBe(0);
  });
}
