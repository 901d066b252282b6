// One target's nights, through real `npm run conformance` runs of the VER- rules against the in-process sandbox
// and the run's own reporter (reporters/run-history.ts, intermittent.ts, run-series.ts, last-nights.ts,
// openapi-drift.ts): seven nights, a fault on in nights 3, 5 and 7 only (ver-unstable: VER-STABLE flips) and
// another from night 3 onward (ver-not-semver: VER-SHAPE and VER-SEMVER broken). The nights with the flipping
// fault are also the participant upgraded to 3.5.x with the description fault (every change of its API
// description since 3.4.11, with the rules reading each field). So one series says what changed since the
// previous run (first, new failure, fixed, only old failures), against a named baseline and for a second target,
// names the flipping rule intermittent without news, and follows the API description. Then the written rule on its
// own, a collapsed night, the series' cap, the picture in Chromium, and a FAIL that passes on its re-check.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { LEAN_RUN_CONFIG, type ChildOutcome } from '../support/child-run';
import { endRunInProcess, noChromium, openBrowser, pageExpect, runTsx } from '../support/report-kit';
import { isIntermittent, statesOf, type Status } from '../../reporters/intermittent';
import { appendRun, readSeries, type JudgedRun } from '../../reporters/run-series';
import { judgeSeries } from '../../reporters/last-nights';
import { diffRuns, type Changes } from '../../reporters/run-history';
import { changesMessage, readRun } from '../../scripts/nightly/notify-changes';
import { markIntermittent, markRecheckedFailures } from '../../reporters/junit-verdicts';
import { runExitCode } from '../../scripts/run/target-down';
import type { RuleRow, RuleVerdict, TestVerdict } from '../../reporters/verdicts';
import type { DescriptionReport } from '../../reporters/openapi-drift';
import { EXIT } from '../../core/exit-codes';
import { compareRuns, readRun as readCompared } from '../../reporters/compare-runs';
import { renderCompareMarkdown } from '../../reporters/compare-render';
import { annotateResults, type AllureResultFile, type VerdictOfTest } from '../../reporters/allure-results';
import { TEST_ID_LABEL } from '../../core/verdict-marks';
import { withTempDir } from '../support/temp-dir';

test.describe.configure({ mode: 'serial' });

const GREP = 'VER-STABLE|VER-SEMVER|VER-SHAPE';
const FLIPPING = 'ver-not-semver,ver-unstable';
const BROKEN = 'ver-not-semver';
/** The participant of the nights with the flipping fault: 3.5.x, its API description drifted. */
const UPGRADED = { SANDBOX_VERSION: '3.5.2', SANDBOX_FAULTS: `${FLIPPING},description-drift` };
let out: string;

interface Matrix {
  changes: Changes & { since: { kind: string; name?: string } | null };
  rules: RuleRow[];
  description: DescriptionReport;
  tests: {
    ruleId?: string;
    title: string;
    file: string;
    verdict: TestVerdict;
    reason?: string;
    intermittent?: boolean;
    recheck?: 'passed' | 'failed';
  }[];
}
const matrix = (dir = out): Matrix =>
  JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as Matrix;
const markdown = (dir = out) => readFileSync(join(dir, 'conformance.md'), 'utf8');
const rulesIn = (kind: keyof Changes) =>
  (matrix().changes[kind] as { rule: string }[]).map((c) => c.rule).sort();
const row = (id: string) => matrix().rules.find((r) => r.id === id)!;
const unknownDifferences = () =>
  matrix()
    .description.document.filter((l) => !l.known)
    .map((l) => l.at);

function conformance(dir: string, env: Record<string, string>, grep = GREP): Promise<ChildOutcome> {
  return runTsx(['scripts/run/conformance.ts', '-c', LEAN_RUN_CONFIG, '--grep', grep], {
    LEDGER_REPORTS_DIR: dir,
    ...env,
  });
}

test.beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'intermittent-'));
});
test.afterAll(() => rmSync(out, { recursive: true, force: true }));

