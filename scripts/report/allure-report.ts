// Builds the Allure HTML report (Allure Report 3, settings in allurerc.ts) from reports/allure-results:
// 1. the results get each test's verdict from the rule matrix (label `verdict`, the categories' key) and the
//    environment block (target, version, capabilities, run id, seed, timeout scale, harness version);
// 2. one generation writes both the served report and the single-file one (two awesome plugins), so a
//    run appends exactly one entry to its target's Allure history (reports/history/targets/<target>/). Allure does not clean its output
//    folder: it is deleted first; a run already in the history is rebuilt against a throwaway copy of the
//    history as it was before that run;
// 3. the generator's third-party analytics script is stripped; a page still referencing anything external
//    fails the build.
// The generation runs in this process through @allurereport/core — what `allure generate` calls — and its
// modules load apart from it (`preloadAllure`): `npm run conformance` loads them while the tests run, once the
// first results are written (`preloadAllureOnResults`), so the report costs only the generation after them and a
// run that writes no results (a config with other reporters) never loads them.
// LEDGER_REPORTS_DIR moves every path (the self-tests build reports in their own folders).
import { targetHistoryDir, type Changes } from '../../reporters/run-history';
import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  watch,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, resolve } from 'node:path';
import { makeOffline } from '../../reporters/allure-html';
import {
  markKnownDeviations,
  markIntermittent,
  markRecheckedFailures,
  markVerdictElements,
  type JUnitVerdict,
} from '../../reporters/junit-verdicts';
import {
  annotateResults,
  dropSkipGlobals,
  environmentEntries,
  readJsonFile,
  writeEnvironment,
  type TargetFile,
  type VerdictOfTest,
} from '../../reporters/allure-results';
import type { FingerprintChange } from '../../reporters/fingerprint';
import { PROJECT_ROOT, reportsDir } from '../../core/reports-dir';
import { EXIT } from '../../core/exit-codes';
import ALLURE_CONFIG from '../../allurerc';

export const ROOT = PROJECT_ROOT;

/** Every path of a run's reports, under `reports` (default reports/, or LEDGER_REPORTS_DIR). */
export function reportPaths(reports = reportsDir()) {
  const dir = resolve(ROOT, reports);
  return {
    dir,
    results: join(dir, 'allure-results'),
    /** The served report: `npx allure open reports/allure`. */
    output: join(dir, 'allure'),
    /** The same report in one file, for mailing: opens from file://. */
    singleFile: join(dir, 'allure-single.html'),
    /** Every target's history folder (reporters/run-history.ts): Allure's history is kept in each. */
    historyDir: join(dir, 'history'),
    target: join(dir, 'target.json'),
    matrix: join(dir, 'conformance.json'),
    /** The rule matrix for reading (reporters/rule-matrix.ts writes both). */
    markdown: join(dir, 'conformance.md'),
    junit: join(dir, 'junit.xml'),
  };
}

/**
 * Allure's history of the run's target, in the target's own history folder (keyed by its URL and participant
 * id, as the verdict history is): History, Flaky and the trends never mix participants.
 */
export function allureHistoryOf(paths: ReturnType<typeof reportPaths>): { history: string; lastRun: string } {
  const target = readJsonFile<TargetFile>(paths.target);
  const dir = targetHistoryDir(paths.historyDir, {
    baseUrl: target?.baseUrl,
    participantId: target?.participantId,
  });
  return { history: join(dir, 'allure-history.jsonl'), lastRun: join(dir, 'allure-last-run-id') };
}

const RESULTS_STAGING = 'allure-build';

type AllureCore = typeof import('@allurereport/core');
let allureCore: Promise<AllureCore> | undefined;

/**
 * Loads Allure's generator and the plugins allurerc.ts names, once per process. Call it early (nothing is
 * written); `buildAllureReport` awaits it.
 */
export function preloadAllure(): Promise<AllureCore> {
  allureCore ??= import('@allurereport/core').then(async (core) => {
    // Resolving the config imports its plugins; the throwaway output is never written.
    await core.resolveConfig(ALLURE_CONFIG, {
      cwd: ROOT,
      output: join(tmpdir(), 'ledger-conformance-preload'),
    });
    return core;
  });
  // A failure is reported by the build that awaits it, not as an unhandled rejection here.
  allureCore.catch(() => undefined);
  return allureCore;
}

/**
 * `preloadAllure` as soon as the results folder appears (the first result written), watching its parent; the
 * function returned stops watching. Without a parent to watch it loads at once.
 */
export function preloadAllureOnResults(results: string): () => void {
  const startIfThere = (): boolean => {
    if (!existsSync(results)) return false;
    void preloadAllure();
    return true;
  };
  try {
    mkdirSync(dirname(results), { recursive: true });
    const watcher = watch(dirname(results), () => {
      if (startIfThere()) watcher.close();
    });
    watcher.on('error', () => {
      watcher.close();
      void preloadAllure();
    });
    // Watching first, then looking: a folder made in between is seen by the look.
    if (startIfThere()) watcher.close();
    return () => watcher.close();
  } catch {
    void preloadAllure();
    return () => undefined;
  }
}

