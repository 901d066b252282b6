// The type check, ESLint and Prettier, as self-tests of their own project: each tool is one thread, so run
// first and alone they left a core idle for half a minute; here they run beside the fault runs. `npm run
// typecheck` and `npm run lint` run the same commands alone.
import { expect, test } from '@playwright/test';
import { join } from 'node:path';
import { ROOT, runNode } from '../support/child-run';

// By path: eslint's and prettier's package exports do not include their bin scripts.
const bin = (path: string) => join(ROOT, 'node_modules', path);
const TOOLS: [string, string[]][] = [
  // TypeScript 7's native compiler (typescript-native, an alias of typescript@7): the same check in a fifth of
  // the time; typescript@5.9 stays for typed ESLint, which needs the compiler API TS 7 does not ship.
  ['tsc --noEmit (strict type check)', [bin('typescript-native/bin/tsc'), '--noEmit', '-p', '.']],
  ['eslint (typed rules)', [bin('eslint/bin/eslint.js'), '.']],
  // .prettierrc.json loads @prettier/plugin-oxc: a native parser for .ts/.mjs/.cjs, cheaper than Prettier's own
  // (TypeScript's); Prettier's printer writes the same output from either, and editors read the same config.
  ['prettier --check', [bin('prettier/bin/prettier.cjs'), '--check', '.']],
];

test.describe.configure({ mode: 'parallel' });

for (const [name, args] of TOOLS) {
  test(`${name} finds nothing`, async () => {
    // Far above what ESLint, the slowest, takes on a busy 2-core machine.
    test.setTimeout(180_000);
    const run = await runNode(args, process.env);
    expect(run.status, `${run.stdout}\n${run.stderr}`.slice(-6000)).toBe(0);
  });
}