/** Night 1, 3.4.11: no earlier run, and the API description's known differences from the document only. */
function firstNight(run: ChildOutcome): void {
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(markdown()).toMatch(/^## Changes since: no earlier run of this target\n/);
  expect(/^ {2}description {3}(.*)$/m.exec(run.stdout)?.[1]).toBe(
    'read: 27 differences from the document (27 known); no earlier description of this target',
  );
  expect(unknownDifferences()).toEqual([]);
  expect(markdown()).toContain(
    '- vetting-list (path): POST /v2/package-vetting/list → GET /v2/package-vetting — rules: VET-SHAPE,',
  );
  expect(markdown()).not.toContain('Changed since the previous run');
}

/** Night 3, upgraded: both faults are news and fail a regressions-only run; each description change named. */
function thirdNight(run: ChildOutcome): void {
  expect(rulesIn('newFailures'), 'run 3: both faults are news').toEqual([
    'VER-SEMVER',
    'VER-SHAPE',
    'VER-STABLE',
  ]);
  expect(run.status, 'new failures fail a regressions-only run').toBe(EXIT.failed);
  const md = markdown();
  expect(md).toMatch(
    /^## Changes since the previous run of \S+ \(in-process sandbox, version 3\.4\.11, run /,
  );
  expect(md).toContain('**New failures** (3)\n\n- VER-SHAPE: pass → FAIL');
  expect(md).toContain('\n- VER-SEMVER: pass → FAIL');
  for (const line of [
    '- vetting-list (path): GET /v2/package-vetting → POST /v2/package-vetting/query — rules: VET-SHAPE,',
    '- submit-tree JsTransactionTree.offset: integer (int64) → absent — rules: SUB-OFFSETS-INCREASE, SUB-SHAPE',
    '- submit-tree JsCommands.tapsMaxPasses: absent → integer (int32) — rules: SUB-TAPS-ABOVE-LIMIT, SUB-TAPS-NONPOSITIVE, SUB-TAPS-WITHIN-LIMIT, SUB-WRONG-TYPES',
  ])
    expect(md).toContain(line);
  // Against the document, only the fault's two are not known.
  expect(unknownDifferences()).toEqual(['(path)', 'JsTransactionTree.offset']);
  expect(run.stdout).toMatch(/API description: read: .*2 not known \(conformance\.md\)/);
  expect(changesMessage([readRun(out)], {})).toMatch(
    /API description changed: \d+ \(vetting-list path, .*; read by \d+ rules\)/,
  );
}

test('seven nights: what changed each night; the flipping rule is named intermittent and its flips are no news; the broken ones are not', async () => {
  test.setTimeout(360_000);
  // The nights with the flipping fault on (3, 5, 7) and the first are real runs against the sandbox; the nights
  // between are history steps alone, fed to the run's reporter in this process with the verdicts such a night
  // gives (ver-not-semver on: VER-SHAPE and VER-SEMVER fail, VER-STABLE passes).
  const faults = ['', '', FLIPPING, BROKEN, FLIPPING, BROKEN, FLIPPING];
  const seen: Record<number, Matrix> = {};
  let status: number | null = 0;
  for (const [i, f] of faults.entries()) {
    if (i === 0 || f === FLIPPING) {
      const run = await conformance(out, { ...(i === 0 ? {} : UPGRADED), LEDGER_FAIL_ON: 'regressions' });
      expect(run.status, `run ${i + 1}: ${run.stderr}`).not.toBeNull();
      status = run.status;
      if (i + 1 === 1) firstNight(run);
      if (i + 1 === 3) thirdNight(run);
      // The description kept by night 4's history step, read again: no change.
      if (i + 1 === 5)
        expect(/^ {2}description {3}(.*)$/m.exec(run.stdout)?.[1]).toMatch(
          /; 0 changes since the previous run$/,
        );
    } else {
      const broken = f === BROKEN ? ['VER-SHAPE', 'VER-SEMVER'] : [];
      await endRunInProcess(
        out,
        seen[i]!.tests.map((t) =>
          broken.includes(t.ruleId ?? '')
            ? { title: t.title, status: 'failed', error: 'Error: the version is no SemVer version' }
            : { title: t.title, status: 'passed' },
        ),
        { status: broken.length > 0 ? 'failed' : 'passed' },
      );
    }
    seen[i + 1] = matrix();
    if (i + 1 === 3) {
      // The participant is saved as a named baseline here, to be compared with after the nights.
      const save = await runTsx(['scripts/history/baseline.ts', 'save', 'before-fix'], {
        LEDGER_REPORTS_DIR: out,
      });
      expect(save.status, save.stderr).toBe(0);
    }
    if (i + 1 === 4)
      expect(rulesIn('fixed'), 'run 4: fixed against the previous run').toEqual(['VER-STABLE']);
    if (i + 1 === 5) expect(rulesIn('becameIntermittent')).toEqual(['VER-STABLE']);
    if (i + 1 === 5)
      expect(changesMessage([readRun(out)], {})).toContain('1 became intermittent: VER-STABLE');
  }
  // Run 7: the flipping rule is intermittent in every view, its FAIL still a FAIL; nothing is news, and only old
  // failures and an intermittent one: the regressions-only run passes.
  expect(status, 'only old failures: a regressions-only run passes').toBe(0);
  const last = matrix();
  for (const kind of ['newFailures', 'fixed', 'becameIntermittent', 'settled'] as const)
    expect(rulesIn(kind), kind).toEqual([]);
  expect(rulesIn('intermittentFlips')).toEqual(['VER-STABLE']);
  expect(row('VER-STABLE')).toMatchObject({ verdict: 'fail', intermittent: true });
  expect(markdown()).toContain('- **VER-STABLE** — FAIL (intermittent):');
  expect(markdown()).toMatch(/\nVER-STABLE +intermittent +✓✓✘✓✘✓✘\n/);
  expect(markdown()).toMatch(/\nVER-SEMVER +broken +✓✓✘✘✘✘✘\n/);
  expect(changesMessage([readRun(out)], {}), 'the webhook stays silent on a night of flips').toBeUndefined();
  // An intermittent rule's FAIL is no regression; `any` still fails the run.
  const matrixFile = join(out, 'conformance.json');
  expect(runExitCode(matrixFile, EXIT.failed, 'regressions')).toBe(0);
  expect(runExitCode(matrixFile, EXIT.failed, 'any')).toBe(EXIT.failed);
  // The broken rules: a new failure in run 3, never intermittent since.
  for (const n of [4, 5, 6, 7]) {
    const vs = seen[n]!.rules.filter((r) => r.id === 'VER-SEMVER' || r.id === 'VER-SHAPE');
    expect(
      vs.every((r) => r.verdict === 'fail' && r.intermittent === undefined),
      `run ${n}`,
    ).toBe(true);
  }
  // JUnit and Allure wording: the rule's tests carry "intermittent".
  const stable = last.tests.find((t) => t.ruleId === 'VER-STABLE')!;
  expect(stable.intermittent).toBe(true);
  const junit = join(out, 'junit.xml');
  writeFileSync(
    junit,
    `<testsuites tests="1" failures="1" skipped="0"><testsuite name="${stable.file}" tests="1" failures="1" skipped="0">` +
      `<testcase name="GET /v2/version › ${stable.title}" classname="${stable.file}"><failure message="the second read differs" type="FAIL"/></testcase>` +
      '</testsuite></testsuites>',
  );
  // Compare and Allure say it too.
  const compared = renderCompareMarkdown(compareRuns([readCompared(out)]));
  expect(compared).toMatch(/\| VER-STABLE \| FAIL \(intermittent\) — /);
  // A real run's column: its version and the faults its sandbox ran with.
  expect(compared).toMatch(
    /^\| rule \| .*<br>3\.5\.2\S* · .*; faults ver-not-semver, ver-unstable, description-drift \|$/m,
  );
  const results = join(out, 'allure-results');
  mkdirSync(results, { recursive: true });
  const resultFile = join(results, 'x-result.json');
  writeFileSync(
    resultFile,
    JSON.stringify({
      name: stable.title,
      status: 'failed',
      statusDetails: { message: 'the second read differs' },
      labels: [{ name: TEST_ID_LABEL, value: (stable as { id?: string }).id }],
    }),
  );
  annotateResults(results, last.tests as unknown as VerdictOfTest[]);
  const result = JSON.parse(readFileSync(resultFile, 'utf8')) as AllureResultFile;
  expect(result.statusDetails?.message).toMatch(/^FAIL \(intermittent\): /);
  expect(result.labels).toContainEqual({ name: 'tag', value: 'intermittent' });
  expect(markIntermittent(junit, last.tests)).toBe(1);
  const xml = readFileSync(junit, 'utf8');
  expect(xml).toContain('<failure message="FAIL (intermittent): the second read differs"');
  expect(xml).toContain('<property name="state" value="intermittent">');
});

test('the picture of the last nights: one mark per judged run, oldest first, in Chromium', async () => {
  test.skip(noChromium() !== undefined, noChromium() ?? '');
  const { page, external, close } = await openBrowser();
  try {
    await page.goto(`file://${join(out, 'last-nights.html')}`);
    const strip = page.locator('tr[data-rule="VER-STABLE"] td.mark');
    await pageExpect(strip).toHaveCount(7);
    await pageExpect(strip).toHaveText(['✓', '✓', '✘', '✓', '✘', '✓', '✘']);
    await pageExpect(strip.nth(0)).toHaveAttribute('title', /^run 1: .* — pass$/);
    await pageExpect(strip.nth(6)).toHaveAttribute('title', /^run 7: .* — FAIL$/);
    // Intermittent rules first.
    await pageExpect(page.locator('tbody tr').first()).toHaveAttribute('data-rule', 'VER-STABLE');
    expect(external).toEqual([]);
  } finally {
    await close();
  }
});

test('after the nights: against the named baseline its failures are fixed; a second target compares with nothing of the first', async () => {
  const titleOf = (id: string) => matrix().tests.find((t) => t.ruleId === id)!.title;
  const titles = ['VER-STABLE', 'VER-SEMVER', 'VER-SHAPE'].map(titleOf);
  // A clean night compared with the baseline saved after night 3 (LEDGER_COMPARE_WITH, read as a run reads it):
  // the history step alone.
  const before = process.env.LEDGER_COMPARE_WITH;
  process.env.LEDGER_COMPARE_WITH = 'before-fix';
  try {
    await endRunInProcess(
      out,
      titles.map((title) => ({ title, status: 'passed' })),
    );
  } finally {
    if (before === undefined) delete process.env.LEDGER_COMPARE_WITH;
    else process.env.LEDGER_COMPARE_WITH = before;
  }
  expect(markdown()).toMatch(/^## Changes since the baseline "before-fix" of /);
  expect(matrix().changes.since).toMatchObject({ kind: 'named', name: 'before-fix' });
  // The intermittent rule passing is one more flip, no fix.
  expect(rulesIn('fixed')).toEqual(['VER-SEMVER', 'VER-SHAPE']);

  // The same reports folder, another participant (its URL): the history step alone, a rule failing there.
  const target = join(out, 'other-target.json');
  writeFileSync(
    target,
    JSON.stringify({ baseUrl: 'http://127.0.0.1:9', version: '3.4.11', runId: 'other-target-run' }),
  );
  const failed = {
    title: titles[1]!,
    status: 'failed' as const,
    error: 'Error: the version is no SemVer version',
  };
  const other = await endRunInProcess(out, [failed], { status: 'failed', targetFile: target });
  expect(runExitCode(join(out, 'conformance.json'), other === 'passed' ? 0 : EXIT.failed)).toBe(EXIT.failed);
  expect(matrix().changes.since).toBeNull();
  expect(markdown()).toMatch(/^## Changes since: no earlier run of this target\n/);
  expect(matrix().description.since, 'its own description history').toBeNull();
});

const P: Status = 'passes';
const F: Status = 'fails';

// A flip pattern named intermittent from its fifth night, a rule broken since the third never: the seven nights'.
test('the written rule: one failing night between passes is never intermittent; a streak settles it', () => {
  const once = [P, P, P, P, P, F, P, P, P, P, P];
  expect(statesOf(once).every((s) => s === 'stable')).toBe(true);
  // A streak of five identical statuses settles it; the window bounds what is read.
  expect(isIntermittent([P, F, P, F, F, F, F, F])).toBe(false);
  expect(isIntermittent([P, F, P, F, P, P, P, P, P, P, P, P, P], { window: 10, settle: 20 })).toBe(false);
});

/** A row of a rule with its verdict, as the matrix makes them. */
const rowOf = (id: string, verdict: RuleVerdict): RuleRow => ({
  id,
  title: id,
  operation: 'version',
  level: 'canton',
  tags: [],
  verdict,
  reasons: [],
  tests: [],
});

test('a collapsed night leaves every state as it was, is one line in the webhook, and is no baseline', async () => {
  await withTempDir('collapse-', (dir) => {
    const ids = Array.from({ length: 12 }, (_, i) => `R-${i}`);
    const run = (n: number, verdicts: (id: string, i: number) => RuleVerdict): JudgedRun => ({
      generatedAt: `2026-11-0${n}T00:00:00Z`,
      verdicts: Object.fromEntries(ids.map((id, i) => [id, verdicts(id, i)])),
    });
    // R-0 flips already (intermittent); the rest pass.
    let series: JudgedRun[] = [];
    for (const [n, v] of [P, F, P, F, P].entries())
      series = appendRun(
        dir,
        series,
        run(n + 1, (_, i) => (i === 0 && v === F ? 'fail' : 'pass')),
        30,
      );
    const rows = ids.map((id, i) => rowOf(id, i < 9 ? 'fail' : 'inconclusive'));
    const judged = judgeSeries(dir, rows, { generatedAt: '2026-11-06T00:00:00Z' });
    const changes = judged.apply(
      diffRuns({ generatedAt: 'x', target: {}, verdicts: series.at(-1)!.verdicts }, rows, {
        generatedAt: 'x',
        target: {},
        kind: 'previous',
      }),
    );
    expect(changes.collapsed).toMatch(
      /^12 of the 12 rules that passed on .* failed or were inconclusive together$/,
    );
    expect(rows.find((r) => r.id === 'R-0')!.intermittent, 'R-0 stays intermittent').toBe(true);
    expect(rows.filter((r) => r.intermittent).map((r) => r.id)).toEqual(['R-0']);
    judged.keep();
    expect(readSeries(dir).at(-1)!.collapsed).toBeDefined();
    const message = changesMessage([{ label: 't', matrix: { changes } }], {});
    expect(message).toMatch(/the run collapsed: 12 of the 12 rules/);
    expect(message).not.toMatch(/new failures/);
  });
});

test('the series stays within its cap after 40 runs, the newest kept', async () => {
  await withTempDir('cap-', (dir) => {
    let series: JudgedRun[] = [];
    for (let n = 1; n <= 40; n++)
      series = appendRun(dir, series, { generatedAt: String(n), verdicts: { A: 'pass' } }, 30);
    const kept = readSeries(dir);
    expect(kept).toHaveLength(30);
    expect([kept[0]!.generatedAt, kept.at(-1)!.generatedAt]).toEqual(['11', '40']);
  });
});

test('a FAIL that passes on its re-check stays a FAIL, the re-check named in every view', async () => {
  test.setTimeout(120_000);
  await withTempDir('recheck-', async (dir) => {
    // SANDBOX_FAULTS_SEED=2 at a share of 0.3 breaks the first attempt's reads and spares the re-check's (the draws are seeded).
    const run = await conformance(
      dir,
      {
        LEDGER_RECHECK: 'on',
        SANDBOX_FAULTS: 'ver-unstable',
        SANDBOX_FAULTS_FRACTION: '0.3',
        SANDBOX_FAULTS_SEED: '2',
      },
      'VER-STABLE',
    );
    expect(run.status, run.stdout).toBe(EXIT.failed);
    const m = matrix(dir);
    expect(m.rules.find((r) => r.id === 'VER-STABLE')).toMatchObject({ verdict: 'fail', recheck: 'passed' });
    expect(run.stdout).toMatch(/VER-STABLE +FAIL \(passed on re-check: intermittent\)/);
    expect(markdown(dir)).toContain('- **VER-STABLE** — FAIL (passed on re-check: intermittent):');
    expect(
      readSeries(join(dir, 'history', 'targets', readdirOne(join(dir, 'history', 'targets'))))[0]!.rechecked,
    ).toEqual({ 'VER-STABLE': 'passed' });
    const test1 = m.tests.find((t) => t.ruleId === 'VER-STABLE')!;
    const junit = join(dir, 'junit.xml');
    writeFileSync(
      junit,
      `<testsuites failures="0"><testsuite failures="0"><testcase name="${test1.title}" classname="${test1.file}"></testcase></testsuite></testsuites>`,
    );
    expect(markRecheckedFailures(junit, m.tests)).toBe(1);
    expect(readFileSync(junit, 'utf8')).toContain('failures="1"><testcase');
    expect(readFileSync(junit, 'utf8')).toContain(
      '<failure message="FAIL (passed on re-check: intermittent): ',
    );
  });
});

function readdirOne(dir: string): string {
  const names = readdirSync(dir);
  expect(names).toHaveLength(1);
  return names[0]!;
}
