// A run against a faulty sandbox (plus the report samples: an unreachable target, harness defects, and a
// baseline with a deviation, a stale deviation and a skip) through the real `npm run conformance`: the rule
// matrix, the Allure report and JUnit must tell the same story, and so must the exit code; a known deviation
// of Canton's baseline reads the same in the console, conformance.md, JUnit, Allure and compare. Then the secret
// gate passes on that run (a planted secret failing a run: report/history.test.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { ruleIdOfTitle } from '../../rules/catalogue';
import { VERDICT_WORDS } from '../../reporters/verdicts';
import { externalReferences } from '../../reporters/allure-html';
import { ENV_KEYS } from '../../reporters/allure-results';
import { compareRuns, readRun } from '../../reporters/compare-runs';
import { renderCompareMarkdown } from '../../reporters/compare-render';
import type { TestVerdict } from '../../reporters/verdicts';
import {
  environmentOf,
  filesUnder,
  junitCases,
  readJson,
  reportTests,
  type Matrix,
  type RunOutcome,
} from '../support/report-kit';
import { kindsRun } from '../support/shared-runs';
import { EXIT } from '../../core/exit-codes';

/** What each verdict looks like in Allure (status, category) and in JUnit. */
const EXPECTED: Record<TestVerdict, { status: string; category?: string; junit: string[] }> = {
  pass: { status: 'passed', junit: ['passed'] },
  fail: { status: 'failed', category: 'Non-conformance', junit: ['failure'] },
  'known-deviation': { status: 'unknown', category: 'Known deviation:', junit: ['skipped'] },
  'unexpected-pass': { status: 'failed', category: 'Known deviation no longer seen', junit: ['failure'] },
  skip: { status: 'skipped', junit: ['skipped'] },
  inconclusive: { status: 'broken', category: 'Environment / inconclusive', junit: ['error'] },
  'harness-defect': { status: 'broken', category: 'Harness defect', junit: ['error'] },
  setup: { status: 'broken', category: 'Set-up mistake', junit: ['error'] },
};
/** Not in the kinds run: no participant that answers its preflight lets a configured user be unknown later. */
const NOT_IN_KINDS_RUN: readonly TestVerdict[] = ['setup'];
const NOT_OK: TestVerdict[] = ['fail', 'unexpected-pass', 'inconclusive', 'harness-defect'];

test.describe.configure({ mode: 'serial' });

