// The fault run (`npm run mutation`, ./mutation.ts): proves every check can fail. Starts the clean sandbox and
// one sandbox per fault (in this process, each on its own loopback port; a fault that needs settings — its
// profile — gets them, and is judged against a clean sandbox with the same), runs the suite once with one
// Playwright project per sandbox on all cores, and writes mutation.{json,md}: per fault, killed or survived and
// by which rules; a fault caught only by rules other than those declared is flagged (the suite caught it by
// accident: the intended check is weak). Its exit code is non-zero unless the clean sandbox is green, every
// conformance fault is killed by a declared rule and every transport fault stays inconclusive. A function, not
// only a command: the self-test runs it in its own process beside the participants it hands over (`--extra`).
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { givenRunId, newRunId } from '../../core/settings';
import { RULES, type RuleId } from '../../rules/catalogue';
import { buildApp } from '../../sandbox/app';
import { loadConfig } from '../../sandbox/config';
import { FAULTS as CATALOGUED, type DeclaredRuleId, type Fault } from '../../sandbox/faults/catalogue';
import { describeProfile, type FaultProfile } from '../../sandbox/faults/profiles';
import type { ProjectRecord } from '../../reporters/mutation-collector';
import { ruleRows, type RuleRow } from '../../reporters/verdicts';
import { judgeFault, NOT_HOLDING, renderMutationMarkdown, type MutationReport } from './judge';
import type { PlannedProject } from './mutation.config';
import { sharedProjects } from './shared-projects';
import { ruleFiles, specsForRules, type RuleFiles } from './suite-listing';
import { playwrightCommand } from '../run/playwright-cli';
import { DEFAULT_REPORTS_DIR } from '../../core/reports-dir';

const ROOT = resolve(__dirname, '..', '..');
const CLEAN = 'clean';

/** Never, unless a fault declares a rule id the rule catalogue lacks: then that id. */
type Uncatalogued = Exclude<DeclaredRuleId, RuleId>;
/**
 * The fault catalogue where it meets the rule catalogue (the sandbox may not read rules/): a fault declaring an
 * unknown rule id fails the type check here, naming it ("does not satisfy the expected type 'VET-TYPO'").
 */
const FAULTS: readonly Fault[] = CATALOGUED satisfies [Uncatalogued] extends [never] ? unknown : Uncatalogued;

/** What a run reads and writes beyond its arguments: the command's own process by default. */
export interface RunIo {
  /** The environment the sandboxes' settings, the suite's listing and the Playwright run are given. */
  env: NodeJS.ProcessEnv;
  /** The run's lines and the Playwright run's output. */
  out: (text: string) => void;
  err: (text: string) => void;
  /** Receives a function that stops the Playwright run, its workers included: for a caller that may give up. */
  own?: (kill: () => void) => void;
}

const COMMAND_IO: RunIo = {
  env: process.env,
  out: (text) => process.stdout.write(text),
  err: (text) => process.stderr.write(text),
};

interface Options {
  /** Where mutation.{json,md} go (reports/ by default; the self-test uses its own folder). */
  out: string;
  faults: Fault[];
  /** What runs per conformance fault: its declared rules' spec files (default), the whole suite, or only the tests of its declared rules. */
  selection: Selection;
  workers: number;
  /** Participants started by someone else (the self-tests' held-out mutants), run in the same Playwright run. */
  extra: ExtraParticipant[];
}

/**
 * `--extra FILE`: a JSON list of participants already listening, each run against the tests of its spec files
 * (@slow rules left out) in this run, beside the catalogue; their records go to mutation-records.json under
 * their names, for the caller to judge against the clean sandbox's. They share projects as the by-rule faults do.
 */
export interface ExtraParticipant {
  name: string;
  url: string;
  specs: string[];
}

type Selection = 'specs' | 'full' | 'rules';

const SELECTION_TEXT: Record<Selection, string> = {
  specs:
    'per conformance fault, the spec files holding its declared rules (@slow rules only where declared); the whole suite for the clean sandbox and transport faults',
  full: 'the whole suite for every fault',
  rules:
    'per conformance fault, only the tests of its declared rules (so a fault caught only by other rules shows as survived, not flagged); per transport fault, tests/version and deduplication specs; the whole suite for the clean sandbox',
};

