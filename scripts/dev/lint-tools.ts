// The linters, one list: `npm run lint` runs them in this order and selftest/project/static.test.ts runs each as
// a self-test, so the two run the same commands. Each is a Node script under node_modules, by path (the
// packages' exports do not include their bin scripts).
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

// ESLint and Prettier allocate short-lived objects by the million: a larger young generation collects them less
// often, and one collector thread spares the cost of coordinating helpers the other tools already keep busy.
const HEAP_FLAGS = ['--single-threaded-gc', '--max-semi-space-size=64'];

export interface LintTool {
  name: string;
  /** `node <nodeArgs>` runs it in the project folder. */
  nodeArgs: string[];
}

const tool = (name: string, script: string, args: string[], flags = HEAP_FLAGS): LintTool => ({
  name,
  nodeArgs: [...flags, join(ROOT, 'node_modules', script), ...args],
});

export const LINT_TOOLS: readonly LintTool[] = [
  // typescript-eslint's typed rules on TypeScript 7's checker (.oxlintrc.json; selftest/project/typed-lint.test.ts
  // shows each fire). Native: the heap flags are for the Node tools.
  tool('oxlint (typed rules)', 'oxlint/bin/oxlint', ['--type-aware', '.'], []),
  tool('eslint (the import layers and the untyped rules)', 'eslint/bin/eslint.js', ['.']),
  // .prettierrc.json loads @prettier/plugin-oxc: a native parser for .ts/.mjs/.cjs, cheaper than Prettier's own
  // (TypeScript's); Prettier's printer writes the same output from either, and editors read the same config.
  tool('prettier --check', 'prettier/bin/prettier.cjs', ['--check', '.']),
];

/** `npm run format`: Prettier writes the formatting in place. */
export const FORMAT_TOOL = tool('prettier --write', 'prettier/bin/prettier.cjs', ['--write', '.']);
