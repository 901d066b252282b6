// Every `npm run` script answers --help with its usage and does nothing else: run as package.json says npm runs
// it, with --help appended (as `npm run <script> -- --help` does). The harness's own scripts print
// "Usage: npm run <script>"; the ones that are a tool's command (the self-tests' Playwright, the compiler) print
// that tool's usage. A script added without its usage fails here.
// The scripts run as `node --require tsx/cjs <file>` are started one after the other in ONE such process
// (support/help-batch-child.ts: each as node starts a main script, with its output and first exit code); the
// tools' commands, and `conformance` as the check that one process tells what a process of its own does, each
// run in a process of their own.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { cleanEnv, ROOT, runNode, type ChildOutcome } from '../support/child-run';

const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** The scripts whose command is a tool's own CLI: its usage is theirs. */
const TOOL_USAGE: Record<string, RegExp> = {
  test: /^Usage: npx playwright test /m,
  typecheck: /^tsc: The TypeScript Compiler/m,
};

/** The script file of a command `node --require tsx/cjs <file>`, else undefined. */
const tsxScript = (command: string): string | undefined =>
  /^node --require tsx\/cjs (\S+)$/.exec(command)?.[1];
/** The scripts started in the one process; `conformance` also runs in one of its own. */
const batched = Object.entries(scripts).filter(
  ([name, command]) => tsxScript(command) && name !== 'conformance',
);

// In order in one worker: the batched scripts' tests read one child's output.
test.describe.configure({ mode: 'default' });
let batch: Promise<Record<string, ChildOutcome>> | undefined;
async function inBatch(name: string): Promise<ChildOutcome> {
  batch ??= runNode(
    [
      '--require',
      'tsx/cjs',
      'selftest/support/help-batch-child.ts',
      ...batched.map(([, c]) => tsxScript(c)!),
    ],
    cleanEnv(),
  ).then((run) => {
    expect(run.status, run.stderr).toBe(0);
    const byFile = JSON.parse(run.stdout) as Record<string, ChildOutcome>;
    return Object.fromEntries(batched.map(([n, c]) => [n, byFile[tsxScript(c)!]!]));
  });
  const outcome = (await batch)[name];
  expect(outcome, `${name}: not started, a script before it did not exit`).toBeDefined();
  return outcome!;
}

for (const [name, command] of Object.entries(scripts)) {
  test(`npm run ${name} -- --help: its usage, nothing done`, async () => {
    test.setTimeout(90_000);
    // Every script is a node command (no shell between npm and it), so --help reaches the script itself.
    const [bin, ...args] = command.split(' ');
    expect(bin, `${name}: "${command}" starts with node`).toBe('node');
    const run = batched.some(([n]) => n === name)
      ? await inBatch(name)
      : await runNode([...args, '--help'], cleanEnv());
    expect(run.status, `${name}: ${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(
      TOOL_USAGE[name] ?? new RegExp(`^usage: npm run ${name.replace(':', '\\:')}\\b`, 'i'),
    );
  });
}
