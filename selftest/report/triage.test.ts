// Triage from the report, on the shared run with every verdict kind (KINDS_RUN): an UNEXPECTED PASS carries
// its transcript and curl reproduction; every failed or unexpected test carries one rerun command (attached,
// and in JUnit as the `rerun` property), a pass, a known deviation or a skip none; and a failed test's
// command, run as printed with the settings it names, reruns that test alone through `npm run conformance`,
// its report and secret gate included.
import { execFile } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { RERUN_ANNOTATION } from '../../core/verdict-marks';
import { RERUN_ATTACHMENT } from '../../fixtures/rerun';
import { cleanEnv } from '../support/child-run';
import {
  freshReportsDir,
  junitCases,
  KINDS_RUN,
  readJson,
  ROOT,
  type Matrix,
  type RunOutcome,
} from '../support/report-kit';
import { kindsRun } from '../support/shared-runs';
import { EXIT } from '../../core/exit-codes';

const TRANSCRIPT = 'HTTP transcript (Authorization redacted)';
const CURL = 'reproduce with curl';

interface Node {
  attachments?: { name: string; source: string }[];
  steps?: Node[];
}

/** Each Allure result's attachments by name, their text (a test attaches in its fixtures' teardown). */
function attachmentsByTest(dir: string): Map<string, Map<string, string[]>> {
  const results = join(dir, 'allure-results');
  const flat = (n: Node): { name: string; source: string }[] => [
    ...(n.attachments ?? []),
    ...(n.steps ?? []).flatMap(flat),
  ];
  const out = new Map<string, Map<string, string[]>>();
  for (const f of readdirSync(results).filter((f) => f.endsWith('-result.json'))) {
    const r = readJson<Node & { name: string }>(join(results, f));
    const byName = new Map<string, string[]>();
    for (const a of flat(r))
      byName.set(a.name, [...(byName.get(a.name) ?? []), readFileSync(join(results, a.source), 'utf8')]);
    out.set(r.name, byName);
  }
  return out;
}

/** `sh -c command` in the project folder with exactly `env`, asynchronously. */
function shell(command: string, env: NodeJS.ProcessEnv): Promise<RunOutcome> {
  return new Promise((done) => {
    execFile(
      'sh',
      ['-c', command],
      { cwd: ROOT, env, maxBuffer: 64 * 1024 * 1024 },
      (error, stdout, stderr) =>
        done({ status: error ? (typeof error.code === 'number' ? error.code : null) : 0, stdout, stderr }),
    );
  });
}

test.describe('triage from the report', () => {
  let dir: string;
  let matrix: Matrix;
  let attachments: Map<string, Map<string, string[]>>;

  test.beforeAll(async () => {
    test.setTimeout(240_000);
    ({ dir } = await kindsRun());
    matrix = readJson<Matrix>(join(dir, 'conformance.json'));
    attachments = attachmentsByTest(dir);
  });

  test('an UNEXPECTED PASS carries its transcript and curl reproduction; a failed or unexpected test one rerun command', () => {
    const verdicts = new Set(matrix.tests.map((t) => t.verdict));
    for (const kind of [
      'unexpected-pass',
      'fail',
      'known-deviation',
      'pass',
      'inconclusive',
      'harness-defect',
    ])
      expect(verdicts, `the run has a ${kind}`).toContain(kind);
    const junit = new Map(
      junitCases(join(dir, 'junit.xml')).flatMap((c) => {
        const rerun = c.properties.get(RERUN_ANNOTATION);
        return rerun === undefined ? [] : [[c.name, rerun] as const];
      }),
    );
    let reruns = 0;
    for (const t of matrix.tests) {
      const of = attachments.get(t.title);
      expect(of, `${t.title}: its Allure result`).toBeDefined();
      const rerun = of!.get(RERUN_ATTACHMENT) ?? [];
      if (t.verdict === 'unexpected-pass' || t.verdict === 'known-deviation') {
        expect(of!.get(TRANSCRIPT)?.[0], `${t.title}: transcript`).toMatch(/^#1 GET .*\/v2\/version/);
        expect(of!.get(CURL)?.[0], `${t.title}: curl`).toContain('curl -sS -i');
      }
      if (['fail', 'unexpected-pass', 'inconclusive', 'harness-defect'].includes(t.verdict)) {
        expect(rerun, `${t.title} (${t.verdict}): one rerun command`).toHaveLength(1);
        expect(rerun[0]).toContain('npm run conformance -- ');
        // The same command, with the settings named, as the test's `rerun` annotation: a JUnit property.
        const command = rerun[0]!.trimEnd().split('\n').at(-1)!;
        const property = [...junit].find(([name]) => name.endsWith(t.title))?.[1];
        expect(property, `${t.title}: JUnit property`).toBe(
          `${command}   # with this run's ${Object.keys(KINDS_RUN.env).sort().join(', ')} (from .env or the environment)`,
        );
        reruns++;
      } else expect(rerun, `${t.title} (${t.verdict}): no rerun command`).toEqual([]);
    }
    expect(junit.size, 'no other test has a rerun property').toBe(reruns);
  });

  test("a failed test's command, run as printed, reruns it alone, with its report and the secret gate", async () => {
    test.setTimeout(180_000);
    const failed = matrix.tests.find((t) => t.verdict === 'fail')!;
    expect(failed, 'a failed test').toBeDefined();
    const text = attachments.get(failed.title)!.get(RERUN_ATTACHMENT)![0]!;
    // Names the settings this run was given, never their values.
    const names = /values not shown\): (.+)\.$/m.exec(text)?.[1]?.split(', ');
    expect(names).toEqual(Object.keys(KINDS_RUN.env).sort());
    for (const value of Object.values(KINDS_RUN.env)) expect(text).not.toContain(value);
    const command = text.trimEnd().split('\n').at(-1)!;

    const { dir: out, remove } = freshReportsDir('rerun');
    try {
      // Exactly as printed, in the project's folder, with the named settings as the run had them.
      const run = await shell(command, { ...cleanEnv(), ...KINDS_RUN.env, LEDGER_REPORTS_DIR: out });
      const log = run.stdout.slice(-3000) + run.stderr;
      expect(run.status, log).toBe(EXIT.failed);
      const rerun = readJson<Matrix>(join(out, 'conformance.json'));
      expect(rerun.tests.map((t) => [t.title, t.verdict])).toEqual([[failed.title, 'fail']]);
      expect(junitCases(join(out, 'junit.xml'))).toHaveLength(1);
      expect(existsSync(join(out, 'allure', 'index.html')), 'the report was built').toBe(true);
      expect(run.stdout, log).toMatch(/^secret gate: passed/m);
    } finally {
      remove();
    }
  });
});