test.describe('report agreement', () => {
  let out: string;
  let run: RunOutcome;
  let matrix: Matrix;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    ({ dir: out, run } = await kindsRun());
    matrix = readJson<Matrix>(join(out, 'conformance.json'));
  });

  test('every verdict kind is in the rule matrix, each with its reason', () => {
    const kinds = new Set(matrix.tests.map((t) => t.verdict));
    for (const v of Object.keys(EXPECTED) as TestVerdict[])
      if (!NOT_IN_KINDS_RUN.includes(v)) expect(kinds, `a test judged ${v}`).toContain(v);
    expect(
      matrix.rules.some((r) => r.verdict === 'not-run'),
      'rules outside the selection: not run',
    ).toBe(true);
    const row = (id: string) => matrix.rules.find((r) => r.id === id)!;
    expect(row('VET-PAGE-ORDER').verdict).toBe('fail');
    expect(row('VER-AUTH-REQUIRED').verdict).toBe('known-deviation');
    expect(row('VER-STABLE').verdict).toBe('unexpected-pass');
    expect(row('VER-SEMVER').verdict).toBe('skip');
    expect(row('GEN-NO-5XX').verdict).toBe('inconclusive');
    expect(row('GEN-ERROR-BODY').verdict).toBe('harness-defect');
    expect(row('VER-SHAPE').verdict).toBe('pass');
    expect(row('AUTH-NO-HEADER').verdict).toBe('not-run');
    expect(matrix.uncatalogued).toEqual(['SAMPLE-UNCATALOGUED a title naming no rule of the catalogue']);
    const skip = matrix.tests.find((t) => t.verdict === 'skip');
    expect(skip?.reason).toContain('skipped by the self-test');
    const md = readFileSync(join(out, 'conformance.md'), 'utf8');
    for (const word of ['| pass |', '| FAIL |', '| known deviation |', '| UNEXPECTED PASS |', '| skip |'])
      expect(md).toContain(word);
    for (const word of ['| inconclusive |', '| HARNESS DEFECT |', '| not run |']) expect(md).toContain(word);
    // The end-of-run table says the same.
    expect(run.stdout).toMatch(/VET-PAGE-ORDER\s+FAIL/);
    expect(run.stdout).toMatch(/GEN-ERROR-BODY\s+HARNESS DEFECT/);
  });

  test('Allure shows each test with the matrix verdict: status, verdict label, category', () => {
    const byTitle = new Map(reportTests(out).map((t) => [t.name, t]));
    expect(byTitle.size, 'one Allure result per test, titles unique').toBe(matrix.tests.length);
    for (const t of matrix.tests) {
      const r = byTitle.get(t.title);
      expect(r, `Allure result of "${t.title}"`).toBeDefined();
      const want = EXPECTED[t.verdict];
      expect(r!.status, `${t.title}: status`).toBe(want.status);
      expect(r!.labels.find((l) => l.name === 'verdict')?.value, `${t.title}: label`).toBe(
        VERDICT_WORDS[t.verdict].allure,
      );
      const category = r!.categories?.[0]?.name;
      if (want.category) expect(category, `${t.title}: category`).toContain(want.category);
      else expect(category, `${t.title}: no category`).toBeUndefined();
      // The rule's labels (epic/feature/story) come from the catalogue.
      if (t.ruleId && t.verdict !== 'harness-defect') {
        expect(r!.labels.find((l) => l.name === 'story')?.value).toBe(t.ruleId);
      }
    }
    const categories = readJson<{
      roots: string[];
      nodes: Record<string, { name: string; statistic: { total: number } }>;
    }>(join(out, 'allure', 'widgets', 'categories.json'));
    const totals = Object.fromEntries(
      categories.roots.map((id) => [categories.nodes[id]!.name, categories.nodes[id]!.statistic.total]),
    );
    for (const [verdict, want] of Object.entries(EXPECTED)) {
      if (!want.category || NOT_IN_KINDS_RUN.includes(verdict as TestVerdict)) continue;
      const n = matrix.tests.filter((t) => t.verdict === verdict).length;
      const [name] = Object.keys(totals).filter((k) => k.includes(want.category!));
      expect(totals[name!], `category ${want.category}`).toBe(n);
    }
  });

  test('JUnit has one testcase per test, the rule id in its name, the same outcome', () => {
    const cases = junitCases(join(out, 'junit.xml'));
    expect(cases).toHaveLength(matrix.tests.length);
    for (const t of matrix.tests) {
      const c = cases.find((x) => x.name.endsWith(t.title));
      expect(c, `testcase for "${t.title}"`).toBeDefined();
      const id = ruleIdOfTitle(t.title);
      expect(id && c!.name.includes(id), `rule id in "${c!.name}"`).toBeTruthy();
      expect(EXPECTED[t.verdict].junit, `${t.title}: JUnit ${c!.outcome} for ${t.verdict}`).toContain(
        c!.outcome,
      );
    }
  });

  test('JUnit counts in the matrix’s words: failures are the FAILs, errors the tests with no verdict', () => {
    const xml = readFileSync(join(out, 'junit.xml'), 'utf8');
    const count = (...verdicts: TestVerdict[]) =>
      matrix.tests.filter((t) => verdicts.includes(t.verdict)).length;
    const root = /<testsuites\b[^>]*>/.exec(xml)![0];
    expect(root).toContain(`failures="${count('fail', 'unexpected-pass')}"`);
    expect(root).toContain(`errors="${count('inconclusive', 'harness-defect', 'setup')}"`);
    // Each element's message is the matrix's reason, never Playwright's matcher hint.
    const cases = junitCases(join(out, 'junit.xml'));
    for (const t of matrix.tests.filter((x) => x.verdict === 'fail'))
      expect(
        cases.find((c) => c.name.endsWith(t.title)),
        t.title,
      ).toMatchObject({
        outcome: 'failure',
        message: `FAIL: ${t.reason!}`,
        type: 'FAIL',
      });
    const failed = reportTests(out).filter((t) => t.status === 'failed');
    expect(failed.length).toBeGreaterThan(0);
    const said = [xml, readFileSync(join(out, 'conformance.md'), 'utf8'), run.stdout, JSON.stringify(failed)];
    for (const text of said) expect(text).not.toMatch(/TypeError: expect|expect\(received\)/);
  });

  test('the exit code agrees: non-zero exactly when a test is not ok', () => {
    const notOk = matrix.tests.filter((t) => NOT_OK.includes(t.verdict));
    expect(notOk.length).toBeGreaterThan(0);
    expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(EXIT.failed);
    expect(matrix.status).toBe('failed');
  });

  test("a known deviation (Canton's baseline) says so in every output, none a ✘ or a plain pass", () => {
    const id = 'VER-AUTH-REQUIRED';
    const deviation = matrix.tests.find((t) => t.ruleId === id)!;
    const reason = deviation.reason!;
    expect(reason).toMatch(/^known deviation of canton 3\.4\.\d+: /);
    // The console: its line `~ … — known deviation`, the count naming it, and the closing table.
    const lines = run.stdout.split('\n');
    const line = lines.find((l) => /^\s+[✓✘~?-]\s+\d+ /.test(l) && l.includes(` ${id} `));
    expect(line).toMatch(/^\s+~\s+\d+ .* — known deviation \(\d+ms\)$/);
    expect(run.stdout).toMatch(/, 1 known deviation, /);
    const table = run.stdout.slice(run.stdout.indexOf('Conformance by rule:'));
    expect(table).toMatch(new RegExp(`^\\s+${id}\\s+known deviation\\s+— known deviation of canton`, 'm'));
    // A reason too long for the line is cut at a word, and the table says where it is whole.
    for (const cut of table.split('\n').filter((l) => l.endsWith('…')))
      expect(cut).toMatch(/[\w.,;:)] ?…$|\w…$/);
    // conformance.md: after the changes (and the API description), the rules that did not pass, whole reasons.
    const md = readFileSync(join(out, 'conformance.md'), 'utf8');
    const sections = [...md.matchAll(/^## (.+)$/gm)]
      .map((m) => m[1])
      .filter((title) => !title?.startsWith("The participant's API description"));
    expect(sections.slice(0, 2)).toEqual([
      expect.stringMatching(/^Changes since/),
      'Rules that did not pass',
    ]);
    const top = md.slice(md.indexOf('## Rules that did not pass'), md.indexOf('## Conformance matrix'));
    expect(top).toContain(`- **${id}** — ${reason.replace(/\|/g, '\\|')}`);
    // JUnit: skipped, with the reason as its message.
    const junit = junitCases(join(out, 'junit.xml')).find((c) => c.name.endsWith(deviation.title));
    expect(junit).toMatchObject({ outcome: 'skipped', message: reason });
    // Allure: its own status, counted and named on the overview; compare says the same.
    const statistic = readJson<Record<string, number>>(join(out, 'allure', 'widgets', 'statistic.json'));
    expect(statistic.unknown).toBe(1);
    expect(environmentOf(out).get(ENV_KEYS.deviations)).toBe(
      `1 of Canton's baseline (Allure status unknown): ${id}`,
    );
    expect(renderCompareMarkdown(compareRuns([readRun(out)]))).toMatch(
      new RegExp(`\\| ${id} \\| known deviation — `),
    );
  });

  test('the environment block: target without credentials, version, capabilities, run id, seed, scale, harness', () => {
    const env = environmentOf(out);
    const target = readJson<{ runId: string }>(join(out, 'target.json'));
    expect(env.get(ENV_KEYS.target)).toMatch(
      /^in-process sandbox http:\/\/127\.0\.0\.1:\d+ \(mode canton\)$/,
    );
    expect(env.get(ENV_KEYS.faults)).toBe('the sandbox is deliberately broken: vet-entries-unsorted');
    expect(env.get(ENV_KEYS.version)).toBe('3.4.11');
    expect(env.get(ENV_KEYS.capabilities)).toContain('packageFeature.maxVettedPackagesPageSize=100');
    expect(env.get(ENV_KEYS.runId)).toBe(target.runId);
    expect(env.get(ENV_KEYS.seed)).toBe('per test');
    expect(env.get(ENV_KEYS.timeoutScale)).toBe('1');
    const pkg = readJson<{ version: string }>(join(__dirname, '..', '..', 'package.json'));
    expect(env.get(ENV_KEYS.harness)).toBe(`ledger-conformance ${pkg.version}`);
    expect(env.get(ENV_KEYS.capabilityChanges)).toBe('none since the previous run');
    // Allure's overview cuts a long key: every key is short, each of them known.
    for (const key of env.keys()) expect(Object.values(ENV_KEYS), key).toContain(key);
  });

  test('each test carries its rule: labels, the clause as a parameter and a link, the seed, unique tags', () => {
    const vet = reportTests(out).find((t) => t.name.startsWith('VET-PAGE-ORDER'))!;
    const label = (name: string) => vet.labels.filter((l) => l.name === name).map((l) => l.value);
    expect(label('epic')).toEqual(['POST /v2/package-vetting/list']);
    expect(label('feature')).toEqual(['Vetting list']);
    expect(label('story')).toEqual(['VET-PAGE-ORDER']);
    expect(label('level')).toEqual(['interface']);
    expect(label('severity')).toHaveLength(1);
    const tags = label('tag');
    expect(tags.length).toBeGreaterThan(0);
    expect(new Set(tags).size, `tags once each: ${tags.join(', ')}`).toBe(tags.length);
    const params = new Map((vet.parameters ?? []).map((p) => [p.name, p.value]));
    expect([...params.keys()].sort()).toEqual(['clause', 'seed']);
    expect(params.get('clause')).toMatch(/^§4\.2: /);
    expect(params.get('seed')).toMatch(/^\d+$/);
    expect(vet.links).toContainEqual(
      expect.objectContaining({
        name: 'Interface document §4.2',
        url: 'https://docs.example.com/ledger-api.html#s4.2',
      }),
    );
  });

  test('the report works offline: no third-party reference, served and single-file', () => {
    for (const file of [join(out, 'allure', 'index.html'), join(out, 'allure-single.html')]) {
      const html = readFileSync(file, 'utf8');
      expect(html, file).not.toContain('googletagmanager');
      expect(html, file).not.toContain('gtag(');
      expect(externalReferences(html), file).toEqual([]);
    }
  });

  test('the secret gate passes on the run: no secret or JWT anywhere, the dev secret not even printed', () => {
    expect(run.stdout).toContain('secret gate: passed');
    expect(run.stdout + run.stderr).not.toContain('sandbox-dev-secret');
    for (const f of filesUnder(out)) {
      const text = readFileSync(f).toString('latin1');
      expect(text.includes('sandbox-dev-secret'), f).toBe(false);
      expect(/eyJ[\w-]{8,}\.eyJ[\w-]{8,}\./.test(text), f).toBe(false);
    }
  });
});
