// The suite can fail, proven in one Playwright run of the mutation runner (`scripts/mutation/mutation.ts
// --by-rule`): - the whole fault catalogue, each conformance fault against the tests of its declared rules
// (`npm run mutation` runs whole spec files per fault, `--full` the whole suite; MUTATION_SAMPLE=a,b narrows
// it); - the held-out mutants (participants broken in ways the catalogue does not list,
// support/held-out-faults.ts), each a clean sandbox behind a front app carrying its hooks, started here and
// handed to the runner with `--extra`; with them a clean participant behind the same front, so a mutant is
// judged against exactly what it changes. A mutant is caught when a rule that passes (or deviates as the
// baseline expects) against the clean participant fails, or stops deviating, against it — never by a harness
// defect. The mutants declare no rule: this checks the checks, not the catalogue's bookkeeping. One run for
// both: a second Playwright run cost its runner, a listing of the suite and its own sandboxes. The runner runs
// in this process (`runMutation`, what `npm run mutation` runs), beside the participants, its Playwright run a
// child: a process of its own added nothing this test reads. Its listing of the suite is made with a CI job's
// PLAYWRIGHT_JSON_OUTPUT_* settings in its environment, which must not take the listing away from stdout.
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { listingEnv, ruleFiles } from '../../scripts/mutation/suite-listing';
import { RULES } from '../../rules/catalogue';
import { FAULTS } from '../../sandbox/faults/catalogue';
import type { ProjectRecord } from '../../reporters/mutation-collector';
import { ruleRows, type RuleRow } from '../../reporters/verdicts';
import { judgeFault, NOT_HOLDING, type MutationReport } from '../../scripts/mutation/judge';
import { runMutation, type ExtraParticipant } from '../../scripts/mutation/run-mutation';
import { ROOT } from '../support/child-run';
import { HELD_OUT_MUTANTS, specsOf, startParticipant, type Participant } from '../support/held-out-faults';

const SAMPLE = process.env.MUTATION_SAMPLE?.split(',');
/** The clean participant behind the held-out mutants' front, without hooks. */
const FRONT_CLEAN = 'held-out-clean';

// Both tests read the one run of the beforeAll: one worker, in order.
test.describe.configure({ mode: 'default' });

const participants: Participant[] = [];
let out: string | undefined;
/** The runner's exit code and everything it wrote, the Playwright run's output included. */
let run: { status: number; log: string } | undefined;
/** A CI job's settings for its own JSON report (outside the project: should the listing obey them, it writes there). */
let ciJsonOutput: NodeJS.ProcessEnv = {};
/** Kills the nested run's process group: after a timed-out beforeAll it must not outlive the test. */
let killRun = (): void => {};

test.beforeAll(async () => {
  // Several times what the run takes on a loaded 2-core machine beside the other self-tests (bench/README.md).
  test.setTimeout(600_000);
  // Outside test-results/: the nested run owns test-results/mutation and empties it at start.
  out = mkdtempSync(join(tmpdir(), 'mutation-'));
  // Each participant is kept for afterAll the moment it listens, so a failed start leaks none.
  const start = async (m?: (typeof HELD_OUT_MUTANTS)[number]) => {
    const p = await startParticipant(m);
    participants.push(p);
    return p;
  };
  const [clean, ...mutants] = await Promise.all([start(), ...HELD_OUT_MUTANTS.map((m) => start(m))]);
  const extra: ExtraParticipant[] = [
    { name: FRONT_CLEAN, url: clean.url, specs: [...new Set(HELD_OUT_MUTANTS.flatMap(specsOf))].sort() },
    ...HELD_OUT_MUTANTS.map((m, i) => ({ name: m.name, url: mutants[i]!.url, specs: specsOf(m) })),
  ];
  writeFileSync(join(out, 'extra.json'), JSON.stringify(extra));
  const args = ['--by-rule', '--out', out, '--extra', join(out, 'extra.json')];
  if (SAMPLE) args.push('--faults', SAMPLE.join(','));
  ciJsonOutput = {
    PLAYWRIGHT_JSON_OUTPUT_FILE: join(out, 'ci', 'playwright.json'),
    PLAYWRIGHT_JSON_OUTPUT_DIR: join(out, 'ci'),
    PLAYWRIGHT_JSON_OUTPUT_NAME: 'playwright.json',
  };
  // The participants and the sandboxes answer from this worker while the runner's Playwright run waits on them.
  let log = '';
  const write = (text: string) => void (log += text);
  const status = await runMutation(args, {
    env: { ...process.env, ...ciJsonOutput, LEDGER_BASE_URL: '' },
    out: write,
    err: write,
    own: (kill) => (killRun = kill),
  }).catch((e: unknown) => {
    write(`mutation: ${e instanceof Error ? e.message : String(e)}\n`);
    return 2;
  });
  run = { status, log };
});

test.afterAll(async () => {
  killRun();
  await Promise.all(participants.splice(0).map((p) => p.close()));
  if (out) rmSync(out, { recursive: true, force: true });
});

const logOf = (): string => run?.log ?? '';