/** `allure generate` of one results folder, in this process: the same calls as the CLI's generate command. */
async function generate(results: string, output: string, historyPath: string): Promise<void> {
  const { resolveConfig, AllureReport } = await preloadAllure();
  const config = await resolveConfig(ALLURE_CONFIG, { cwd: ROOT, output, historyPath });
  const report = new AllureReport(config);
  await report.start();
  await report.readDirectory(results);
  await report.done();
}

function harnessVersion(): string {
  const pkg = readJsonFile<{ name?: string; version?: string }>(join(ROOT, 'package.json'));
  return `${pkg?.name ?? 'ledger-conformance'} ${pkg?.version ?? 'unknown'}`;
}

/** Step 1: verdict labels and the environment block, from the matrix and the global setup's target file. */
export function prepareResults(paths = reportPaths()): { unjudged: string[] } {
  const matrix = readJsonFile<{
    tests?: VerdictOfTest[];
    fingerprintChanges?: FingerprintChange[];
    changes?: Changes;
  }>(paths.matrix);
  const { unjudged } = annotateResults(paths.results, matrix?.tests ?? []);
  if (unjudged.length > 0) {
    process.stdout.write(
      `report: ${unjudged.length} result(s) have no verdict from ${relative(ROOT, paths.matrix)} ` +
        '(was the rule-matrix reporter in this run?): labelled from their Allure status\n',
    );
  }
  dropSkipGlobals(paths.results);
  const target = readJsonFile<TargetFile>(paths.target);
  writeEnvironment(
    paths.results,
    environmentEntries(target, matrix?.fingerprintChanges, harnessVersion(), matrix?.changes, matrix?.tests),
  );
  return { unjudged };
}

/** Returns the exit code: 1 when the generation fails or a page references anything external; 0 when there was nothing to report. */
export async function buildAllureReport(paths = reportPaths()): Promise<number> {
  // JUnit in the matrix's words first: it is read whether or not there is an Allure report to build.
  const judged = readJsonFile<{ tests?: JUnitVerdict[] }>(paths.matrix)?.tests ?? [];
  markVerdictElements(paths.junit, judged);
  markKnownDeviations(paths.junit, judged);
  markRecheckedFailures(paths.junit, judged);
  markIntermittent(paths.junit, judged);
  if (!existsSync(paths.results) || readdirSync(paths.results).length === 0) {
    process.stdout.write(`No Allure results in ${relative(ROOT, paths.results)}: no report built.\n`);
    return 0;
  }
  prepareResults(paths);
  const staging = join(paths.dir, RESULTS_STAGING);
  for (const p of [paths.output, paths.singleFile, staging]) rmSync(p, { recursive: true, force: true });
  const own = allureHistoryOf(paths);
  mkdirSync(dirname(own.history), { recursive: true });
  const runId = readJsonFile<TargetFile>(paths.target)?.runId;
  const already =
    runId !== undefined && existsSync(own.lastRun) && readFileSync(own.lastRun, 'utf8').trim() === runId;
  let historyPath = own.history;
  if (already && existsSync(own.history)) {
    // A rebuild of the run last appended: Allure reads the history as it was before this run (without its
    // line, which it would otherwise show as its own previous run) and appends to a throwaway copy.
    historyPath = join(tmpdir(), `ledger-conformance-history-${process.pid}.jsonl`);
    const lines = readFileSync(own.history, 'utf8').split('\n').filter(Boolean);
    writeFileSync(
      historyPath,
      lines
        .slice(0, -1)
        .map((l) => l + '\n')
        .join(''),
    );
  }
  try {
    await generate(paths.results, staging, historyPath);
  } catch (e) {
    process.stderr.write(`report: Allure could not build the report: ${(e as Error).message}\n`);
    return EXIT.failed;
  } finally {
    if (historyPath !== own.history) rmSync(historyPath, { force: true });
  }
  if (runId !== undefined) writeFileSync(own.lastRun, runId + '\n');
  // Two plugins: staging/awesome (served) and staging/single (one index.html).
  renameSync(join(staging, 'awesome'), paths.output);
  renameSync(join(staging, 'single', 'index.html'), paths.singleFile);
  rmSync(staging, { recursive: true, force: true });

  const external = [...makeOffline(paths.output), ...makeOffline(paths.singleFile)];
  if (external.length > 0) {
    for (const { file, refs } of external) {
      process.stderr.write(
        `report: ${relative(ROOT, file)} references ${refs.join(', ')} (it must work offline)\n`,
      );
    }
    return EXIT.failed;
  }
  const rel = (p: string) => relative(process.cwd(), p) || '.';
  process.stdout.write(
    `Allure report: ${rel(paths.output)}/index.html (serve it: npx allure open ${rel(paths.output)}); ` +
      `single file: ${rel(paths.singleFile)}\n`,
  );
  return 0;
}
