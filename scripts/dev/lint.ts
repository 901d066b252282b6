// `npm run lint`: oxlint's typed rules, ESLint, then Prettier's check, over the whole repository (the same commands
// selftest/project/static.test.ts runs); `npm run format` (`--write`): Prettier writes the formatting
// instead. Exit code: the first that failed.
import { spawnSync } from 'node:child_process';
import { join, resolve } from 'node:path';
import { answerHelp } from '../../core/cli-help';
import { LINT_NODE_FLAGS } from './lint-flags';

const ROOT = resolve(__dirname, '..', '..');
const write = process.argv.includes('--write');

answerHelp(
  write
    ? `Usage: npm run format
Formats every file Prettier covers in place (prettier --write .; .prettierignore says what it leaves alone).`
    : `Usage: npm run lint
typescript-eslint's typed rules in oxlint (.oxlintrc.json, on TypeScript 7's checker), then ESLint
(eslint.config.mjs: the import layers and the rules that read no types), then Prettier's check
(prettier --check .), over the repository. Exit 0 when all pass; otherwise the exit code of the first that
failed.
To fix the formatting: npm run format.`,
);

const bin = (...path: string[]): string => join(ROOT, 'node_modules', ...path);
const run = (file: string, args: string[], nodeFlags = LINT_NODE_FLAGS): number =>
  spawnSync(process.execPath, [...nodeFlags, file, ...args], { cwd: ROOT, stdio: 'inherit' }).status ?? 1;

const steps: (() => number)[] = write
  ? [() => run(bin('prettier', 'bin', 'prettier.cjs'), ['--write', '.'])]
  : [
      // Native: the heap flags are for the Node tools.
      () => run(bin('oxlint', 'bin', 'oxlint'), ['--type-aware', '.'], []),
      () => run(bin('eslint', 'bin', 'eslint.js'), ['.']),
      () => run(bin('prettier', 'bin', 'prettier.cjs'), ['--check', '.']),
    ];
let code = 0;
for (const step of steps) if (code === 0) code = step();
process.exit(code);
