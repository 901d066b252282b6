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
  /** Added to the environment it runs with. */
  env: Record<string, string>;
}

/**
 * A Go checker's runtime (TypeScript 7's, the one oxlint's typed rules run on): GOGC=off, with GOMEMLIMIT as the
 * bound at which Go collects after all. A single check allocates little it could free before it exits, so
 * collecting along the way is CPU spent for nothing.
 */
export const NO_GO_GC = { GOGC: 'off', GOMEMLIMIT: '2GiB' };

const tool = (name: string, script: string, args: string[], env: Record<string, string> = {}): LintTool => ({
  name,
  nodeArgs: [join(ROOT, 'node_modules', script), ...args],
  env,
});

export const LINT_TOOLS: readonly LintTool[] = [
  // Every lint rule in one native pass (oxlint.config.mjs): oxlint's correctness preset, its type-aware rules on
  // TypeScript 7's checker, the house's rules (selftest/project/layers.test.ts shows each fire). One thread, its
  // checker's too: beside the other checks and self-tests a second one only contends with them.
  tool(
    'oxlint (every lint rule and the import layers)',
    'oxlint/bin/oxlint',
    ['--type-aware', '--threads=1', '-c', OXLINT_CONFIG, '.'],
    { ...NO_GO_GC, GOMAXPROCS: '1' },
  ),
  // oxfmt: Prettier's formatting (.oxfmtrc.json holds the options .prettierrc.json held), native.
  tool('oxfmt --check (the formatting)', 'oxfmt/bin/oxfmt', ['--check', '.']),
];

/** `npm run format`: oxfmt writes the formatting in place. */
export const FORMAT_TOOL = tool('oxfmt (writes the formatting)', 'oxfmt/bin/oxfmt', ['.']);
