// The suite catches participants broken in ways the fault catalogue does not list (issue 5). Each held-out
// mutant (support/held-out-faults.ts) is a clean sandbox behind a front app carrying its hooks; one Playwright
// run of scripts/mutation.config.ts gives the clean participant and every mutant a project of its own, each
// mutant restricted to the spec files of its operation. A mutant is caught when a rule that passes (or deviates
// as the baseline expects) against the clean participant fails, or stops deviating, against it — never by a
// harness defect. The mutants declare no rule: this checks the checks, not the catalogue's bookkeeping.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test, expect } from '@playwright/test';
import { newRunId } from '../fixtures/settings';
import { RULES } from '../rules/catalogue';
import { FAULTS } from '../sandbox/faults/catalogue';
import type { ProjectRecord } from '../reporters/mutation-collector';
import { ruleRows, type RuleRow } from '../reporters/verdicts';
import { judgeFault } from '../scripts/mutation-judge';
import { sharedProjects } from '../scripts/shared-projects';
import { ruleFiles } from '../scripts/suite-listing';
import type { PlannedProject } from '../scripts/mutation.config';
import { HELD_OUT_MUTANTS, specsOf, startParticipant, type Participant } from './support/held-out-faults';

const ROOT = resolve(__dirname, '..');
const CLEAN = 'clean';
/** @slow rules (a deduplication period running out) belong to the catalogue's mutation run, not this one. */
const SLOW = RULES.filter((r) => r.tags.includes('@slow')).map((r) => r.id);
const NOT_OK = new Set(['fail', 'unexpected-pass', 'inconclusive', 'harness-defect']);

let child: ChildProcess | undefined;
const participants: Participant[] = [];
let dir: string | undefined;

// Also after a timeout: the nested run (its own process group) and the participants must not outlive the test.
test.afterEach(async () => {
  if (child?.pid !== undefined && child.exitCode === null && child.signalCode === null) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  await Promise.all(participants.splice(0).map((p) => p.close()));
  if (dir) rmSync(dir, { recursive: true, force: true });
});

/** One Playwright run of every project, two workers; its records go to `records`, its output to `output`. */
function runPlaywright(
  projects: PlannedProject[],
  records: string,
  output: string,
): Promise<{ status: number | null; log: string }> {
  const cli = require.resolve('@playwright/test/cli');
  const args = [cli, 'test', '-c', 'scripts/mutation.config.ts', '--workers=2', `--output=${output}`];
  return new Promise((done, fail) => {
    child = spawn(process.execPath, args, {
      cwd: ROOT,
      detached: true,
      env: {
        ...process.env,
        MUTATION_PLAN: JSON.stringify(projects),
        MUTATION_RECORDS: records,
        LEDGER_BASE_URL: '',
        LEDGER_RUN_ID: newRunId(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout!.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr!.on('data', (d: Buffer) => (log += d.toString()));
    child.on('error', fail);
    child.on('close', (status) => done({ status, log }));
  });
}

const describeRow = (r: RuleRow) =>
  `${r.id} ${r.verdict}${r.reasons[0] ? ` (${r.reasons[0].slice(0, 160)})` : ''}`;

test('every held-out mutant is caught by a rule that holds on the clean participant, never by a harness defect', async () => {
  // About a minute on two idle cores; the margin is for npm test, which runs the catalogue's mutation run beside it.
  test.setTimeout(240_000);
  const names = HELD_OUT_MUTANTS.map((m) => m.name);
  expect(new Set(names).size, 'mutant names are unique').toBe(names.length);
  const catalogued = names.filter((n) => FAULTS.some((f) => f.name === n));
  expect(catalogued, 'held-out mutants are not catalogued faults').toEqual([]);

  dir = mkdtempSync(join(tmpdir(), 'held-out-'));
  // Each participant is kept for afterEach the moment it listens, so a failed start leaks none.
  const start = async (m?: (typeof HELD_OUT_MUTANTS)[number]) => {
    const p = await startParticipant(m);
    participants.push(p);
    return p;
  };
  const [clean, ...mutants] = await Promise.all([start(), ...HELD_OUT_MUTANTS.map((m) => start(m))]);
  const plan = (name: string, url: string, specs: string[]): PlannedProject => ({
    name,
    url,
    specs,
    rules: [],
    skipSlow: SLOW,
    env: {},
  });
  const projects = [
    plan(CLEAN, clean.url, [...new Set(HELD_OUT_MUTANTS.flatMap(specsOf))]),
    // Mutants share projects (scripts/shared-projects.ts); a rule shared by two mutants' spec files puts them
    // in different projects, so each runs the tests of exactly its files (@slow rules left out).
    ...sharedProjects(
      HELD_OUT_MUTANTS.map((m, i) => {
        const specs = specsOf(m);
        const rules = [...ruleFiles(ROOT)]
          .filter(([id, files]) => !SLOW.includes(id) && [...files].some((f) => specs.includes(f)))
          .map(([id]) => id);
        return { name: m.name, url: mutants[i]!.url, rules, specs };
      }),
      'mutants',
    ),
  ];
  const recordsFile = join(dir, 'records.json');
  const run = await runPlaywright(projects, recordsFile, join(dir, 'output'));
  let records: ProjectRecord[];
  try {
    records = JSON.parse(readFileSync(recordsFile, 'utf8')) as ProjectRecord[];
  } catch {
    throw new Error(`the Playwright run wrote no records (exit ${run.status}):\n${run.log.slice(-3000)}`);
  }

  const rowsOf = (project: string) =>
    ruleRows(
      RULES,
      records.filter((r) => r.project === project),
    );
  const cleanRows = rowsOf(CLEAN);
  expect(
    cleanRows.filter((r) => NOT_OK.has(r.verdict)).map(describeRow),
    'rules that do not hold on the clean participant',
  ).toEqual([]);

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