/** The `--extra` file: a JSON list of {name, url, specs}; anything else is named, with the file. */
function readExtra(file: string): ExtraParticipant[] {
  let parsed: unknown;
  try {
    parsed = JSON.parse(readFileSync(resolve(file), 'utf8'));
  } catch (e) {
    throw new Error(`--extra ${file}: not a readable JSON file (${(e as Error).message})`, { cause: e });
  }
  const ok = (p: unknown): p is ExtraParticipant => {
    const x = p as ExtraParticipant;
    return (
      typeof x?.name === 'string' &&
      /^[a-z0-9-]+$/.test(x.name) &&
      typeof x.url === 'string' &&
      Array.isArray(x.specs) &&
      x.specs.every((f) => typeof f === 'string')
    );
  };
  if (!Array.isArray(parsed) || !parsed.every(ok))
    throw new Error(`--extra ${file}: expected a JSON list of {"name": kebab-case, "url", "specs": [files]}`);
  return parsed;
}

function parseArgs(argv: readonly string[]): Options {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const names = get('--faults')?.split(',').filter(Boolean);
  const unknown = (names ?? []).filter((n) => !FAULTS.some((f) => f.name === n));
  if (unknown.length > 0) throw new Error(`--faults names unknown faults: ${unknown.join(', ')}`);
  const extraFile = get('--extra');
  const extra = extraFile ? readExtra(extraFile) : [];
  const clash = extra.filter((e) => e.name.startsWith(CLEAN) || FAULTS.some((f) => f.name === e.name));
  if (clash.length > 0)
    throw new Error(`--extra names a fault or a clean sandbox: ${clash.map((e) => e.name).join(', ')}`);
  return {
    out: resolve(ROOT, get('--out') ?? DEFAULT_REPORTS_DIR),
    faults: names ? FAULTS.filter((f) => names.includes(f.name)) : [...FAULTS],
    selection: argv.includes('--full') ? 'full' : argv.includes('--by-rule') ? 'rules' : 'specs',
    workers: Number(get('--workers') ?? Math.max(1, availableParallelism())),
    extra,
  };
}

