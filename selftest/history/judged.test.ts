// What a run keeps in its target's history and what it calls a change, through the rule-matrix reporter
// itself (in this process, fed the test results a run of the kind gives): a run that lost its participant
// keeps no verdict it did not judge and lists no change, so the next clean run lists none either; a run that
// judged nothing is not the baseline; a FAIL later covered by a team's waiver is "now waived by <file>",
// never fixed, and the nightly's webhook has nothing to announce. The real runs behind these results are
// tested elsewhere (selftest/run/participant-death.test.ts: a death mid-run;
// selftest/history/intermittent.test.ts: changes across real runs). First, the kinds of a change on their own.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { cantonVersionDeviation, endRunInProcess, type EndedTest } from '../support/report-kit';
import { EXCUSED_BY, EXPECTATION, EXPECTATION_EXPIRED } from '../../core/verdict-marks';
import {
  CHANGE_KINDS,
  changeCount,
  diffRuns,
  targetHistoryDir,
  type Changes,
} from '../../reporters/run-history';
import type { RuleRow } from '../../reporters/verdicts';
import { changesMessage, type RunMatrix } from '../../scripts/nightly/notify-changes';

const TARGET = {
  baseUrl: 'https://participant.example.com',
  participantId: 'participant1::1220ab',
  version: '3.4.11',
};
const WAIVERS = 'qa/waivers.json';
const LOST =
  '[inconclusive] target lost: POST /v2/package-vetting/list got no response: socket hang up; probed again: the connection was refused';

/** A test's end as a run of the kind gives it; an expected failure is a known deviation when it failed. */
type Outcome = EndedTest;

const pass = (title: string): Outcome => ({ title, status: 'passed' });
const fail = (title: string, annotations: Outcome['annotations'] = []): Outcome => ({
  title,
  status: 'failed',
  error: 'Error: expected a rejection of a negative deduplication period, got 200',
  annotations,
});
/** Cut short because the participant was gone (core/target-lost.ts): skipped at set-up with this reason. */
const lost = (title: string): Outcome => ({
  title,
  status: 'skipped',
  annotations: [{ type: 'skip', description: LOST }],
});

const SHAPE = 'VER-SHAPE the version response carries the version';
const STABLE = 'VER-STABLE two reads of the version agree';
const AUTH = 'VER-AUTH-REQUIRED the version operation requires the Authorization header';
const NEGATIVE = 'SUB-DEDUP-NEGATIVE-PERIOD a negative deduplication period is rejected';

/** One run through the reporter into `out`: its conformance.json as the nightly reads it. */
async function run(out: string, outcomes: Outcome[], extra: Record<string, unknown> = {}) {
  writeFileSync(
    join(out, 'target.json'),
    JSON.stringify({
      ...TARGET,
      runId: `run-${Math.random().toString(36).slice(2, 8)}`,
      expectations: {
        setting: `auto,${WAIVERS}`,
        layers: [
          { name: 'canton', from: 'canton', entries: 5 },
          { name: WAIVERS, from: WAIVERS, entries: 1 },
        ],
        entries: [
          {
            key: 'canton#4',
            layer: 'canton',
            rule: 'VER-AUTH-REQUIRED',
            reason: 'r',
            applies: true,
            expired: false,
          },
        ],
      },
      ...extra,
    }),
  );
  await endRunInProcess(out, outcomes);
  const matrix = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as RunMatrix & {
    changes: Changes;
    expectations: { stale: unknown[] };
  };
  return { matrix, md: readFileSync(join(out, 'conformance.md'), 'utf8') };
}

const lastRun = (out: string) =>
  readFileSync(join(targetHistoryDir(join(out, 'history'), TARGET), 'last-run.json'), 'utf8');

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

let out: string;
test.beforeEach(() => {
  out = mkdtempSync(join(tmpdir(), 'history-judged-'));
});
test.afterEach(() => rmSync(out, { recursive: true, force: true }));

