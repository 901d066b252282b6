// `npm run compare -- [--out DIR] <run> <run> …`: several runs side by side (two participants, or one participant
// before and after an upgrade). Each argument is a run's reports folder or an unzipped nightly artifact of one
// (conformance.json, maybe target.json). Writes DIR/compare.md and DIR/compare.html (DIR defaults to reports/)
// and prints how many rules differ. Exit 0 once written, whatever differs; 2 on bad input (one line).
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { answerHelp } from '../../core/cli-help';
import { compareRuns, CompareInputError, readRun } from '../../reporters/compare-runs';
import {
  renderCompareHtml,
  renderCompareMarkdown,
  renderCompareSummary,
} from '../../reporters/compare-render';
import { EXIT } from '../../core/exit-codes';
import { DEFAULT_REPORTS_DIR } from '../../core/reports-dir';

const USAGE = 'npm run compare -- [--out DIR] <run folder> <run folder> …';

function fail(message: string): never {
  process.stderr.write(`ledger-conformance: ${message}\n`);
  process.exit(EXIT.badSetting);
}

function main(): void {
  answerHelp(`Usage: ${USAGE}
Several runs side by side (two participants, or one before and after an upgrade). Each <run folder> is a run's
reports folder or an unzipped nightly artifact (conformance.json, maybe target.json). Writes compare.md and
compare.html in --out (default reports/) and prints how many rules differ. Exit 0 once written; 2 on bad input.`);
  let parsed: ReturnType<typeof parseArgs<{ options: { out: { type: 'string' } }; allowPositionals: true }>>;
  try {
    parsed = parseArgs({ options: { out: { type: 'string' } }, allowPositionals: true });
  } catch (e) {
    // Node's message goes on about positionals after `--`: its first sentence names the option.
    fail(`${(e as Error).message.split(/\.(\s|$)/)[0]}: ${USAGE}`);
  }
  const { values, positionals } = parsed;
  if (positionals.length === 0) fail(`no run to compare: ${USAGE}`);
  if (values.out === '') fail(`--out is empty: give the folder to write compare.md and compare.html in`);
  // npm runs the script in the project folder; the user's paths are relative to where npm was started.
  const cwd = process.env.INIT_CWD || process.cwd();
  let comparison;
  try {
    comparison = compareRuns(positionals.map((folder) => readRun(folder, cwd)));
  } catch (e) {
    if (e instanceof CompareInputError) fail(e.message);
    throw e;
  }
  const out = values.out === undefined ? DEFAULT_REPORTS_DIR : resolve(cwd, values.out);
  try {
    mkdirSync(out, { recursive: true });
    writeFileSync(join(out, 'compare.md'), renderCompareMarkdown(comparison));
    writeFileSync(join(out, 'compare.html'), renderCompareHtml(comparison));
  } catch (e) {
    fail(`cannot write in --out ${out}: ${(e as NodeJS.ErrnoException).code ?? (e as Error).message}`);
  }
  const near = relative(cwd, out);
  const shown = near.startsWith('..') ? out : near || '.';
  process.stdout.write(
    renderCompareSummary(comparison) +
      `Wrote ${join(shown, 'compare.md')} and ${join(shown, 'compare.html')}\n`,
  );
}

main();
