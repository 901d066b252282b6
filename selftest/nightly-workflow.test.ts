// The nightly GitHub Actions workflow (.github/workflows/nightly.yml) cannot run here, so it is checked against
// two validators and the project, and its steps' shell is run here as a runner would run it:
// - it passes action-validator (the workflow schema) and actionlint (expressions, contexts, matrices, reusable
//   workflow inputs and secrets); each rejects a broken copy;
// - every `npm run` names a script of package.json; the settings are .env.example's, the run's secrets come
//   from GitHub secrets and no step prints one; artifacts, history cache and report paths are those the
//   scripts write; it runs on the schedule, on demand and when called (workflow_call);
// - the plan step turns the inputs (or the defaults) into the matrices: targets × 1..shards;
// - against a participant that does not answer (a closed port on 127.0.0.1), each shard step ends so that its
//   upload runs, with the files the upload names; the merge step exits 4 with its line in the summary, the
//   report is uploaded and the history not kept; the verdict step exits 4;
// - the side-by-side step hands every target with a rule matrix to `npm run compare` and names the others.
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { test, expect } from '@playwright/test';
import { parseDocument } from 'yaml';
import { reportPaths } from '../scripts/allure-report';
import { nightlyPlan } from '../scripts/nightly-plan';
import { cleanEnv, ROOT, runCommand, runNode } from './support/child-run';
import { listen } from './support/harness-kit';
import { sandbox } from './support/sandbox-kit';
import { closedPort, startReceiver } from './support/webhook-receiver';

const FILE = join(ROOT, '.github', 'workflows', 'nightly.yml');

interface Step {
  name?: string;
  id?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | boolean | number>;
  env?: Record<string, string | number>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  environment?: string;
  strategy?: { matrix: { include: string } };
  outputs?: Record<string, string>;
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: {
    schedule?: { cron: string }[];
    workflow_dispatch?: unknown;
    workflow_call?: {
      inputs: Record<string, { type: string; required?: boolean }>;
      secrets: Record<string, { required?: boolean }>;
    };
  };
  env: Record<string, string>;
  jobs: { plan: Job; shard: Job; merge: Job; compare: Job };
}

/** The secrets a run holds (scripts/secret-gate.ts runSecrets) and the URL, which may carry credentials. */
const SECRETS = [
  'LEDGER_TOKEN',
  'LEDGER_HMAC_SECRET',
  'LEDGER_JWT_PRIVATE_KEY',
  'LEDGER_OAUTH_CLIENT_SECRET',
  'LEDGER_BASE_URL',
];

function load(text = readFileSync(FILE, 'utf8')): Workflow {
  const doc = parseDocument(text);
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  expect(doc.warnings.map((e) => e.message)).toEqual([]);
  return doc.toJS() as Workflow;
}

const rel = (p: string) => relative(ROOT, p);
const step = (job: Job, name: string): Step => {
  const found = job.steps.find((s) => s.name === name || s.id === name);
  if (!found) throw new Error(`no step "${name}" in the job`);
  return found;
};
const uploadPaths = (s: Step) => String(s.with!.path).split('\n').filter(Boolean);

// ─── The expressions the runner would evaluate, for the few forms the workflow uses ───────────────────────────

type Context = Record<string, unknown>;

function lookup(ctx: Context, path: string): string {
  const literal = /^'(.*)'$/.exec(path);
  if (literal) return literal[1]!;
  if (!/^[a-z_]+(\.[A-Za-z0-9_-]+)+$/.test(path))
    throw new Error(`an expression this test cannot read: ${path}`);
  const [root, ...rest] = path.split('.');
  if (!(root! in ctx)) throw new Error(`a context this test does not give: ${path}`);
  let v: unknown = ctx[root!];
  for (const key of rest) v = (v as Record<string, unknown> | undefined)?.[key];
  if (v === undefined || v === null) return '';
  return typeof v === 'string' ? v : JSON.stringify(v);
}

/** `a || b`: the first that is not empty. */
const value = (ctx: Context, expr: string): string =>
  expr
    .split('||')
    .map((e) => lookup(ctx, e.trim()))
    .find((v) => v !== '') ?? '';