test('clean, then the participant dies mid-run, then clean: neither later run lists a change', async () => {
  const clean = [pass(SHAPE), pass(STABLE), cantonVersionDeviation(AUTH)];
  await run(out, clean);
  // Dies after the first test: the test in flight got no answer, the rest ended at set-up.
  const died = await run(out, [
    pass(SHAPE),
    { title: STABLE, status: 'failed', error: `Error: ${LOST}` },
    lost(AUTH),
  ]);
  expect(changeCount(died.matrix.changes), died.md).toBe(0);
  expect(died.md).toContain('No verdict changed.');
  expect(died.md).toContain('2 rules got no verdict in this run');
  expect(died.md).not.toMatch(/Known deviations that went|New inconclusive|Stale/);
  expect(died.matrix.expectations.stale, 'no stale expectation from a test that never ran').toEqual([]);
  const history = lastRun(out);
  expect(JSON.parse(history)).toMatchObject({
    verdicts: { 'VER-SHAPE': 'pass', 'VER-STABLE': 'pass', 'VER-AUTH-REQUIRED': 'known-deviation' },
  });

  // Lost before the first test: judged nothing, so it compares nothing and replaces nothing.
  const nothing = await run(out, [lost(SHAPE), lost(STABLE), lost(AUTH)]);
  expect(nothing.md).toMatch(/^## Changes since: nothing to compare\n\nThis run judged no rule/);
  expect(changeCount(nothing.matrix.changes)).toBe(0);
  expect(lastRun(out), 'the run that judged nothing is not the baseline').toBe(history);
  expect(changesMessage([{ label: 'qa', matrix: nothing.matrix }], {})).toBeUndefined();

  const again = await run(out, clean);
  expect(changeCount(again.matrix.changes), again.md).toBe(0);
  expect(again.md).toMatch(/^## Changes since the previous run of .*\n\nNo verdict changed\.\n/);
});

test('a FAIL, then the same FAIL under a new waiver, then the waiver expired: never fixed, never new, nothing to announce', async () => {
  await run(out, [fail(NEGATIVE)]);
  const waived = await run(out, [
    {
      ...fail(NEGATIVE, [
        { type: 'fail', description: `waived by ${WAIVERS}: tracked upstream` },
        { type: EXPECTATION, description: `${WAIVERS}#1` },
        { type: EXCUSED_BY, description: `${WAIVERS}#1` },
      ]),
      expected: 'failed',
    },
  ]);
  expect(waived.matrix.changes.nowWaived.map((c) => c.rule)).toEqual(['SUB-DEDUP-NEGATIVE-PERIOD']);
  expect(waived.md).toContain(
    `- SUB-DEDUP-NEGATIVE-PERIOD: FAIL → known deviation, now waived by ${WAIVERS} — waived by ${WAIVERS}: tracked upstream`,
  );
  expect(waived.md).not.toMatch(/\*\*Fixed\*\*|\*\*New failures\*\*/);
  expect(changesMessage([{ label: 'qa', matrix: waived.matrix }], {}), 'the webhook message').toBeUndefined();
  // The rules that did not pass come first after the changes, the waived one among them.
  expect(waived.md).toMatch(
    /## Changes since[^]*## Rules that did not pass\n\n- \*\*SUB-DEDUP-NEGATIVE-PERIOD\*\* — known deviation: waived by /,
  );

  const expired = await run(out, [
    fail(NEGATIVE, [{ type: EXPECTATION_EXPIRED, description: `${WAIVERS}#1` }]),
  ]);
  expect(expired.matrix.changes.waiverEnded).toMatchObject([
    { rule: 'SUB-DEDUP-NEGATIVE-PERIOD', expired: true },
  ]);
  expect(expired.md).toContain(`known deviation → FAIL, waiver expired (${WAIVERS})`);
  expect(expired.md).not.toContain('**New failures**');
  expect(changesMessage([{ label: 'qa', matrix: expired.matrix }], {})).toBeUndefined();
});
