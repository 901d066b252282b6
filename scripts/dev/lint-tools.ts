// The linters, one list: `npm run lint` runs them in this order and selftest/project/static.test.ts runs each as
// a self-test, so the two run the same commands. Each is a Node script under node_modules, by path (the
// packages' exports do not include their bin scripts).
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '..', '..');

/** The lint's config: a module, not .oxlintrc.json, so the layers are written as code (oxlint finds it only by -c). */
export const OXLINT_CONFIG = join(ROOT, 'oxlint.config.mjs');

export interface LintTool {
  name: string;
  /** `node <nodeArgs>` runs it in the project folder. */
  nodeArgs: string[];
}

const tool = (name: string, script: string, args: string[]): LintTool => ({
  name,
  nodeArgs: [join(ROOT, 'node_modules', script), ...args],
});

export const LINT_TOOLS: readonly LintTool[] = [
  // Every lint rule in one native pass (oxlint.config.mjs): typescript-eslint's typed rules on TypeScript 7's
  // checker, ESLint's and typescript-eslint's recommended, the layers (selftest/project/lint-rules.test.ts and
  // layers.test.ts show each fire).
  tool('oxlint (every lint rule and the import layers)', 'oxlint/bin/oxlint', [
    '--type-aware',
    '-c',
    OXLINT_CONFIG,
    '.',
  ]),
  // oxfmt: Prettier's formatting (.oxfmtrc.json holds the options .prettierrc.json held), native.
  tool('oxfmt --check (the formatting)', 'oxfmt/bin/oxfmt', ['--check', '.']),
];

/** `npm run format`: oxfmt writes the formatting in place. */
export const FORMAT_TOOL = tool('oxfmt (writes the formatting)', 'oxfmt/bin/oxfmt', ['.']);