test('the clean sandbox passes, every fault is killed by a declared rule, transport faults are never failed', () => {
  expect(
    existsSync(join(out!, 'mutation.json')),
    `the mutation runner wrote no report:\n${logOf().slice(-3000)}`,
  ).toBe(true);
  const report = JSON.parse(readFileSync(join(out!, 'mutation.json'), 'utf8')) as MutationReport;
  expect(report.cleanFailures, 'rules failing on the clean sandbox').toEqual([]);
  for (const o of report.outcomes) {
    expect(
      o.ok,
      `${o.fault}: ${o.status} ${o.flag ?? ''} (caught by ${o.killedBy.join(', ') || 'nothing'})`,
    ).toBe(true);
  }
  expect(report.outcomes.map((o) => o.fault).sort(), 'every fault of the catalogue was judged').toEqual(
    (SAMPLE ?? FAULTS.map((f) => f.name)).sort(),
  );
  if (!SAMPLE) {
    expect(report.outcomes.find((o) => o.fault === 'transport-unavailable')?.status).toBe('inconclusive');
  }
  expect(run?.status, logOf().slice(-2000)).toBe(0);
});

const describeRow = (r: RuleRow) =>
  `${r.id} ${r.verdict}${r.reasons[0] ? ` (${r.reasons[0].slice(0, 160)})` : ''}`;

test('every held-out mutant is caught by a rule that holds on the clean participant, never by a harness defect', () => {
  const names = HELD_OUT_MUTANTS.map((m) => m.name);
  expect(new Set(names).size, 'mutant names are unique').toBe(names.length);
  const catalogued = names.filter((n) => FAULTS.some((f) => f.name === n));
  expect(catalogued, 'held-out mutants are not catalogued faults').toEqual([]);

  let records: ProjectRecord[];
  try {
    records = JSON.parse(readFileSync(join(out!, 'mutation-records.json'), 'utf8')) as ProjectRecord[];
  } catch {
    throw new Error(`the mutation run wrote no records (exit ${run?.status}):\n${logOf().slice(-3000)}`);
  }
  const rowsOf = (project: string) =>
    ruleRows(
      RULES,
      records.filter((r) => r.project === project),
    );
  const cleanRows = rowsOf(FRONT_CLEAN);
  expect(
    cleanRows.filter((r) => NOT_HOLDING.has(r.verdict)).map(describeRow),
    'rules that do not hold on the clean participant behind the front',
  ).toEqual([]);
  expect(
    cleanRows.filter((r) => r.verdict !== 'not-run').length,
    'rules run against the clean participant',
  ).toBeGreaterThan(50);

  const problems: string[] = [];
  const caught: string[] = [];
  for (const m of HELD_OUT_MUTANTS) {
    const rows = rowsOf(m.name);
    // Declared rules: none, so only killedBy (rules broken here that held on the clean run) matters.
    const { killedBy } = judgeFault(
      { name: m.name, breaks: m.breaks, rules: [], kind: 'conformance' },
      cleanRows,
      rows,
      specsOf(m),
    );
    const defects = rows.filter((r) => r.verdict === 'harness-defect');
    if (rows.every((r) => r.verdict === 'not-run')) problems.push(`${m.name}: no test ran against it`);
    else if (defects.length > 0)
      problems.push(`${m.name} (${m.breaks}): harness defect on ${defects.map(describeRow).join('; ')}`);
    else if (killedBy.length === 0)
      problems.push(
        `${m.name} SURVIVED — it breaks: ${m.breaks} (${m.against}); no rule of ${specsOf(m).join(', ')} failed`,
      );
    else caught.push(`${m.name}: ${killedBy.join(', ')}`);
  }
  test.info().annotations.push({ type: 'caught by', description: caught.join('\n') });
  expect(
    problems,
    `held-out mutants not caught (${caught.length} of ${HELD_OUT_MUTANTS.length} were)`,
  ).toEqual([]);
});

test('a CI job’s PLAYWRIGHT_JSON_OUTPUT_* settings do not take the listing away from stdout', async () => {
  // The runner's listing was made with them set (beforeAll): before, it came back empty ("Unexpected end of
  // JSON input"). Asked in the same environment, the process's listing is that one.
  const files = await ruleFiles(ROOT, { ...process.env, ...ciJsonOutput, LEDGER_BASE_URL: '' });
  expect([...(files.get('VET-PAGE-WALK-ENDS') ?? [])]).toEqual(['tests/vetting-walks.spec.ts']);
  expect([...(files.get('VER-AUTH-REQUIRED') ?? [])]).toEqual(['tests/version.spec.ts']);
  expect(existsSync(join(out!, 'ci')), 'the listing wrote where the CI settings point').toBe(false);
  const env = listingEnv({ ...ciJsonOutput, LEDGER_BASE_URL: '', HOME: '/home/qa' });
  expect(env).toEqual({ LEDGER_BASE_URL: 'http://127.0.0.1:9', HOME: '/home/qa' });
  expect(listingEnv({ LEDGER_BASE_URL: 'https://p.example' }).LEDGER_BASE_URL).toBe('https://p.example');
});
