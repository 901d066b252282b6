// `npm run baseline -- save <name> | list`: keeps the last run's verdicts of its target as a named baseline
// (e.g. before an upgrade), which a later run compares with when LEDGER_COMPARE_WITH=<name>. Baselines live in
// the target's history folder (reports/history/targets/…/baselines/), kept between runs as the history is.
import { copyFileSync, existsSync, mkdirSync, readdirSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import { answerHelp } from '../../core/cli-help';
import { readJsonFile } from '../../reporters/allure-results';
import { BASELINE_NAME, baselineFile, targetHistoryDir, type RunTarget } from '../../reporters/run-history';
import { reportsDir } from '../../core/reports-dir';
import { compareWithSetting } from '../../core/settings';

const REPORTS = reportsDir();

/** Why LEDGER_COMPARE_WITH cannot be used for this target, in one line, or undefined when it can. */
export function compareWithProblem(
  historyDir: string,
  target: RunTarget,
  setting = compareWithSetting(),
): string | undefined {
  if (!setting || setting === 'previous') return undefined;
  if (!BASELINE_NAME.test(setting)) {
    return `LEDGER_COMPARE_WITH="${setting}" is not valid: set it to previous, or to the name of a baseline saved with npm run baseline -- save <name> (letters, digits, . _ -)`;
  }
  const file = baselineFile(targetHistoryDir(historyDir, target), setting);
  if (existsSync(file)) return undefined;
  return `LEDGER_COMPARE_WITH=${setting}: this target (${target.baseUrl ?? 'unknown'}) has no baseline of that name: save one after a run with npm run baseline -- save ${setting}, or unset it to compare with the previous run`;
}

interface LastRun {
  target?: RunTarget;
}

function main(argv: string[]): number {
  const [command, name] = argv;
  const history = join(REPORTS, 'history');
  const run = readJsonFile<LastRun>(join(REPORTS, 'conformance.json'));
  if (run?.target === undefined) {
    process.stderr.write(
      `ledger-conformance: no run in ${relative(process.cwd(), REPORTS) || '.'} to take a baseline from: run npm run conformance first\n`,
    );
    return 2;
  }
  const dir = targetHistoryDir(history, run.target);
  if (command === 'list') {
    const names = existsSync(join(dir, 'baselines'))
      ? readdirSync(join(dir, 'baselines')).map((f) => f.replace(/\.json$/, ''))
      : [];
    process.stdout.write(
      names.length ? `${names.join('\n')}\n` : `no baseline saved for ${run.target.baseUrl}\n`,
    );
    return 0;
  }
  if (command !== 'save' || name === undefined || !BASELINE_NAME.test(name)) {
    process.stderr.write(
      'ledger-conformance: usage: npm run baseline -- save <name> (letters, digits, . _ -) | list\n',
    );
    return 2;
  }
  const last = join(dir, 'last-run.json');
  if (!existsSync(last)) {
    process.stderr.write(
      `ledger-conformance: the last run of ${run.target.baseUrl} kept no verdicts (did it reach the target?): run npm run conformance first\n`,
    );
    return 2;
  }
  const file = baselineFile(dir, name);
  mkdirSync(dirname(file), { recursive: true });
  copyFileSync(last, file);
  process.stdout.write(
    `baseline ${name} saved for ${run.target.baseUrl}: compare a later run with it with LEDGER_COMPARE_WITH=${name}\n`,
  );
  return 0;
}

if (require.main === module) {
  answerHelp(`Usage: npm run baseline -- save <name> | list
save <name>  keeps the last run's verdicts of its target as a named baseline (letters, digits, . _ -), e.g.
             before an upgrade; a later run compares with it when LEDGER_COMPARE_WITH=<name>
list         the baselines saved for the last run's target`);
  process.exit(main(process.argv.slice(2)));
}
