// `npm run merge`: the one report of a sharded run, from every shard's output under reports/ (or
// LEDGER_REPORTS_DIR): the blobs in blob/ and the folders in shards/ (`npm run conformance -- --shard=i/n`
// writes both; CI copies every shard's into one place first). 1. checks the blobs are the shards 1..n of one
// sharding, each with its shard folder, all against one target; 2. writes target.json (the first shard's,
// with the run id the shards share) and gathers the shards' Allure results into allure-results/; 3.
// `playwright merge-reports` replays every shard's events through JUnit and the rule matrix
// (scripts/shard/merge.config.ts): junit.xml and conformance.{json,md}, as an unsharded run writes them; 4.
// builds the Allure report as `npm run conformance` does (verdicts, environment, categories, history); 5.
// runs the secret gate over everything (inside the blobs too). Exit code as `npm run conformance`: 0 every
// test passed; 1 a test did not pass, a shard is missing or the report could not be built; 2 a setting is
// wrong; 3 the secret gate found a secret; 4 the participant did not answer (every rule inconclusive, or a
// shard that stopped at its preflight left no blob), with one line naming it.
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { answerHelp } from '../../core/cli-help';
import { loadDotenv } from '../../core/settings';
import { readJsonFile, type TargetFile } from '../../reporters/allure-results';
import { descriptionFile } from '../../reporters/openapi-drift';
import { buildAllureReport, reportPaths, ROOT } from '../report/allure-report';
import { settingsOrExit } from '../run/settings-check';
import { secretGate, SECRET_GATE_EXIT } from '../report/secret-gate';
import { runExitCode, TARGET_DOWN_EXIT, targetDownLine } from '../run/target-down';
import {
  blobInfo,
  ShardError,
  shardName,
  shardPaths,
  shardsFound,
  type Shard,
  type ShardMeta,
} from './shard';
import { playwrightCommand } from '../run/playwright-cli';
import { childContext } from '../../core/run-context';
import { EXIT } from '../../core/exit-codes';

const rel = (p: string) => relative(process.cwd(), p) || '.';

export interface MergePlan {
  total: number;
  shards: { shard: Shard; blob: string; dir: string; meta?: ShardMeta; target?: TargetFile }[];
  /** The shards' test folder in this checkout. */
  testDir: string;
  runId: string;
  warnings: string[];
}

type Blob = { path: string; info: ReturnType<typeof blobInfo> };

/** Step 1: which blobs there are and whether they make a whole run. Throws ShardError saying what is missing. */
export function planMerge(reportsDir: string): MergePlan {
  const { blobs, total } = shardedBlobs(join(reportsDir, 'blob'));
  const problems = missingShards(blobs, total);
  const shards = blobs.map((b) => {
    const shard = b.info.shard!;
    const paths = shardPaths(reportsDir, shard);
    if (!existsSync(paths.allureResults)) {
      problems.push(`shard ${shard.current}/${total}: no Allure results in ${rel(paths.allureResults)}`);
    }
    return {
      shard,
      blob: b.path,
      dir: paths.dir,
      meta: shardsFound(reportsDir).find((f) => f.name === shardName(shard))?.meta,
      target: readJsonFile<TargetFile>(paths.target),
    };
  });
  shards.sort((a, b) => a.shard.current - b.shard.current);
  const testDirs = testDirsOf(blobs);
  if (testDirs.size > 1) problems.push(`the shards ran different test folders: ${[...testDirs].join(', ')}`);
  const targets = new Set(shards.map((s) => s.target?.baseUrl ?? 'unknown'));
  if (targets.size > 1) problems.push(`the shards ran against different targets: ${[...targets].join(', ')}`);
  const versions = new Set(shards.map((s) => s.target?.version ?? 'unknown'));
  if (versions.size > 1) {
    problems.push(`the shards saw different participant versions: ${[...versions].join(', ')}`);
  }
  if (problems.length > 0) throw new ShardError(problems.join('\n'));

  const warnings: string[] = [];
  const runIds = [...new Set(shards.map((s) => s.meta?.runId ?? s.target?.runId ?? 'unknown'))];
  if (runIds.length > 1) {
    warnings.push(
      `the shards carry different run ids (${runIds.join(', ')}): set LEDGER_RUN_ID to one value for every ` +
        'shard of a run, or these may be shards of different runs',
    );
  }
  return { total, shards, testDir: [...testDirs][0]!, runId: runIds.join('+'), warnings };
}