/** A value with `${{ … }}` in it, as the runner gives it to a step's environment. */
const interpolate = (ctx: Context, text: string | number): string =>
  String(text).replace(/\$\{\{(.*?)\}\}/g, (_, expr: string) => value(ctx, expr.trim()));

/** A step's or job's `if`: `||` of `&&` of `x == 'v'`, `x != 'v'`, `!cancelled()`; unset is success(). */
function condition(ctx: Context, text: string | undefined): boolean {
  const expr = (text ?? 'success()').replace(/^\$\{\{(.*)\}\}$/s, '$1').trim();
  return expr.split('||').some((any) =>
    any.split('&&').every((term) => {
      const t = term.trim();
      if (t === '!cancelled()' || t === 'success()') return true;
      const m = /^(\S+)\s*(==|!=)\s*(\S+)$/.exec(t);
      if (!m) throw new Error(`a condition this test cannot read: ${t}`);
      return (value(ctx, m[1]!) === value(ctx, m[3]!)) === (m[2] === '==');
    }),
  );
}

interface StepOutcome {
  status: number | null;
  stdout: string;
  stderr: string;
  outputs: Record<string, string>;
  summary: string;
}

/**
 * A step's `run:` as the runner runs it (`bash -e`), with the workflow's, the job's and the step's environment
 * evaluated in `ctx`, GITHUB_OUTPUT, GITHUB_STEP_SUMMARY and RUNNER_TEMP in `temp`, and `extra` on top.
 */
async function runStep(
  wf: Workflow,
  job: Job,
  s: Step,
  ctx: Context,
  temp: string,
  extra: NodeJS.ProcessEnv = {},
  cwd = ROOT,
): Promise<StepOutcome> {
  expect(s.run, `${s.name}: the runner's expressions stay out of the script`).not.toContain('${{');
  mkdirSync(temp, { recursive: true });
  const output = join(temp, 'output');
  const summary = join(temp, 'summary.md');
  writeFileSync(output, '');
  writeFileSync(summary, '');
  const env: NodeJS.ProcessEnv = { ...cleanEnv() };
  for (const vars of [wf.env, job.env ?? {}, s.env ?? {}]) {
    for (const [k, v] of Object.entries(vars)) env[k] = interpolate({ ...ctx, env }, v);
  }
  Object.assign(env, { GITHUB_OUTPUT: output, GITHUB_STEP_SUMMARY: summary, RUNNER_TEMP: temp }, extra);
  const script = join(temp, 'step.sh');
  writeFileSync(script, s.run!);
  const outcome = await runCommand('bash', ['-e', script], env, { cwd });
  const outputs = Object.fromEntries(
    readFileSync(output, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => [l.slice(0, l.indexOf('=')), l.slice(l.indexOf('=') + 1)]),
  );
  return { ...outcome, outputs, summary: readFileSync(summary, 'utf8') };
}

const show = (o: StepOutcome) => `exit ${o.status}\n${o.stdout.slice(-3000)}\n${o.stderr.slice(-3000)}`;

/** The contexts of a run of this workflow (a called one: inputs given; the schedule: none). */
const github = { run_id: '123456789012', run_attempt: '1', repository: 'example/ledger-conformance' };

// ─── Validators ────────────────────────────────────────────────────────────────────────────────────────────────

const validator = (file: string) =>
  runNode([join(ROOT, 'node_modules', '@action-validator', 'cli', 'cli.mjs'), file], cleanEnv());
/** actionlint's command line on files (one run: its WebAssembly takes seconds to load); a finding exits 1. */
const actionlint = (files: string[]) =>
  runNode(
    [
      join(ROOT, 'node_modules', '@tktco', 'node-actionlint', 'bin', 'node-actionlint.js'),
      `{${files.join(',')}}`,
    ],
    { ...cleanEnv(), FORCE_COLOR: '0' },
  );
