// The Playwright config of one shard (`npm run conformance -- --shard=i/n`): the run's own config
// (playwright.config.ts, or the one given with -c) with its output moved to the shard's folder and its
// reporters cut to what a part of a run can say: the terminal reporter, allure-playwright (the shard's
// results) and Playwright's blob reporter. JUnit, the rule matrix and the HTML are built once, by
// `npm run merge`, from every shard's blob — a shard alone would call the rules of the other shards "not run".
import { dirname, resolve } from 'node:path';
import { defineConfig, type PlaywrightTestConfig, type ReporterDescription } from '@playwright/test';
import { CONSOLE_REPORTER, isAllureReporter } from '../../reporters/allure-name';
import { parseShard, shardPaths } from './shard';
import { reportsDir, reportsMoved } from '../../core/reports-dir';
import { runContext } from '../../core/run-context';

const ROOT = resolve(__dirname, '..', '..');
const shardText = runContext().shard;
const shardDir = reportsMoved() ? reportsDir() : undefined;
if (!shardText || !shardDir) {
  throw new Error(
    'scripts/shard/shard.config.ts runs through `npm run conformance -- --shard=i/n`, not alone',
  );
}
const shard = parseShard(shardText);
// scripts/run/conformance.ts hands the shard its own folder as LEDGER_REPORTS_DIR:
// <reports>/shards/<i>-of-<n>.
const paths = shardPaths(resolve(shardDir, '..', '..'), shard);

const baseFile = resolve(ROOT, runContext().shardBaseConfig ?? 'playwright.config.ts');
// require, not import: Playwright's loader transpiles required TS. A Playwright config of its own, run by
// Playwright in the run's stead, it alone may load the run's config (by a path a self-test can point elsewhere).
// oxlint-disable-next-line typescript/no-require-imports, house/layer-calls
const base = (require(baseFile) as { default: PlaywrightTestConfig }).default;
const baseDir = dirname(baseFile);

/** Reporters printing to the terminal: kept as the run's config has them. */
const TERMINAL = new Set(['list', 'line', 'dot', 'github', 'null']);

function reporters(): ReporterDescription[] {
  const list: ReporterDescription[] = Array.isArray(base.reporter)
    ? base.reporter
    : typeof base.reporter === 'string'
      ? [[base.reporter]]
      : [['list']];
  const kept = list.flatMap(([name, options]): ReporterDescription[] => {
    if (TERMINAL.has(name) || name === CONSOLE_REPORTER) return [[name, options]];
    if (isAllureReporter(name)) return [[name, { ...options, resultsDir: paths.allureResults }]];
    return [];
  });
  return [...kept, ['blob', { outputDir: paths.blobStaging, fileName: paths.blobName }]];
}

export default defineConfig({
  ...base,
  testDir: resolve(baseDir, base.testDir ?? '.'),
  outputDir: paths.testResults,
  reporter: reporters(),
});
