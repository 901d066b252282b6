// What changed since the baseline run (reporters/run-history.ts), through real `npm run conformance` runs of
// one rule: clean, then broken (a new failure), broken again (nothing new: LEDGER_FAIL_ON=regressions passes),
// then clean against a named baseline. Two steps between them are history steps alone, fed to the run's own
// reporter in this process with a result as a run gives it (no suite needed to say what they compare with): the
// clean run that fixes the rule against the previous one, and a second target with no history of its own.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { CHANGE_KINDS, diffRuns } from '../../reporters/run-history';
import type { RuleRow } from '../../reporters/verdicts';
import { runExitCode } from '../../scripts/run/target-down';
import { cleanEnv, LEAN_RUN_CONFIG, runNode, type ChildOutcome } from '../support/child-run';
import { endRunInProcess, type EndedTest } from '../support/report-kit';
import { EXIT } from '../../core/exit-codes';

// One run after another, each reading what the one before kept.
test.describe.configure({ mode: 'serial' });

const RULE = 'VER-SEMVER';
let out: string;

function conformance(extra: Record<string, string> = {}): Promise<ChildOutcome> {
  return runNode(
    ['--require', 'tsx/cjs', 'scripts/run/conformance.ts', '-c', LEAN_RUN_CONFIG, '--grep', RULE],
    {
      ...cleanEnv(),
      LEDGER_REPORTS_DIR: out,
      ...extra,
    },
  );
}

const markdown = () => readFileSync(join(out, 'conformance.md'), 'utf8');
const changes = () =>
  (
    JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
      changes: { since: { kind: string; name?: string } | null } & Record<string, { rule: string }[]>;
    }
  ).changes;
const rulesIn = (kind: string) => changes()[kind]!.map((c) => c.rule);
/** The rule's test, as the real runs titled it: the in-process steps end the same test. */
const ruleTest = (): string =>
  (
    JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as { tests: { title: string }[] }
  ).tests.find((t) => t.title.startsWith(`${RULE} `))!.title;
/** The exit code `npm run conformance` gives a run of this status, by the matrix it left. */
const exitCodeOf = (status: string) =>
  runExitCode(join(out, 'conformance.json'), status === 'passed' ? 0 : EXIT.failed);

test.beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'run-changes-'));
});
test.afterAll(() => rmSync(out, { recursive: true, force: true }));

test('the kinds of a change, from a baseline and this run', () => {
  const row = (id: string, verdict: RuleRow['verdict'], excusedBy?: string) =>
    ({ id, verdict, reasons: [], ...(excusedBy ? { excusedBy } : {}) }) as unknown as RuleRow;
  const c = diffRuns(
    {
      generatedAt: 't',
      target: {},
      verdicts: { A: 'pass', B: 'fail', C: 'pass', D: 'known-deviation', E: 'pass', F: 'pass', G: 'pass' },
      excusedBy: { D: 'canton' },
    },
    [
      row('A', 'fail'),
      row('B', 'pass'),
      row('C', 'known-deviation', 'canton'),
      row('D', 'unexpected-pass', 'canton'),
      row('E', 'skip'),
      row('F', 'inconclusive'),
      row('G', 'not-run'),
      row('H', 'pass'),
    ],
    null,
  );
  const kinds: Record<string, string[]> = {};
  for (const k of CHANGE_KINDS) if (c[k].length > 0) kinds[k] = c[k].map((x) => x.rule);
  expect(kinds).toEqual({
    newFailures: ['A'],
    fixed: ['B'],
    deviationsAppeared: ['C'],
    deviationsGone: ['D'],
    newSkips: ['E'],
    firstVerdicts: ['H'],
  });
  expect(c.noVerdict, 'F is inconclusive: no verdict, no change').toBe(1);
});

test('runs of one target: first, new failure, old failure, fixed, against a named baseline', async () => {
  test.setTimeout(240_000);
  const first = await conformance();
  expect(first.status, first.stdout + first.stderr).toBe(0);
  expect(markdown()).toMatch(/^## Changes since: no earlier run of this target\n/);

  const broken = await conformance({ SANDBOX_FAULTS: 'ver-not-semver', LEDGER_FAIL_ON: 'regressions' });
  expect(broken.status, 'a new failure fails a regressions-only run').toBe(EXIT.failed);
  expect(markdown()).toMatch(
    /^## Changes since the previous run of \S+ \(in-process sandbox, version 3\.4\.11, run /,
  );
  expect(markdown()).toContain(`**New failures** (1)\n\n- ${RULE}: pass → FAIL`);
  expect(rulesIn('newFailures')).toEqual([RULE]);

  const save = await runNode(['--require', 'tsx/cjs', 'scripts/history/baseline.ts', 'save', 'before-fix'], {
    ...cleanEnv(),
    LEDGER_REPORTS_DIR: out,
  });
  expect(save.status, save.stderr).toBe(0);

  const again = await conformance({ SANDBOX_FAULTS: 'ver-not-semver', LEDGER_FAIL_ON: 'regressions' });
  expect(again.status, 'only old failures: a regressions-only run passes').toBe(0);
  expect(markdown()).toContain('No verdict changed.');

  // Fixed against the previous run: the history step alone (the real run before it left the target.json).
  const fixed = await endRunInProcess(out, [{ title: ruleTest(), status: 'passed' }]);
  expect(exitCodeOf(fixed)).toBe(0);
  expect(rulesIn('fixed')).toEqual([RULE]);
  expect(changes().since?.kind).toBe('previous');

  const named = await conformance({ LEDGER_COMPARE_WITH: 'before-fix' });
  expect(named.status).toBe(0);
  expect(markdown()).toMatch(/^## Changes since the baseline "before-fix" of /);
  expect(changes().since).toMatchObject({ kind: 'named', name: 'before-fix' });
  expect(rulesIn('fixed')).toEqual([RULE]);
});

test('a second target compares with nothing of the first', async () => {
  // The same reports folder, another participant (its URL): the history step alone, its rule failing there.
  const target = join(out, 'other-target.json');
  writeFileSync(
    target,
    JSON.stringify({ baseUrl: 'http://127.0.0.1:9', version: '3.4.11', runId: 'other-target-run' }),
  );
  const failed: EndedTest = {
    title: ruleTest(),
    status: 'failed',
    error: 'Error: expect(received).toMatch(expected): the version is no semantic version',
  };
  const other = await endRunInProcess(out, [failed], { status: 'failed', targetFile: target });
  expect(exitCodeOf(other), readFileSync(join(out, 'conformance.md'), 'utf8')).toBe(EXIT.failed);
  expect(changes().since).toBeNull();
  expect(markdown()).toMatch(/^## Changes since: no earlier run of this target\n/);
});
