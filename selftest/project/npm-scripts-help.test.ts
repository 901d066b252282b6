// Every `npm run` script answers --help with its usage and does nothing else: run as package.json says npm runs
// it, with --help appended (as `npm run <script> -- --help` does). The harness's own scripts print
// "Usage: npm run <script>"; the ones that are a tool's command (the self-tests' Playwright, the compiler) print
// that tool's usage. A script added without its usage fails here.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import { cleanEnv, ROOT, runNode } from '../support/child-run';

const scripts = (
  JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> }
).scripts;

/** The scripts whose command is a tool's own CLI: its usage is theirs. */
const TOOL_USAGE: Record<string, RegExp> = {
  test: /^Usage: npx playwright test /m,
  'test:unit': /^Usage: npx playwright test /m,
  typecheck: /^tsc: The TypeScript Compiler/m,
};

for (const [name, command] of Object.entries(scripts)) {
  test(`npm run ${name} -- --help: its usage, nothing done`, async () => {
    test.setTimeout(90_000);
    // Every script is a node command (no shell between npm and it), so --help reaches the script itself.
    const [bin, ...args] = command.split(' ');
    expect(bin, `${name}: "${command}" starts with node`).toBe('node');
    const run = await runNode([...args, '--help'], cleanEnv());
    expect(run.status, `${name}: ${run.stderr}`).toBe(0);
    expect(run.stdout).toMatch(
      TOOL_USAGE[name] ?? new RegExp(`^usage: npm run ${name.replace(':', '\\:')}\\b`, 'i'),
    );
  });
}
