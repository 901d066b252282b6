// Sharding on Playwright's engine: the report run's subset (every verdict kind: the sandbox's VER- rules,
// VET-PAGE-ORDER broken by a fault, the report samples) once in two shards + `npm run merge`, once unsharded,
// each in its own temporary folder. The merged rule matrix must give every rule (and every test) the verdict
// of the unsharded run, the merged JUnit the same testcases and outcomes, the merged Allure report the same
// results, categories and environment; and the merge must refuse a run with a shard missing.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { allureHistoryOf, reportPaths } from '../../scripts/report/allure-report';
import AdmZip from 'adm-zip';
import {
  environmentOf,
  freshReportsDir,
  junitCases,
  KINDS_RUN,
  readJson,
  reportTests,
  runTsx,
  type Matrix,
  type RunOutcome,
} from '../support/report-kit';
import { kindsRun } from '../support/shared-runs';
import { EXIT } from '../../core/exit-codes';

const CONFIG = 'selftest/support/report-run.config.ts';
const RUN_ID = 'selftest-sharding';

/** A script of the project (scripts/run/conformance.ts, scripts/shard/merge.ts) with `out` as its reports folder; never the machine's settings. */
function run(
  script: string,
  args: string[],
  out: string,
  env: Record<string, string> = {},
): Promise<RunOutcome> {
  return runTsx([script, ...args], { ...KINDS_RUN.env, ...env, LEDGER_REPORTS_DIR: out });
}

const conformance = (out: string, extra: string[] = [], env: Record<string, string> = {}) =>
  run('scripts/run/conformance.ts', ['-c', CONFIG, '--grep', KINDS_RUN.grep, ...extra], out, env);
const show = (r: RunOutcome) => r.stdout.slice(-3000) + r.stderr;

test.describe.configure({ mode: 'serial' });

