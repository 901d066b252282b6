// `npm run lint`: oxlint's typed rules, ESLint, then Prettier's check, over the whole repository (./lint-tools.ts,
// the commands selftest/project/static.test.ts runs); `npm run format` (`--write`): Prettier writes the
// formatting instead. Exit code: the first that failed.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { answerHelp } from '../../core/cli-help';
import { FORMAT_TOOL, LINT_TOOLS } from './lint-tools';

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

let code = 0;
for (const { nodeArgs } of write ? [FORMAT_TOOL] : LINT_TOOLS) {
  if (code === 0) code = spawnSync(process.execPath, nodeArgs, { cwd: ROOT, stdio: 'inherit' }).status ?? 1;
}
process.exit(code);
