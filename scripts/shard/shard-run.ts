// One shard of a conformance run (`npm run conformance -- --shard=i/n`): runs `playwright test --shard=i/n`
// through scripts/shard/shard.config.ts, leaves the blob in <reports>/blob/ and the shard's Allure results,
// target file and metadata in <reports>/shards/<i>-of-<n>/, then runs the secret gate (which reads inside the
// blob). The blob needs no redaction after the fact: the harness's requests never put a header into an error
// or a step Playwright records (core/http.ts), and the gate would fail the shard if anything did. No HTML,
// JUnit or rule matrix: `npm run merge` builds them once from every shard. Exit code: the tests' (0 every
// test passed, 1 not), 4 when the target did not answer (or was lost) and no test failed — the shard still
// leaves what it wrote, for the merge to say so — and 3 when the gate found a secret (the shard's output must
// not be uploaded for the merge).
import { spawnSync } from 'node:child_process';
import { copyFileSync, existsSync, mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type { Settings } from '../../core/settings';
import { reportPaths, ROOT } from '../report/allure-report';
import { secretGate, SECRET_GATE_EXIT } from '../report/secret-gate';
import { shardPaths, shardRunId, type Shard, type ShardMeta } from './shard';
import { playwrightCommand } from '../run/playwright-cli';
import { childContext } from '../../core/run-context';
import { shardExitCode, shardTargetDown } from '../run/target-down';

export function runShard(
  s: Settings,
  shard: Shard,
  config: string | undefined,
  args: readonly string[],
  runId: string,
): number {
  const reports = reportPaths().dir;
  const paths = shardPaths(reports, shard);
  // This shard's names only: another shard of the run may have written beside it.
  rmSync(paths.dir, { recursive: true, force: true });
  rmSync(paths.blob, { force: true });
  rmSync(paths.blobStaging, { recursive: true, force: true });
  mkdirSync(paths.dir, { recursive: true });
  const ownRunId = shardRunId(runId, shard);
  process.stdout.write(
    `ledger-conformance: shard ${shard.current}/${shard.total} of run ${runId} (its ids: ${ownRunId}:…)\n`,
  );

  const run = spawnSync(
    process.execPath,
    playwrightCommand(
      'test',
      '-c',
      'scripts/shard/shard.config.ts',
      `--shard=${shard.current}/${shard.total}`,
      ...args,
    ),
    {
      cwd: ROOT,
      stdio: 'inherit',
      env: {
        ...process.env,
        LEDGER_RUN_ID: ownRunId,
        // The global setup writes target.json, the shard config everything else, into the shard's folder.
        ...childContext({
          reportsDir: paths.dir,
          shard: `${shard.current}/${shard.total}`,
          shardBaseConfig: config ?? 'playwright.config.ts',
        }),
      },
    },
  );
  const status = run.status ?? 1;

  placeBlob(paths, shard);
  const targetDown = shardTargetDown(paths.target, paths.testResults);
  const meta: ShardMeta = {
    shard,
    runId,
    shardRunId: ownRunId,
    status,
    targetDown,
    finishedAt: new Date().toISOString(),
  };
  writeFileSync(paths.meta, JSON.stringify(meta, null, 2) + '\n');

  const leaks = secretGate(s);
  if (leaks.length > 0) return SECRET_GATE_EXIT;
  const code = shardExitCode(status, targetDown);
  return existsSync(paths.blob) || targetDown ? code : code || 1;
}

/** Moved in at once from where the blob reporter left it: a gate running beside never sees it half done. */
function placeBlob(paths: ReturnType<typeof shardPaths>, shard: Shard): void {
  const staged = join(paths.blobStaging, paths.blobName);
  if (existsSync(staged)) {
    mkdirSync(dirname(paths.blob), { recursive: true });
    copyFileSync(staged, `${paths.blob}.part`);
    renameSync(`${paths.blob}.part`, paths.blob);
    process.stdout.write(`Blob report: ${relative(process.cwd(), paths.blob)} (merge: npm run merge)\n`);
  } else {
    process.stderr.write(`ledger-conformance: shard ${shard.current}/${shard.total} wrote no blob report\n`);
  }
  rmSync(paths.blobStaging, { recursive: true, force: true });
}