async function startSandbox(
  faults: string,
  profile: FaultProfile | undefined,
  env: NodeJS.ProcessEnv,
): Promise<{ app: FastifyInstance; url: string }> {
  // The sandbox's own settings apply (SANDBOX_*), as in a conformance run; the control route is on, as there.
  const app = await buildApp(
    loadConfig({
      ...env,
      ...profile?.sandbox,
      SANDBOX_FAULTS: faults,
      SANDBOX_CONTROL: 'true',
      LOG_LEVEL: '',
    }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const SLOW_RULES = RULES.filter((r) => r.tags.includes('@slow')).map((r) => r.id);

/** The rules with a test in `specs`, @slow ones left out (they belong to the faults that declare them). */
const rulesOfSpecs = (files: RuleFiles, specs: string[]): string[] =>
  [...files]
    .filter(([id, inFiles]) => !SLOW_RULES.includes(id) && [...inFiles].some((f) => specs.includes(f)))
    .map(([id]) => id);

/** The clean run a fault is judged against: `clean`, or `clean@<profile>` for a fault that needs settings. */
const cleanName = (profile: FaultProfile | undefined) => (profile ? `${CLEAN}@${profile.name}` : CLEAN);

/**
 * What a transport fault runs with `--by-rule`: a read (the version) and writes (deduplication). Every test a
 * transport fault cuts short restarts a Playwright worker, so a handful of tests keeps npm test in budget; the
 * whole suite runs per transport fault in `npm run mutation`.
 */
const TRANSPORT_SPECS_BY_RULE = ['tests/version.spec.ts', 'tests/deduplication.spec.ts'];

function plan(fault: Fault, url: string, selection: Selection, files: RuleFiles): PlannedProject {
  const targeted = fault.kind === 'conformance' && selection !== 'full';
  const transportSpecs = fault.kind === 'transport' && selection === 'rules' ? TRANSPORT_SPECS_BY_RULE : [];
  return {
    name: fault.name,
    url,
    specs: targeted ? specsForRules(files, fault.rules) : transportSpecs,
    rules: targeted && selection === 'rules' ? [...fault.rules] : [],
    skipSlow: SLOW_RULES.filter((id) => !fault.rules.includes(id)),
    env: fault.profile?.harness ?? {},
  };
}

/**
 * The clean twin of a profile: the whole suite for the default one; for another profile, the specs and slow
 * rules its faults need (with the same settings, so only the fault differs).
 */
function planClean(profile: FaultProfile | undefined, url: string, faults: PlannedProject[]): PlannedProject {
  if (!profile) return { name: CLEAN, url, specs: [], rules: [], skipSlow: [], env: {} };
  const union = (pick: (f: PlannedProject) => string[]) =>
    faults.some((f) => pick(f).length === 0) ? [] : [...new Set(faults.flatMap(pick))];
  const skipSlow = SLOW_RULES.filter((id) => faults.every((f) => f.skipSlow.includes(id)));
  return {
    name: cleanName(profile),
    url,
    specs: union((f) => f.specs),
    rules: union((f) => f.rules),
    skipSlow,
    env: profile.harness,
  };
}

function runPlaywright(
  projects: PlannedProject[],
  opts: Options,
  recordsFile: string,
  io: RunIo,
): Promise<number> {
  const args = playwrightCommand(
    'test',
    '-c',
    'scripts/mutation/mutation.config.ts',
    `--workers=${opts.workers}`,
  );
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: {
        ...io.env,
        MUTATION_PLAN: JSON.stringify(projects),
        MUTATION_RECORDS: recordsFile,
        LEDGER_BASE_URL: '',
        // One run id, as `npm run conformance` sets: ids then look as they do against a real participant.
        LEDGER_RUN_ID: givenRunId(io.env) ?? newRunId(),
      },
      stdio: ['ignore', 'pipe', 'pipe'],
      // Its own process group when someone may stop it: the workers go with it.
      detached: io.own !== undefined,
    });
    io.own?.(() => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    child.stdout.on('data', (d: Buffer) => io.out(d.toString()));
    child.stderr.on('data', (d: Buffer) => io.err(d.toString()));
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

/** The run `argv` asks for (`npm run mutation`'s arguments); resolves to its exit code. */
export async function runMutation(argv: readonly string[], io: RunIo = COMMAND_IO): Promise<number> {
  const opts = parseArgs(argv);
  mkdirSync(opts.out, { recursive: true });
  const started = Date.now();
  const { profiles, cleans, faulty } = await startSandboxes(opts, io.env);
  const recordsFile = join(opts.out, 'mutation-records.json');
  try {
    const { faultRuns, projects } = planProjects(opts, cleans, faulty, await ruleFiles(ROOT, io.env));
    io.out(
      `mutation: ${opts.faults.length} faults${opts.extra.length > 0 ? `, ${opts.extra.length} extra participants` : ''} and ${cleans.length} clean sandbox(es), ${opts.workers} workers\n`,
    );
    await runPlaywright(projects, opts, recordsFile, io);
    const records = JSON.parse(readFileSync(recordsFile, 'utf8')) as ProjectRecord[];
    const report = judgeRun(records, profiles, faultRuns, opts.selection, started);
    writeFileSync(join(opts.out, 'mutation.json'), JSON.stringify(report, null, 2) + '\n');
    const md = renderMutationMarkdown(report);
    writeFileSync(join(opts.out, 'mutation.md'), md);
    for (const o of report.outcomes.filter((x) => !x.ok)) {
      io.out(`  ${o.status.padEnd(12)} ${o.fault}${o.flag ? ` — ${o.flag}` : ''}\n`);
    }
    io.out(md.split('\n').slice(2, 5).join('\n') + '\n');
    return report.cleanFailures.length === 0 && report.outcomes.every((o) => o.ok) ? 0 : 1;
  } finally {
    await Promise.all([...cleans, ...faulty].map((s) => s.app.close()));
  }
}

type Sandbox = Awaited<ReturnType<typeof startSandbox>>;
type Profiles = Map<string, FaultProfile | undefined>;

/** A clean sandbox per profile the faults need (the default one always), and one sandbox per fault. */
async function startSandboxes(
  opts: Options,
  env: NodeJS.ProcessEnv,
): Promise<{
  profiles: Profiles;
  cleans: (Sandbox & { profile: FaultProfile | undefined })[];
  faulty: (Sandbox & { fault: Fault })[];
}> {
  const profiles: Profiles = new Map([[CLEAN, undefined]]);
  for (const f of opts.faults) if (f.profile) profiles.set(cleanName(f.profile), f.profile);
  const [cleans, faulty] = await Promise.all([
    Promise.all(
      [...profiles.values()].map(async (profile) => ({ profile, ...(await startSandbox('', profile, env)) })),
    ),
    Promise.all(
      opts.faults.map(async (fault) => ({ fault, ...(await startSandbox(fault.name, fault.profile, env)) })),
    ),
  ]);
  return { profiles, cleans, faulty };
}

/** The Playwright projects: each fault's and each clean sandbox's, shared where --by-rule allows. */
function planProjects(
  opts: Options,
  cleans: { profile: FaultProfile | undefined; url: string }[],
  faulty: { fault: Fault; url: string }[],
  files: RuleFiles,
): { faultRuns: { fault: Fault; project: PlannedProject }[]; projects: PlannedProject[] } {
  const faultRuns = faulty.map((s) => ({
    fault: s.fault,
    project: plan(s.fault, s.url, opts.selection, files),
  }));
  const cleanRuns = cleans.map((s) =>
    planClean(
      s.profile,
      s.url,
      faultRuns.filter((r) => r.fault.profile === s.profile).map((r) => r.project),
    ),
  );
  // --by-rule: the conformance faults and the profiles' clean sandboxes share a few projects
  // (scripts/mutation/shared-projects.ts; one per set of harness settings at least); the default clean
  // sandbox keeps its project (the whole suite), each transport fault its own.
  const byRule = opts.selection === 'rules';
  const shared = byRule
    ? [
        ...cleanRuns.filter((c) => c.name !== CLEAN),
        ...faultRuns.filter((r) => r.fault.kind === 'conformance').map((r) => r.project),
      ].filter((p) => p.rules.length > 0)
    : [];
  const projects = [
    ...cleanRuns.filter((c) => !shared.includes(c)),
    ...faultRuns.map((r) => r.project).filter((p) => !shared.includes(p)),
    ...sharedProjects(
      shared.map((p) => ({ name: p.name, url: p.url, rules: p.rules, specs: p.specs, env: p.env })),
      'shared',
    ),
    ...sharedProjects(
      opts.extra.map((e) => ({ ...e, rules: rulesOfSpecs(files, e.specs) })),
      'extra',
    ),
  ];
  return { faultRuns, projects };
}

/** Each fault judged against its clean twin's rows, and what the clean sandboxes failed. */
function judgeRun(
  records: ProjectRecord[],
  profiles: Profiles,
  faultRuns: { fault: Fault; project: PlannedProject }[],
  selection: Selection,
  started: number,
): MutationReport {
  const rowsOf = (project: string): RuleRow[] =>
    ruleRows(
      RULES,
      records.filter((r) => r.project === project),
    );
  const cleanRows = [...profiles.keys()].map((name) => ({ name, rows: rowsOf(name) }));
  const outcomes = faultRuns.map(({ fault, project }) => {
    const clean = cleanRows.find((c) => c.name === cleanName(fault.profile))!.rows;
    return judgeFault(fault, clean, rowsOf(project.name), project.specs);
  });
  return {
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    selection: SELECTION_TEXT[selection],
    cleanFailures: cleanRows.flatMap((c) =>
      c.rows
        .filter((r) => NOT_HOLDING.has(r.verdict))
        .map((r) => (c.name === CLEAN ? r.id : `${r.id} (${c.name})`)),
    ),
    profiles: [...profiles.entries()].flatMap(([name, p]) =>
      p ? [{ name, why: p.why, settings: describeProfile(p) }] : [],
    ),
    outcomes,
  };
}
