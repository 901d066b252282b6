// Builds the Allure HTML report (Allure 3 CLI, settings in allurerc.mjs) from reports/allure-results. Allure
// does not clean its output folder, and each generate appends one history entry: so the output is deleted
// first, and a run already in the history is rebuilt against a throwaway copy of it.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..');
export const RESULTS = join(ROOT, 'reports', 'allure-results');
export const OUTPUT = join(ROOT, 'reports', 'allure');
const HISTORY = join(ROOT, 'reports', 'history', 'history.jsonl');
/** The run id whose results were last appended to the history. */
const LAST_RUN = join(ROOT, 'reports', 'history', 'last-run-id');

function runIdOfResults(): string | undefined {
  try {
    const info = JSON.parse(readFileSync(join(ROOT, 'reports', 'target.json'), 'utf8')) as { runId?: string };
    return info.runId;
  } catch {
    return undefined;
  }
}

/** Returns the CLI's exit code; 0 when there were no results to report (nothing ran). */
export function buildAllureReport(): number {
  if (!existsSync(RESULTS) || readdirSync(RESULTS).length === 0) {
    process.stdout.write('No Allure results in reports/allure-results: no report built.\n');
    return 0;
  }
  rmSync(OUTPUT, { recursive: true, force: true });
  mkdirSync(dirname(HISTORY), { recursive: true });
  const runId = runIdOfResults();
  const already =
    runId !== undefined && existsSync(LAST_RUN) && readFileSync(LAST_RUN, 'utf8').trim() === runId;
  let historyPath = HISTORY;
  if (already && existsSync(HISTORY)) {
    historyPath = join(tmpdir(), `ledger-conformance-history-${process.pid}.jsonl`);
    copyFileSync(HISTORY, historyPath);
  }
  // cli.js is not an exported subpath of the package: find it beside the entry point (dist/index.js).
  const cli = join(dirname(require.resolve('allure')), '..', 'cli.js');
  const res = spawnSync(process.execPath, [cli, 'generate', RESULTS], {
    cwd: ROOT,
    stdio: 'inherit',
    env: { ...process.env, ALLURE_HISTORY_PATH: historyPath },
  });
  if (historyPath !== HISTORY) rmSync(historyPath, { force: true });
  else if (runId !== undefined && res.status === 0) writeFileSync(LAST_RUN, runId + '\n');
  if (res.status === 0) {
    process.stdout.write(
      'Allure report: reports/allure/index.html (view it with `npx allure open reports/allure`)\n',
    );
  }
  return res.status ?? 1;
}
