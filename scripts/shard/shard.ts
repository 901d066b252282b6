// Sharding on Playwright's own engine: where a shard of a run writes, and what the merge reads.
//
//   <reports>/blob/shard-<i>-of-<n>.zip        the shard's Playwright blob (every test event, step, error)
//   <reports>/shards/<i>-of-<n>/allure-results  the shard's Allure results, as an unsharded run writes them
//   <reports>/shards/<i>-of-<n>/target.json     what the shard's global setup learned from the target
//   <reports>/shards/<i>-of-<n>/shard.json      the run id shared by the shards, the shard's own, its config
//   <reports>/shards/<i>-of-<n>/test-results    Playwright's output folder of the shard
//
// <reports> is reports/ (or LEDGER_REPORTS_DIR). Each shard writes only its own names, so shards may run one
// after another in one checkout or on separate machines whose folders are copied together for the merge.
import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type AdmZip from 'adm-zip';

export interface Shard {
  current: number;
  total: number;
}

export class ShardError extends Error {}

export function parseShard(text: string): Shard {
  const m = /^(\d+)\/(\d+)$/.exec(text.trim());
  const current = Number(m?.[1]);
  const total = Number(m?.[2]);
  if (!m || current < 1 || total < 1 || current > total) {
    throw new ShardError(`--shard=${text} is not valid: give it as <i>/<n> with 1 ≤ i ≤ n, e.g. --shard=1/3`);
  }
  return { current, total };
}

/**
 * Takes Playwright's `--shard=i/n` (or `--shard i/n`) out of the arguments: the shard, and the arguments
 * with `-c/--config <file>` taken out too (the shard runs scripts/shard/shard.config.ts over that config).
 */
export function shardArgs(args: readonly string[]): {
  shard: Shard | undefined;
  config: string | undefined;
  rest: string[];
} {
  let shard: Shard | undefined;
  let config: string | undefined;
  const rest: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    if (arg === '--shard') shard = parseShard(args[++i] ?? '');
    else if (arg.startsWith('--shard=')) shard = parseShard(arg.slice('--shard='.length));
    else if (arg === '-c' || arg === '--config') config = args[++i];
    else if (arg.startsWith('--config=')) config = arg.slice('--config='.length);
    else rest.push(arg);
  }
  return { shard, config, rest };
}

export const shardName = (s: Shard): string => `${s.current}-of-${s.total}`;

/** Every path of one shard, under a run's reports folder. */
export function shardPaths(reportsDir: string, s: Shard) {
  const dir = join(reportsDir, 'shards', shardName(s));
  const blobName = `shard-${shardName(s)}.zip`;
  return {
    dir,
    allureResults: join(dir, 'allure-results'),
    target: join(dir, 'target.json'),
    meta: join(dir, 'shard.json'),
    testResults: join(dir, 'test-results'),
    /**
     * Where the blob reporter writes (it empties its folder first, so each shard has its own): outside the
     * reports, so a secret gate of a shard running beside this one never reads a half-written zip.
     */
    blobStaging: join(
      tmpdir(),
      `ledger-conformance-blob-${createHash('sha1').update(dir).digest('hex').slice(0, 16)}`,
    ),
    blobName,
    /** Where the blob ends up, beside the other shards' blobs: the folder `playwright merge-reports` reads. */
    blob: join(reportsDir, 'blob', blobName),
  };
}

/**
 * The run id of a shard: the run's id plus `-s<i>`. The ids a run creates on the participant are
 * `<run id>:<rule id>:w<worker>:…`, and two shards each have a worker 0: without the suffix, two tests of one
 * rule in different shards would send the same commandId.
 */
export function shardRunId(runId: string, s: Shard): string {
  const id = `${runId}-s${s.current}`;
  if (id.length > 40) {
    throw new ShardError(
      `LEDGER_RUN_ID="${runId}" is too long for a sharded run: each shard adds -s<i>; use at most ${40 - (id.length - runId.length)} characters`,
    );
  }
  return id;
}

/** What a shard leaves for the merge beside its results (shard.json). */
export interface ShardMeta {
  shard: Shard;
  /** The run id every shard of the run shares (LEDGER_RUN_ID, or generated). */
  runId: string;
  /** This shard's run id (the prefix of every id it created on the participant). */
  shardRunId: string;
  /** The exit code of the shard's `playwright test`. */
  status: number;
  /** Why the shard could not judge the target (it did not answer, or was lost), when so (scripts/run/target-down.ts). */
  targetDown?: string;
  finishedAt: string;
}

/** The shard folders found under `<reports>/shards`, each with its metadata when it has any. */
export function shardsFound(reportsDir: string): { name: string; dir: string; meta?: ShardMeta }[] {
  const root = join(reportsDir, 'shards');
  if (!existsSync(root)) return [];
  return readdirSync(root)
    .filter((name) => /^\d+-of-\d+$/.test(name))
    .map((name) => {
      const dir = join(root, name);
      const metaPath = join(dir, 'shard.json');
      let meta: ShardMeta | undefined;
      try {
        meta = existsSync(metaPath) ? (JSON.parse(readFileSync(metaPath, 'utf8')) as ShardMeta) : undefined;
      } catch {
        meta = undefined;
      }
      return { name, dir, meta };
    });
}

/** What a blob says about the run it came from: its first two events (metadata, configuration). */
export interface BlobInfo {
  shard?: Shard;
  /** The run's rootDir (its config's testDir) and config file, on the machine that ran it. */
  rootDir?: string;
  configFile?: string;
}

interface BlobEvent {
  method: string;
  params?: { shard?: Shard | null; config?: { rootDir?: string; configFile?: string } };
}

export function blobInfo(zip: string): BlobInfo {
  // Loaded here: every `npm run conformance` reads its shard arguments from this file, and only a merge reads a zip.
  // oxlint-disable-next-line typescript/no-require-imports
  const Zip = require('adm-zip') as typeof AdmZip;
  let report: Buffer | undefined;
  try {
    report = new Zip(zip)
      .getEntries()
      .find((e) => e.entryName.endsWith('.jsonl'))
      ?.getData();
  } catch (e) {
    // adm-zip's message ("Invalid or unsupported zip format…") does not say which file.
    throw new ShardError(`${zip} is not a readable zip: ${e instanceof Error ? e.message : String(e)}`);
  }
  if (!report) throw new ShardError(`${zip} holds no report.jsonl: it is not a Playwright blob report`);
  const info: BlobInfo = {};
  let start = 0;
  for (let i = 0; i < 2 && start < report.length; i++) {
    let end = report.indexOf(10, start);
    if (end < 0) end = report.length;
    const event = JSON.parse(report.toString('utf8', start, end)) as BlobEvent;
    if (event.method === 'onBlobReportMetadata') info.shard = event.params?.shard ?? undefined;
    if (event.method === 'onConfigure') {
      info.rootDir = event.params?.config?.rootDir;
      info.configFile = event.params?.config?.configFile;
    }
    start = end + 1;
  }
  return info;
}
