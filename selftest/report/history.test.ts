// Two consecutive nightly-style runs into the same reports folder, the target's limits changed in between
// (SANDBOX_MAX_VETTED_PAGE_SIZE=50 on the second): the Allure history carries the first run into the second
// report (one history line per run, however often the report is rebuilt; none when rebuilt for another
// participant), and the capability fingerprint shows the change in the matrix, at the end of the run and in the
// report's environment block. The first run
// also finds a log holding the sandbox's secret beside its reports, so it proves the secret gate's exit code
// too (one nested `npm run conformance` fewer per `npm test`); the log is gone before the second run.
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';
import { expect, test } from '../support/test';
import { allureHistoryOf, reportPaths } from '../../scripts/report/allure-report';
import {
  environmentOf,
  filesUnder,
  freshReportsDir,
  readJson,
  reportTests,
  ROOT,
  runConformance,
  type Matrix,
  type RunOutcome,
} from '../support/report-kit';
import { EXIT } from '../../core/exit-codes';
import { ENV_KEYS } from '../../reporters/allure-results';
import { DEV_NAMESPACE } from '../../sandbox/config';

const GREP = 'VER-SHAPE|VER-FEATURES';
const historyLines = (out: string) =>
  readFileSync(allureHistoryOf(reportPaths(out)).history, 'utf8')
    .split('\n')
    .filter(Boolean).length;

test.describe.configure({ mode: 'serial' });

test.describe('report history across runs', () => {
  let out: string;
  let first: RunOutcome;
  let second: RunOutcome;

  let remove: () => void;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    ({ dir: out, remove } = freshReportsDir('history'));
    // A log some tool wrote beside the reports: the run does not clean it, the gate must find it.
    mkdirSync(join(out, 'logs'), { recursive: true });
    writeFileSync(join(out, 'logs', 'proxy.log'), 'x-api-key: sandbox-dev-secret\n');
    first = await runConformance(out, GREP);
    rmSync(join(out, 'logs'), { recursive: true, force: true });
    expect(historyLines(out)).toBe(1);
    second = await runConformance(out, GREP, { SANDBOX_MAX_VETTED_PAGE_SIZE: '50' });
  });
  test.afterAll(() => remove());

  test('a leak in the output fails `npm run conformance` with exit code 3, whatever the tests said', () => {
    expect(first.stdout, 'the tests themselves passed').toMatch(/\b\d+ passed\b/);
    expect(first.stdout).not.toMatch(/\b\d+ failed\b/);
    expect(first.status, first.stdout.slice(-2000) + first.stderr).toBe(EXIT.secretFound);
    expect(first.stderr).toMatch(/secret gate: LEDGER_HMAC_SECRET found in .*logs\/proxy\.log/);
    expect(first.stdout + first.stderr).not.toContain('sandbox-dev-secret');
  });

  test('the second report carries the first run: one history line per run', () => {
    expect(second.status, second.stdout.slice(-2000) + second.stderr).toBe(0);
    expect(historyLines(out)).toBe(2);
    const tests = reportTests(out);
    expect(tests.length).toBeGreaterThan(1);
    for (const t of tests) expect(t.history?.length, `${t.name}: history`).toBe(1);
  });

  /** `npm run report` on the folder: the Allure report rebuilt from the results there, for the target.json there. */
  const rebuild = () => {
    const rebuilt = spawnSync(process.execPath, ['--require', 'tsx/cjs', 'scripts/report/report.ts'], {
      cwd: ROOT,
      env: { ...process.env, LEDGER_REPORTS_DIR: out },
      encoding: 'utf8',
    });
    expect(rebuilt.status, rebuilt.stdout + rebuilt.stderr).toBe(0);
  };

  test('rebuilding the report (npm run report) does not append the run again', () => {
    rebuild();
    expect(historyLines(out)).toBe(2);
    for (const t of reportTests(out)) expect(t.history?.length, `${t.name}: history`).toBe(1);
  });

  test('the changed limit shows in the matrix, at the end of the run and in the environment block', () => {
    const matrix = readJson<Matrix>(join(out, 'conformance.json'));
    expect(matrix.fingerprintChanges).toEqual([
      { path: 'features.packageFeature.maxVettedPackagesPageSize', before: 100, after: 50 },
    ]);
    expect(readFileSync(join(out, 'conformance.md'), 'utf8')).toContain(
      'features.packageFeature.maxVettedPackagesPageSize: 100 → 50',
    );
    expect(second.stdout).toContain('Capabilities changed since the previous run:');
    expect(second.stdout).toContain('features.packageFeature.maxVettedPackagesPageSize: 100 → 50');
    const env = environmentOf(out);
    expect(env.get(ENV_KEYS.capabilities)).toContain('packageFeature.maxVettedPackagesPageSize=50');
    expect(env.get(ENV_KEYS.capabilityChanges)).toBe(
      'features.packageFeature.maxVettedPackagesPageSize: 100 → 50',
    );
  });

  test("another participant's report in the same folder shows none of the first one's history", () => {
    // The target.json its run leaves (the participant it judged), beside results of the very same tests.
    const target = join(out, 'target.json');
    writeFileSync(
      target,
      JSON.stringify({ ...readJson<object>(target), participantId: `participant9::${DEV_NAMESPACE}` }),
    );
    rebuild();
    // Its own history: this report alone; the first participant's two runs are not in it.
    expect(historyLines(out)).toBe(1);
    const tests = reportTests(out);
    expect(tests.length).toBeGreaterThan(1);
    for (const t of tests) expect(t.history ?? [], `${t.name}: history`).toEqual([]);
    // Each participant keeps its own Allure history beside its verdict history.
    const files = filesUnder(join(out, 'history')).filter((f) => f.endsWith('allure-history.jsonl'));
    const lines = files.map((f) => readFileSync(f, 'utf8').split('\n').filter(Boolean).length).sort();
    expect(lines).toEqual([1, 2]);
  });
});