test.describe('sharded run + merge = unsharded run', () => {
  let sharded: string;
  let whole: string;
  let shards: RunOutcome[];
  let merged: RunOutcome;
  let unsharded: RunOutcome;
  const removers: (() => void)[] = [];
  const timings: Record<string, number> = {};

  const timed = async <T>(name: string, body: () => Promise<T>): Promise<T> => {
    const start = Date.now();
    try {
      return await body();
    } finally {
      timings[name] = Date.now() - start;
    }
  };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    const a = freshReportsDir('sharded');
    removers.push(a.remove);
    sharded = a.dir;
    // The two shards run side by side in one reports folder (as on one machine; CI runs them on two), the
    // unsharded run after them: three runs at once would starve a two-core machine. The unsharded run is the
    // report self-tests' shared one (the same selection, settings and config), often done by then.
    shards = await timed('shards', () =>
      Promise.all([1, 2].map((i) => conformance(sharded, [`--shard=${i}/2`], { LEDGER_RUN_ID: RUN_ID }))),
    );
    merged = await timed('merge', () => run('scripts/shard/merge.ts', [], sharded));
    ({ dir: whole, run: unsharded } = await timed('unsharded', () => kindsRun()));
    test.info().annotations.push({
      type: 'timing',
      description: Object.entries(timings)
        .map(([k, v]) => `${k} ${(v / 1000).toFixed(1)} s`)
        .join(', '),
    });
  });
  test.afterAll(() => removers.forEach((r) => r()));

  test('each shard leaves a blob and its own Allure results, no report; the exit codes agree', () => {
    for (const [i, shard] of shards.entries()) {
      const name = `${i + 1}-of-2`;
      // Both shards hold tests that do not pass (the subset has every verdict kind): exit 1, never 3.
      expect(shard.status, show(shard)).toBe(EXIT.failed);
      expect(shard.stdout).toContain('secret gate: passed');
      expect(existsSync(join(sharded, 'blob', `shard-${name}.zip`)), `blob of shard ${name}`).toBe(true);
      const results = readdirSync(join(sharded, 'shards', name, 'allure-results'));
      expect(results.some((f) => f.endsWith('-result.json'))).toBe(true);
      const meta = readJson<{ runId: string; shardRunId: string; status: number }>(
        join(sharded, 'shards', name, 'shard.json'),
      );
      expect(meta).toMatchObject({ runId: RUN_ID, shardRunId: `${RUN_ID}-s${i + 1}`, status: 1 });
    }
    expect(readdirSync(join(sharded, 'blob')).sort()).toEqual(['shard-1-of-2.zip', 'shard-2-of-2.zip']);
    expect(merged.status, show(merged)).toBe(EXIT.failed);
    expect(unsharded.status, show(unsharded)).toBe(EXIT.failed);
    expect(merged.stdout).toContain('secret gate: passed');
    expect(merged.stdout).toContain(`merge: run ${RUN_ID}, 2 shard(s)`);
  });

  test('the merged rule matrix gives every rule, and every test, the verdict of the unsharded run', () => {
    const m = readJson<Matrix>(join(sharded, 'conformance.json'));
    const u = readJson<Matrix>(join(whole, 'conformance.json'));
    const verdicts = (x: Matrix) => Object.fromEntries(x.rules.map((r) => [r.id, r.verdict]));
    expect(verdicts(m)).toEqual(verdicts(u));
    expect(m.totals).toEqual(u.totals);
    expect(m.status).toBe(u.status);
    expect(m.uncatalogued.sort()).toEqual(u.uncatalogued.sort());
    const tests = (x: Matrix) =>
      Object.fromEntries(x.tests.map((t) => [t.title, `${t.verdict} ${t.reason ?? ''}`]));
    expect(tests(m)).toEqual(tests(u));
    // Both shards held tests: the merge really combined two parts.
    const perShard = [1, 2].map(
      (i) =>
        readdirSync(join(sharded, 'shards', `${i}-of-2`, 'allure-results')).filter((f) =>
          f.endsWith('-result.json'),
        ).length,
    );
    expect(perShard.every((n) => n > 0) && perShard[0]! + perShard[1]! === u.tests.length).toBe(true);
    // The same document: only the run's own line (target port, date) differs.
    const body = (dir: string) =>
      readFileSync(join(dir, 'conformance.md'), 'utf8')
        .split('\n')
        .filter((l) => !l.startsWith('Target: '));
    expect(body(sharded)).toEqual(body(whole));
  });

  test('the merged JUnit has the same testcases with the same outcomes', () => {
    const cases = (dir: string) =>
      junitCases(join(dir, 'junit.xml'))
        .map((c) => `${c.name} → ${c.outcome}`)
        .sort();
    const m = cases(sharded);
    expect(m.length).toBe(readJson<Matrix>(join(whole, 'conformance.json')).tests.length);
    expect(m).toEqual(cases(whole));
  });

  test('the merged Allure report: the same results, verdict labels, categories and environment', () => {
    const results = (dir: string) =>
      reportTests(dir)
        .map((t) => {
          const verdict = t.labels.find((l) => l.name === 'verdict')?.value;
          return `${t.name} | ${t.status} | ${verdict} | ${t.categories?.[0]?.name ?? '-'}`;
        })
        .sort();
    expect(results(sharded)).toEqual(results(whole));
    const env = (dir: string) => {
      const e = environmentOf(dir);
      e.delete('Target'); // the sandbox's port
      e.delete('Run id');
      return Object.fromEntries(e);
    };
    expect(env(sharded)).toEqual(env(whole));
    expect(environmentOf(sharded).get('Run id')).toBe(RUN_ID);
    // One run, one history line; the report works offline as the unsharded one does.
    const history = readFileSync(allureHistoryOf(reportPaths(sharded)).history, 'utf8')
      .split('\n')
      .filter(Boolean);
    expect(history).toHaveLength(1);
    expect(existsSync(join(sharded, 'allure-single.html'))).toBe(true);
  });

  test('the blobs hold no credential: the refused request is recorded in the harness’s words', () => {
    // The sample that connects to a closed port: its error names the failure, no header; the evidence rides along.
    const jsonl = ['shard-1-of-2.zip', 'shard-2-of-2.zip']
      .map((z) => new AdmZip(join(sharded, 'blob', z)).readAsText('report.jsonl'))
      .join('\n');
    expect(jsonl).toContain('got no response: the connection was refused (ECONNREFUSED)');
    expect(jsonl).toContain('HTTP transcript (Authorization redacted)');
    expect(jsonl).not.toMatch(/authorization: Bearer (?!<redacted>)/i);
  });

  test('the merge refuses a run with a shard missing, naming it', async () => {
    const { dir, remove } = freshReportsDir('shard-missing');
    removers.push(remove);
    cpSync(join(sharded, 'shards'), join(dir, 'shards'), { recursive: true });
    cpSync(join(sharded, 'blob', 'shard-1-of-2.zip'), join(dir, 'blob', 'shard-1-of-2.zip'));
    const partial = await run('scripts/shard/merge.ts', [], dir);
    expect(partial.status, show(partial)).toBe(EXIT.failed);
    expect(partial.stderr).toContain('merge: shard 2/2: no blob report');
    expect(existsSync(join(dir, 'conformance.json')), 'no matrix from half a run').toBe(false);
    // Two blobs claiming one shard (a stale copy beside the new one) are refused too.
    cpSync(join(sharded, 'blob', 'shard-2-of-2.zip'), join(dir, 'blob', 'shard-2-of-2.zip'));
    writeFileSync(join(dir, 'blob', 'stale.zip'), readFileSync(join(sharded, 'blob', 'shard-2-of-2.zip')));
    const twice = await run('scripts/shard/merge.ts', [], dir);
    expect(twice.status, show(twice)).toBe(EXIT.failed);
    expect(twice.stderr).toMatch(/shard 2\/2: 2 blob reports/);
    rmSync(join(dir, 'blob', 'stale.zip'));
  });
});