/** actionlint's findings in a file: `<path>:<line>:<column> <message>`. */
const findings = (output: string, file: string) =>
  output.split('\n').filter((l) => new RegExp(`${basename(file).replace('.', '\\.')}:\\d+:\\d+ `).test(l));

test('action-validator and actionlint accept the workflow, and each rejects a broken copy', async () => {
  // A job without `runs-on`: the schema requires it, and actionlint too.
  const dir = mkdtempSync(join(tmpdir(), 'nightly-workflow-'));
  try {
    const broken = join(dir, 'broken.yml');
    const text = readFileSync(FILE, 'utf8');
    const cut = text.replace(/^( {4}name: side by side\n(?: {4}.*\n)*?) {4}runs-on: ubuntu-latest\n/m, '$1');
    expect(cut, 'the copy is broken').not.toBe(text);
    writeFileSync(broken, cut);
    const [good, bad, lint] = await Promise.all([
      validator(FILE),
      validator(broken),
      actionlint([FILE, broken]),
    ]);
    expect(good.status, good.stdout + good.stderr).toBe(0);
    expect(bad.status, 'action-validator rejects the broken copy').not.toBe(0);
    expect(bad.stderr).toContain('runs-on');
    // Its command line passes when its pattern finds no file: it must have read both.
    expect(lint.stdout).toContain('Checking 2 workflow file(s)');
    expect(findings(lint.stdout, FILE), 'actionlint on nightly.yml').toEqual([]);
    expect(findings(lint.stdout, broken).join('\n')).toContain(
      '"runs-on" section is missing in job "compare"',
    );
    expect(lint.status).toBe(1);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

// ─── Wiring ───────────────────────────────────────────────────────────────────────────────────────────────────

test.describe('nightly workflow', () => {
  test('runs nightly, on demand and when called; every npm script it runs exists; each job installs with npm ci', () => {
    const wf = load();
    expect(wf.on.schedule?.[0]?.cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(wf.on).toHaveProperty('workflow_dispatch');
    const call = wf.on.workflow_call!;
    expect(Object.keys(call.inputs).sort()).toEqual([
      'harness-ref',
      'harness-repository',
      'shards',
      'targets',
    ]);
    expect(call.inputs.targets!.type).toBe('string');
    expect(call.inputs.shards!.type).toBe('number');
    // Every secret optional: the participants' are environment secrets, the webhook is a choice.
    for (const [name, secret] of Object.entries(call.secrets)) expect(secret.required, name).toBe(false);
    expect(Object.keys(call.secrets).sort()).toEqual(
      ['CONFORMANCE_WEBHOOK_URL', 'HARNESS_TOKEN', ...SECRETS].sort(),
    );
    const scripts = Object.keys(
      (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
        .scripts,
    );
    for (const [name, job] of Object.entries(wf.jobs)) {
      const runs = job.steps.map((s) => s.run ?? '').join('\n');
      expect(runs, `${name}: npm ci`).toMatch(/^npm ci\b/m);
      for (const [, script] of runs.matchAll(/\bnpm run (\S+)/g)) {
        expect(scripts, `${name}: npm run ${script}`).toContain(script);
      }
      for (const [, file] of runs.matchAll(/node --require tsx\/cjs (\S+)/g)) {
        expect(existsSync(join(ROOT, file!)), `${name}: ${file}`).toBe(true);
      }
      // Called from another repository, the checkout must be this harness, not the caller's repository.
      const checkout = job.steps.find((s) => s.uses?.startsWith('actions/checkout@'))!;
      expect(checkout.with, name).toEqual({
        repository: '${{ env.HARNESS_REPOSITORY }}',
        ref: '${{ env.HARNESS_REF }}',
        token: '${{ secrets.HARNESS_TOKEN || github.token }}',
        // No token left in .git/config for the harness's own steps to read.
        'persist-credentials': false,
      });
    }
    expect(wf.env.HARNESS_REPOSITORY).toBe('${{ inputs.harness-repository || github.repository }}');
    expect(step(wf.jobs.shard, 'Conformance, shard ${{ matrix.shard }}').run).toMatch(
      /npm run conformance -- "--shard=\$SHARD\/\$SHARD_TOTAL"/,
    );
    expect(step(wf.jobs.merge, 'merge').run).toMatch(/npm run merge\b/);
  });

  test('targets × shards come from the plan: the inputs, or the defaults on the schedule', async () => {
    const wf = load();
    expect(wf.jobs.shard.strategy!.matrix.include).toBe('${{ fromJSON(needs.plan.outputs.shards) }}');
    expect(wf.jobs.merge.strategy!.matrix.include).toBe('${{ fromJSON(needs.plan.outputs.targets) }}');
    for (const job of [wf.jobs.shard, wf.jobs.merge])
      expect(job.environment).toBe('${{ matrix.environment }}');
    expect(wf.jobs.shard.needs).toBe('plan');
    expect(wf.jobs.merge.needs).toEqual(['plan', 'shard']);
    expect(wf.jobs.compare.needs).toEqual(['plan', 'merge']);
    for (const job of [wf.jobs.merge, wf.jobs.compare]) {
      expect(job.if).toBe("${{ !cancelled() && needs.plan.result == 'success' }}");
    }
    const plan = step(wf.jobs.plan, 'plan');
    const temp = mkdtempSync(join(tmpdir(), 'nightly-plan-'));
    try {
      // The schedule: no inputs, today's targets and three shards.
      const scheduled = await runStep(wf, wf.jobs.plan, plan, { github, inputs: {} }, join(temp, 'a'));
      expect(scheduled.status, show(scheduled)).toBe(0);
      const targets = JSON.parse(scheduled.outputs.targets!) as Record<string, unknown>[];
      expect(targets).toEqual([
        { target: 'sandbox', environment: '', embedded: true },
        { target: 'staging', environment: 'conformance-staging', embedded: false },
      ]);
      expect(scheduled.outputs.total).toBe('3');
      expect(scheduled.outputs.names).toBe('sandbox staging');
      const shards = JSON.parse(scheduled.outputs.shards!) as { target: string; shard: number }[];
      expect(shards.map((s) => `${s.target}/${s.shard}`)).toEqual([
        'sandbox/1',
        'sandbox/2',
        'sandbox/3',
        'staging/1',
        'staging/2',
        'staging/3',
      ]);
      // Called with its own targets and shards.
      const called = await runStep(
        wf,
        wf.jobs.plan,
        plan,
        { github, inputs: { targets: '[{"target":"qa","environment":"conformance-qa"}]', shards: 2 } },
        join(temp, 'b'),
      );
      expect(called.status, show(called)).toBe(0);
      expect(JSON.parse(called.outputs.shards!)).toEqual([
        { target: 'qa', environment: 'conformance-qa', embedded: false, shard: 1 },
        { target: 'qa', environment: 'conformance-qa', embedded: false, shard: 2 },
      ]);
      // A wrong input: one line naming it, exit 2, no output.
      const wrong = await runStep(
        wf,
        wf.jobs.plan,
        plan,
        { github, inputs: { targets: '[{"target":"qa","enviroment":"conformance-qa"}]' } },
        join(temp, 'c'),
      );
      expect(wrong.status).toBe(2);
      expect(wrong.stderr.trim()).toBe(
        'nightly-plan: the targets input, entry 1 has "enviroment": a target has only target, environment and embedded',
      );
      expect(wrong.outputs).toEqual({});
    } finally {
      rmSync(temp, { recursive: true, force: true });
    }
    // The run id every shard shares, at its longest (a 12-digit run id, attempt 99), still takes -s<n>.
    const runId = wf.env
      .LEDGER_RUN_ID!.replace('${{ github.run_id }}', '9'.repeat(12))
      .replace('${{ github.run_attempt }}', '99');
    expect(runId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(() => nightlyPlan('[{"target":"a"}]', '128', runId)).not.toThrow();
    expect(() => nightlyPlan('[{"target":"a"}]', '3', 'x'.repeat(38))).toThrow(/too long for a sharded run/);
  });

  test("settings: .env.example's names, secrets from GitHub secrets, the same for shards and merges, never printed", () => {
    const wf = load();
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const env = wf.jobs.shard.env!;
    expect(wf.jobs.merge.env).toEqual(env);
    for (const [name, value] of Object.entries(env)) {
      expect(example, `${name} is a setting of .env.example`).toMatch(new RegExp(`^# ${name}=`, 'm'));
      const from = SECRETS.includes(name) ? 'secrets' : 'vars';
      expect(value, name).toBe(`\${{ ${from}.${name} }}`);
    }
    for (const name of SECRETS) expect(env, `${name} is passed`).toHaveProperty(name);
    // The reports stay where the upload steps look: nothing moves them.
    expect(JSON.stringify(wf)).not.toContain('LEDGER_REPORTS_DIR');
    // The webhook reaches its job as a variable (a step's `if` cannot read secrets), and only that job.
    expect(wf.jobs.compare.env).toEqual({
      CONFORMANCE_WEBHOOK_URL: '${{ secrets.CONFORMANCE_WEBHOOK_URL }}',
    });
    for (const job of Object.values(wf.jobs)) {
      for (const s of job.steps) {
        const run = s.run ?? '';
        // Secrets reach a step only through the environment, and no line prints one.
        expect(run, s.name).not.toContain('secrets.');
        for (const line of run
          .split('\n')
          .filter((l) => /\b(echo|printf|cat|env|printenv|set -x)\b/.test(l))) {
          for (const name of [...SECRETS, 'CONFORMANCE_WEBHOOK_URL']) {
            expect(line, `${s.name}: ${line}`).not.toContain(`$${name}`);
          }
        }
        expect(run, s.name).not.toMatch(/\bset -x\b|\bprintenv\b|^\s*env\s*$/m);
      }
    }
  });

  test('artifacts, history and report paths are those the scripts write', () => {
    const wf = load();
    const paths = reportPaths(join(ROOT, 'reports'));
    const upload = wf.jobs.shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(uploadPaths(upload)).toEqual(['reports/blob/', 'reports/shards/']);
    expect(upload.with!.name).toBe('shard-${{ matrix.target }}-${{ matrix.shard }}');
    const download = wf.jobs.merge.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(download.with).toMatchObject({
      pattern: 'shard-${{ matrix.target }}-*',
      path: 'reports',
      'merge-multiple': true,
    });
    // History: restored before the merge, saved after it, same folder and key, per target.
    const merge = wf.jobs.merge.steps;
    const restore = merge.findIndex((s) => s.uses?.startsWith('actions/cache/restore@'));
    const save = merge.findIndex((s) => s.uses?.startsWith('actions/cache/save@'));
    const run = merge.findIndex((s) => /npm run merge/.test(s.run ?? ''));
    expect(restore).toBeGreaterThan(-1);
    expect(restore < run && run < save).toBe(true);
    const historyDir = rel(join(paths.history, '..'));
    expect(merge[restore]!.with!.path).toBe(historyDir);
    expect(merge[save]!.with!.path).toBe(historyDir);
    expect(merge[save]!.with!.key).toBe(merge[restore]!.with!.key);
    expect(String(merge[restore]!.with!.key)).toContain('${{ matrix.target }}');
    expect(String(merge[restore]!.with!['restore-keys'])).toBe('conformance-history-${{ matrix.target }}-');
    // The report, JUnit, the rule matrix and target.json are uploaded per target, and read back by the last job.
    const report = merge.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    for (const p of [paths.output, paths.singleFile, paths.junit, paths.matrix, paths.target]) {
      expect(
        uploadPaths(report).map((u) => u.replace(/\/$/, '')),
        rel(p),
      ).toContain(rel(p));
    }
    expect(report.with!.name).toBe('conformance-report-${{ matrix.target }}');
    const reports = wf.jobs.compare.steps.find((s) => s.uses?.startsWith('actions/download-artifact@'))!;
    expect(reports.with).toEqual({ pattern: 'conformance-report-*', path: 'runs' });
    expect(step(wf.jobs.compare, 'side').run).toContain('runs/conformance-report-$target');
    expect(step(wf.jobs.merge, 'Verdict').env).toEqual({ CODE: '${{ steps.merge.outputs.code }}' });
  });
});

// ─── The steps' shell against a participant that does not answer ──────────────────────────────────────────────

test.describe('a participant that does not answer: the shards upload, the merge says 4', () => {
  test.describe.configure({ mode: 'serial' });
  let wf: Workflow;
  let ws: string;
  let port: number;
  let ctx: Context;
  let shards: { entry: Record<string, unknown>; guard: StepOutcome; run: StepOutcome }[];
  let merged: StepOutcome;

  /** What a runner gives this job: the run's contexts, the matrix leg, the participant's URL as a secret. */
  const contexts = (matrix: Record<string, unknown>): Context => ({ ...ctx, matrix });

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    wf = load();
    ws = mkdtempSync(join(tmpdir(), 'nightly-down-'));
    port = await closedPort();
    // Credentials in the URL: none may reach the line or the summary.
    const secrets = { LEDGER_BASE_URL: `http://qa-user:qa-pass-Z9@127.0.0.1:${port}` };
    const plan = await runStep(
      wf,
      wf.jobs.plan,
      step(wf.jobs.plan, 'plan'),
      { github, inputs: { targets: '[{"target":"down","environment":"conformance-down"}]', shards: 2 } },
      join(ws, 'temp', 'plan'),
    );
    expect(plan.status, show(plan)).toBe(0);
    ctx = { github, inputs: {}, secrets, vars: {}, needs: { plan: { outputs: plan.outputs } } };
    const entries = JSON.parse(plan.outputs.shards!) as Record<string, unknown>[];
    // The two shards side by side, in one workspace (CI runs them on two machines): a few seconds each.
    shards = await Promise.all(
      entries.map(async (entry) => {
        const temp = join(ws, 'temp', `shard-${String(entry.shard)}`);
        const reports = { LEDGER_REPORTS_DIR: join(ws, 'reports') };
        const inShard = (name: string) =>
          runStep(wf, wf.jobs.shard, step(wf.jobs.shard, name), contexts(entry), temp, reports);
        const guard = await inShard('The target is what the matrix says');
        const run = await inShard('Conformance, shard ${{ matrix.shard }}');
        return { entry, guard, run };
      }),
    );
    merged = await runStep(
      wf,
      wf.jobs.merge,
      step(wf.jobs.merge, 'merge'),
      contexts({ target: 'down', environment: 'conformance-down', embedded: false }),
      join(ws, 'temp', 'merge'),
      { LEDGER_REPORTS_DIR: join(ws, 'reports') },
    );
  });
  test.afterAll(() => ws && rmSync(ws, { recursive: true, force: true }));

  test('each shard step ends so that its upload runs, and the upload finds what the shard wrote', () => {
    const upload = wf.jobs.shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if, 'the upload runs after a step that succeeded').toBeUndefined();
    expect(upload.with!['if-no-files-found']).toBe('error');
    for (const { entry, guard, run } of shards) {
      expect(guard.status, show(guard)).toBe(0);
      expect(run.status, show(run)).toBe(0);
      expect(run.stdout).toContain(
        `::warning title=down did not answer::shard ${String(entry.shard)}/2 could not judge the participant`,
      );
      const name = `${String(entry.shard)}-of-2`;
      for (const p of uploadPaths(upload)) expect(existsSync(join(ws, p)), p).toBe(true);
      expect(existsSync(join(ws, 'reports', 'blob', `shard-${name}.zip`))).toBe(true);
      const meta = JSON.parse(readFileSync(join(ws, 'reports', 'shards', name, 'shard.json'), 'utf8')) as {
        targetDown?: string;
      };
      expect(meta.targetDown).toMatch(/^target unreachable: the connection was refused/);
    }
  });

  test('the merge step exits 4 with its one line, also in the summary, and no credential', async () => {
    expect(merged.status, show(merged)).toBe(0);
    expect(merged.outputs).toEqual({ code: '4' });
    const line =
      `ledger-conformance: participant http://127.0.0.1:${port} did not answer (the connection was refused ` +
      '(ECONNREFUSED)): every rule is inconclusive; check that it is running and that this machine reaches it';
    expect(merged.stdout.split('\n')).toContain(line);
    expect(merged.stdout).toContain(`::error title=down did not answer::${line}`);
    expect(merged.summary).toBe(`### down: the participant did not answer\n\n${line}\n\n`);
    for (const text of [merged.stdout, merged.stderr, merged.summary])
      expect(text).not.toContain('qa-pass-Z9');
    expect(merged.stdout).not.toContain('merge: shard');

    // What runs after it: the matrix into the summary and the report uploaded (this target's column in the
    // side-by-side), the history not kept; the verdict is the merge's code.
    const after = { ...contexts({ target: 'down' }), steps: { merge: { outputs: merged.outputs } } };
    const merge = wf.jobs.merge;
    expect(condition(after, step(merge, 'Rule matrix in the job summary').if)).toBe(true);
    const report = step(merge, 'Upload the report, JUnit and the rule matrix');
    expect(condition(after, report.if)).toBe(true);
    for (const p of uploadPaths(report)) expect(existsSync(join(ws, p)), p).toBe(true);
    expect(condition(after, step(merge, 'Save the Allure history for the next night').if)).toBe(false);
    const verdict = await runStep(wf, merge, step(merge, 'Verdict'), after, join(ws, 'temp', 'verdict'));
    expect(verdict.status).toBe(4);
  });

  test('a shard that stopped at its preflight left no blob: the merge still says 4, not a missing shard', async () => {
    // The participant answers, its IdP does not: the global setup stops the shard (exit 4) before any test.
    const app = await sandbox();
    try {
      const url = await listen(app);
      const copy = join(ws, 'preflight-stop');
      const reports = { LEDGER_REPORTS_DIR: join(copy, 'reports') };
      const idpDown = {
        ...ctx,
        secrets: { LEDGER_BASE_URL: url, LEDGER_OAUTH_CLIENT_SECRET: 'oauth-client-secret-Q7' },
        vars: {
          LEDGER_AUTH: 'oauth2',
          LEDGER_OAUTH_TOKEN_URL: `http://127.0.0.1:${port}/token`,
          LEDGER_OAUTH_CLIENT_ID: 'qa-runner',
        },
      };
      const entry = shards[1]!.entry;
      const run = await runStep(
        wf,
        wf.jobs.shard,
        step(wf.jobs.shard, 'Conformance, shard ${{ matrix.shard }}'),
        { ...idpDown, matrix: entry },
        join(copy, 'temp-shard'),
        reports,
      );
      expect(run.status, show(run)).toBe(0);
      expect(run.stdout).toContain('::warning title=down did not answer::shard 2/2');
      expect(existsSync(join(copy, 'reports', 'blob')), 'no blob').toBe(false);
      expect(existsSync(join(copy, 'reports', 'shards', '2-of-2', 'target.json'))).toBe(true);
      const o = await runStep(
        wf,
        wf.jobs.merge,
        step(wf.jobs.merge, 'merge'),
        { ...idpDown, matrix: { target: 'down', environment: 'conformance-down', embedded: false } },
        join(copy, 'temp-merge'),
        reports,
      );
      expect(o.outputs, show(o)).toEqual({ code: '4' });
      expect(o.summary).toContain(
        `ledger-conformance: participant ${url} did not answer (the IdP cannot be reached at ` +
          `LEDGER_OAUTH_TOKEN_URL=http://127.0.0.1:${port}/token: ECONNREFUSED; check its host and port and the ` +
          'network route to it): no report of this run (shard 2/2 could not judge it)',
      );
      expect(o.summary).not.toContain('oauth-client-secret-Q7');
      expect(o.stdout).not.toContain('no blob report');
    } finally {
      await app.close();
    }
  });

  test('a wrong setting stops the shard step with 2: its upload does not run', async () => {
    const entry = shards[0]!.entry;
    const o = await runStep(
      wf,
      wf.jobs.shard,
      step(wf.jobs.shard, 'Conformance, shard ${{ matrix.shard }}'),
      { ...contexts(entry), vars: { LEDGER_TIMEOUT_SCALE: 'fast' } },
      join(ws, 'temp', 'wrong'),
      { LEDGER_REPORTS_DIR: join(ws, 'wrong-reports') },
    );
    expect(o.status, show(o)).toBe(2);
    expect(o.stderr).toContain('LEDGER_TIMEOUT_SCALE="fast" is not valid');
  });
});

// ─── The side-by-side and the webhook ─────────────────────────────────────────────────────────────────────────

test('the side-by-side step: every target with a rule matrix to npm run compare, the others named', async () => {
  const wf = load();
  const job = wf.jobs.compare;
  const ws = mkdtempSync(join(tmpdir(), 'nightly-compare-'));
  const receiver = await startReceiver();
  try {
    // As download-artifact leaves them: `a` has its report; `b`'s merge uploaded none.
    const changed = {
      changes: {
        since: { kind: 'previous', generatedAt: '2026-11-25T02:31:00Z' },
        newFailures: [{ rule: 'VET-PAGE-ORDER', before: 'pass', after: 'fail' }],
      },
    };
    mkdirSync(join(ws, 'runs', 'conformance-report-a'), { recursive: true });
    writeFileSync(join(ws, 'runs', 'conformance-report-a', 'conformance.json'), JSON.stringify(changed));
    // `npm` here only records how it is called and writes what compare writes.
    mkdirSync(join(ws, 'bin'));
    writeFileSync(
      join(ws, 'bin', 'npm'),
      '#!/usr/bin/env bash\nprintf "%s\\n" "$*" >> "$NPM_CALLS"\nmkdir -p compare\n' +
        'echo "| rule | a |" > compare/compare.md\necho "<html>" > compare/compare.html\n',
      { mode: 0o755 },
    );
    const ctx = {
      github,
      inputs: {},
      secrets: { CONFORMANCE_WEBHOOK_URL: receiver.url },
      needs: { plan: { outputs: { names: 'a b' } } },
    };
    const side = await runStep(
      wf,
      job,
      step(job, 'side'),
      ctx,
      join(ws, 'temp'),
      { PATH: `${join(ws, 'bin')}:${process.env.PATH}`, NPM_CALLS: join(ws, 'npm-calls') },
      ws,
    );
    expect(side.status, show(side)).toBe(0);
    expect(readFileSync(join(ws, 'npm-calls'), 'utf8')).toBe('run compare -- --out compare runs/a\n');
    expect(side.outputs).toEqual({ dirs: 'runs/a' });
    expect(side.summary).toBe(
      '- **b**: no rule matrix from this run (its job "b report" says why)\n| rule | a |\n',
    );
    const after = { ...ctx, steps: { side: { outputs: side.outputs } } };
    const upload = step(job, 'Upload the side-by-side');
    expect(condition(after, upload.if)).toBe(true);
    for (const p of uploadPaths(upload)) expect(existsSync(join(ws, p)), p).toBe(true);

    // The webhook: no secret, no step; with it, the step's script posts the one message.
    const notify = step(job, 'Tell the webhook what changed');
    expect(condition({ ...after, env: { CONFORMANCE_WEBHOOK_URL: '' } }, notify.if)).toBe(false);
    expect(condition({ ...after, env: { CONFORMANCE_WEBHOOK_URL: receiver.url } }, notify.if)).toBe(true);
    const posted = await runStep(
      wf,
      job,
      notify,
      { ...after, steps: { side: { outputs: { dirs: join(ws, 'runs', 'a') } } } },
      join(ws, 'temp-notify'),
    );
    expect(posted.status, show(posted)).toBe(0);
    expect(receiver.received).toHaveLength(1);
    expect((JSON.parse(receiver.received[0]!.body) as { text: string }).text).toContain(
      '1 new failure: VET-PAGE-ORDER',
    );
  } finally {
    await receiver.close();
    rmSync(ws, { recursive: true, force: true });
  }
});