/** The blobs of one sharding, in name order, and its shard count; else what is wrong with them. */
function shardedBlobs(blobDir: string): { blobs: Blob[]; total: number } {
  const zips = existsSync(blobDir) ? readdirSync(blobDir).filter((f) => f.endsWith('.zip')) : [];
  if (zips.length === 0) {
    throw new ShardError(
      `no blob report in ${rel(blobDir)}: run the shards first (npm run conformance -- --shard=1/2, …) ` +
        'or copy their blob/ and shards/ folders there',
    );
  }
  const blobs = zips
    .sort()
    .map((name) => ({ path: join(blobDir, name), info: blobInfo(join(blobDir, name)) }));
  const unsharded = blobs.filter((b) => !b.info.shard);
  if (unsharded.length > 0) {
    throw new ShardError(`${unsharded.map((b) => rel(b.path)).join(', ')}: not from a sharded run`);
  }
  const totals = [...new Set(blobs.map((b) => b.info.shard!.total))];
  if (totals.length > 1) {
    throw new ShardError(
      `the blobs in ${rel(blobDir)} come from different shardings (${blobs.map((b) => `${rel(b.path)}: ${b.info.shard!.current}/${b.info.shard!.total}`).join(', ')}): ` +
        'keep only those of one run',
    );
  }
  return { blobs, total: totals[0]! };
}

/** Each shard 1..total with no blob, or with more than one. */
function missingShards(blobs: Blob[], total: number): string[] {
  const problems: string[] = [];
  for (let i = 1; i <= total; i++) {
    const mine = blobs.filter((b) => b.info.shard!.current === i);
    if (mine.length === 0)
      problems.push(`shard ${i}/${total}: no blob report (did the shard run, or fail its secret gate?)`);
    if (mine.length > 1)
      problems.push(
        `shard ${i}/${total}: ${mine.length} blob reports (${mine.map((b) => rel(b.path)).join(', ')})`,
      );
  }
  return problems;
}

/**
 * Paths in the blobs are relative to the shards' test folder: find it in this checkout. The shards ran
 * scripts/shard/shard.config.ts, so two folders up is their project root.
 */
function testDirsOf(blobs: Blob[]): Set<string> {
  return new Set(
    blobs.map((b) => {
      const { rootDir, configFile } = b.info;
      if (!rootDir) return ROOT;
      return configFile
        ? resolve(ROOT, relative(resolve(dirname(configFile), '..', '..'), rootDir))
        : rootDir;
    }),
  );
}

/** Step 2: target.json and description.json of the merged run, and every shard's Allure results in one folder. */
function gather(plan: MergePlan, paths: ReturnType<typeof reportPaths>): void {
  const first = plan.shards.find((s) => s.target)?.target;
  if (first) {
    const started = plan.shards
      .map((s) => (s.target as { startedAt?: string } | undefined)?.startedAt)
      .filter((t): t is string => !!t)
      .sort()[0];
    const merged = { ...first, runId: plan.runId, startedAt: started, shards: plan.total };
    writeFileSync(paths.target, JSON.stringify(merged, null, 2) + '\n');
  }
  // The participant's API description as the first shard that read it found it (each read the same participant).
  const described = plan.shards.map((s) => descriptionFile(s.dir)).find((f) => existsSync(f));
  if (described) cpSync(described, descriptionFile(paths.dir));
  mkdirSync(paths.results, { recursive: true });
  // allure-playwright names every file by a fresh uuid: only environment.properties repeats, and the report
  // build rewrites it.
  for (const s of plan.shards) cpSync(join(s.dir, 'allure-results'), paths.results, { recursive: true });
}

/** merge-reports unpacks each blob beside it (report*.jsonl, resources/): only the zips are kept. */
function cleanBlobDir(blobDir: string): void {
  if (!existsSync(blobDir)) return;
  for (const name of readdirSync(blobDir)) {
    if (!name.endsWith('.zip')) rmSync(join(blobDir, name), { recursive: true, force: true });
  }
}

