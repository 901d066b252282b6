// One verdict, the same everywhere: a run with Canton's four known deviations (the embedded sandbox is Canton
// 3.4 and has them) read in each of its outputs — the console's list and closing count, conformance.md, JUnit,
// the Allure report's data (results, statistic, environment), and `npm run compare` — each saying "known
// deviation", none a ✘ or a plain pass; the secret gate still passes. One child run of the four rules, read by
// every test here. That the report's overview in a browser shows what its data says is
// selftest/report/browser.test.ts's.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { compareRuns, readRun } from '../../reporters/compare-runs';
import { renderCompareMarkdown } from '../../reporters/compare-render';
import { ENV_KEYS } from '../../reporters/allure-results';
import {
  environmentOf,
  freshReportsDir,
  junitCases,
  readJson,
  reportTests,
  runConformance,
  type Matrix,
  type RunOutcome,
} from '../support/report-kit';

const DEVIATIONS = [
  'VER-AUTH-REQUIRED',
  'SUB-TAPS-ABOVE-LIMIT',
  'VET-PAGE-FILTERED-WALK',
  'VET-PAGE-FINAL-TOKEN-EMPTY',
];

test.describe.configure({ mode: 'serial' });

let out: string;
let remove: () => void;
let run: RunOutcome;

test.beforeAll(async () => {
  test.setTimeout(180_000);
  ({ dir: out, remove } = freshReportsDir('one-verdict'));
  run = await runConformance(out, DEVIATIONS.map((id) => `${id} `).join('|'));
});
test.afterAll(() => remove());

test('the run passes, its matrix has the four known deviations, and the secret gate passes', () => {
  expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(0);
  const matrix = readJson<Matrix>(join(out, 'conformance.json'));
  expect(matrix.rules.filter((r) => r.verdict !== 'not-run').map((r) => [r.id, r.verdict])).toEqual(
    expect.arrayContaining(DEVIATIONS.map((id) => [id, 'known-deviation'])),
  );
  expect(matrix.totals['known-deviation']).toBe(4);
  expect(run.stdout).toMatch(/^secret gate: passed/m);
});

test('the console: each is `~ … — known deviation`, never ✘, and the count names them', () => {
  const lines = run.stdout.split('\n');
  for (const id of DEVIATIONS) {
    const line = lines.find((l) => /^\s+[✓✘~?-]\s+\d+ /.test(l) && l.includes(` ${id} `));
    expect(line, id).toMatch(/^\s+~\s+\d+ .* — known deviation \(\d+ms\)$/);
  }
  expect(run.stdout).not.toContain('✘');
  expect(run.stdout).toMatch(/^\s+4 known deviations \([\d.]+s\)$/m);
  // The closing table: a reason too long for the line is cut at a word, and says where it is whole.
  const table = run.stdout.slice(run.stdout.indexOf('Conformance by rule:'));
  for (const id of DEVIATIONS)
    expect(table).toMatch(new RegExp(`^\\s+${id}\\s+known deviation\\s+— known deviation of canton`, 'm'));
  for (const cut of table.split('\n').filter((l) => l.endsWith('…')))
    expect(cut).toMatch(/[\w.,;:)] ?…$|\w…$/);
});

test('conformance.md opens, after the changes, with the rules that did not pass and their whole reasons', () => {
  const md = readFileSync(join(out, 'conformance.md'), 'utf8');
  // The participant's API description, when it differs from the document, sits between (docs/report.md).
  const sections = [...md.matchAll(/^## (.+)$/gm)]
    .map((m) => m[1])
    .filter((title) => !title?.startsWith("The participant's API description"));
  expect(sections.slice(0, 2)).toEqual([expect.stringMatching(/^Changes since/), 'Rules that did not pass']);
  const top = md.slice(md.indexOf('## Rules that did not pass'), md.indexOf('## Conformance matrix'));
  const matrix = readJson<Matrix>(join(out, 'conformance.json'));
  for (const id of DEVIATIONS) {
    const reason = matrix.tests.find((t) => t.ruleId === id)!.reason!;
    expect(top).toContain(`- **${id}** — ${reason.replace(/\|/g, '\\|')}`);
    expect(reason).toMatch(/^known deviation of canton /);
  }
});

test('JUnit: each is skipped with the message "known deviation …", none counted passed', () => {
  const cases = junitCases(join(out, 'junit.xml'));
  const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
  for (const id of DEVIATIONS) {
    expect(cases.find((c) => c.name.includes(` ${id} `))?.outcome, id).toBe('skipped');
  }
  expect(xml.match(/<skipped message="known deviation of canton 3\.4\.\d+: /g)).toHaveLength(4);
  expect(xml).toMatch(/<testsuites [^>]*skipped="4"/);
});

test('Allure: the four are their own status on the overview, named with their count; compare says the same', () => {
  const tests = reportTests(join(out));
  const mine = tests.filter((t) => DEVIATIONS.some((id) => t.name.startsWith(`${id} `)));
  expect(mine.map((t) => t.status)).toEqual(['unknown', 'unknown', 'unknown', 'unknown']);
  for (const t of mine)
    expect(t.categories?.map((c) => c.name)).toEqual([
      expect.stringMatching(/^Known deviation: Canton's baseline/),
    ]);
  const statistic = readJson<Record<string, number>>(join(out, 'allure', 'widgets', 'statistic.json'));
  expect(statistic).toMatchObject({ unknown: 4 });
  expect(statistic.passed ?? 0).toBe(0);
  expect(statistic.failed ?? 0).toBe(0);
  const named = environmentOf(out).get(ENV_KEYS.deviations) ?? '';
  expect(named).toMatch(/^4 of Canton's baseline \(Allure status unknown\): /);
  for (const id of DEVIATIONS) expect(named).toContain(id);
  const compared = renderCompareMarkdown(compareRuns([readRun(out)]));
  for (const id of DEVIATIONS) expect(compared).toMatch(new RegExp(`${id}.*known deviation`));
});
