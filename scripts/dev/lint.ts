// `npm run lint`: oxlint (every lint rule), then oxfmt's check of the formatting, over the whole repository
// (./lint-tools.ts, the commands selftest/project/static.test.ts runs); `npm run format` (`--write`): oxfmt
// writes the formatting instead. Exit code: the first that failed.
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import { answerHelp } from '../../core/cli-help';
import { FORMAT_TOOL, LINT_TOOLS } from './lint-tools';

const ROOT = resolve(__dirname, '..', '..');
const write = process.argv.includes('--write');

answerHelp(
  write
    ? `Usage: npm run format
Formats every file oxfmt covers in place (oxfmt .; .oxfmtrc.json's ignorePatterns say what it leaves alone).`
    : `Usage: npm run lint
oxlint (oxlint.config.mjs: its correctness preset with its type-aware rules, the import layers, no import
cycle, functions of at most 60 lines, no floating promises), then oxfmt's check of the formatting (oxfmt --check .),
over the repository. Exit 0 when both pass; otherwise the exit code of the first that failed.
To fix the formatting: npm run format.`,
);

let code = 0;
for (const { nodeArgs, env } of write ? [FORMAT_TOOL] : LINT_TOOLS) {
  if (code === 0) {
    const run = spawnSync(process.execPath, nodeArgs, {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...env },
    });
    code = run.status ?? 1;
  }
}
process.exit(code);