export async function merge(): Promise<number> {
  const s = settingsOrExit();
  const paths = reportPaths();
  const blobDir = join(paths.dir, 'blob');
  let plan: MergePlan;
  try {
    plan = planMerge(paths.dir);
  } catch (e) {
    if (!(e instanceof ShardError)) throw e;
    return unmergeable(e, s, paths.dir);
  }
  announce(plan);
  for (const p of [paths.results, paths.output, paths.singleFile, paths.junit, paths.target, paths.matrix]) {
    rmSync(p, { recursive: true, force: true });
  }
  rmSync(join(paths.dir, 'conformance.md'), { force: true });
  cleanBlobDir(blobDir);
  gather(plan, paths);
  const mergeStatus = replay(blobDir, paths.dir, plan.testDir);
  const reportStatus = await buildAllureReport(paths);
  const leaks = secretGate(s);
  const matrix = readJsonFile<{ status?: string; targetLost?: string }>(paths.matrix);
  const testsStatus = runExitCode(paths.matrix, matrix?.status === 'passed' ? 0 : 1, s.failOn);
  if (leaks.length > 0) return SECRET_GATE_EXIT;
  if (mergeStatus !== 0) return EXIT.failed;
  if (testsStatus === TARGET_DOWN_EXIT) {
    const target = plan.shards.find((x) => x.target)?.target?.baseUrl ?? s.baseUrl;
    process.stderr.write(`${targetDownLine(target, matrix!.targetLost!, 'every rule is inconclusive')}\n`);
  }
  return testsStatus !== 0 ? testsStatus : reportStatus;
}

type Settings = ReturnType<typeof settingsOrExit>;

/** The shards make no whole run: the exit code, after one line on why. */
function unmergeable(e: ShardError, s: Settings, reportsDir: string): number {
  // A shard whose target did not answer explains what is missing or differs: the participant is the news.
  // The shard that left no blob says why it is missing; any other says the participant was gone.
  const hasBlob = (meta: ShardMeta) => (existsSync(shardPaths(reportsDir, meta.shard).blob) ? 1 : 0);
  const down = shardsFound(reportsDir)
    .filter((f) => f.meta?.targetDown)
    .sort((a, b) => hasBlob(a.meta!) - hasBlob(b.meta!) || a.meta!.shard.current - b.meta!.shard.current)[0];
  if (down) {
    const target = readJsonFile<TargetFile>(join(down.dir, 'target.json'))?.baseUrl ?? s.baseUrl;
    const { shard, targetDown } = down.meta!;
    const consequence = `no report of this run (shard ${shard.current}/${shard.total} could not judge it)`;
    process.stderr.write(`${targetDownLine(target, targetDown!, consequence)}\n`);
  } else process.stderr.write(`merge: ${e.message.split('\n').join('\nmerge: ')}\n`);
  // The gate still reads what is there: a leak is the more important news.
  return secretGate(s).length > 0 ? SECRET_GATE_EXIT : down ? TARGET_DOWN_EXIT : EXIT.failed;
}

function announce(plan: MergePlan): void {
  for (const w of plan.warnings) process.stderr.write(`merge: warning: ${w}\n`);
  process.stdout.write(
    `merge: run ${plan.runId}, ${plan.total} shard(s): ` +
      plan.shards
        .map(
          (x) =>
            `${x.shard.current}/${x.shard.total}` +
            (x.meta
              ? ` (exit ${x.meta.status}${x.meta.targetDown ? ', the target did not answer' : ''})`
              : ''),
        )
        .join(', ') +
      '\n',
  );
}

/** Step 3: every shard's events replayed through JUnit and the rule matrix; merge-reports' exit code. */
function replay(blobDir: string, reportsDir: string, testDir: string): number {
  const merged = spawnSync(
    process.execPath,
    playwrightCommand('merge-reports', '-c', join(ROOT, 'scripts', 'shard', 'merge.config.ts'), blobDir),
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: { ...process.env, ...childContext({ reportsDir, mergeTestDir: testDir }) },
    },
  );
  cleanBlobDir(blobDir);
  const mergeStatus = merged.status ?? 1;
  if (mergeStatus !== 0)
    process.stderr.write(`merge: playwright merge-reports failed (exit ${mergeStatus})\n`);
  return mergeStatus;
}

if (require.main === module) {
  answerHelp(`Usage: npm run merge
The one report of a sharded run (npm run conformance -- --shard=i/n on each machine): reads every shard's blob
in reports/blob/ and folder in reports/shards/ (LEDGER_REPORTS_DIR to read elsewhere), checks they are one whole
run against one target, and writes the reports an unsharded run writes. Exit codes as npm run conformance's.`);
  loadDotenv();
  void merge().then((code) => process.exit(code));
}
