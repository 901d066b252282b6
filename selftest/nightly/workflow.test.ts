// The nightly GitHub Actions workflow (.github/workflows/nightly.yml) cannot run here, so it is checked by
// actionlint and by running its steps' shell here as a runner would run it:
// - it passes actionlint (the workflow schema, expressions, contexts, matrices, reusable workflow inputs and
//   secrets), which rejects a broken copy;
// - the plan step stops a wrong input with 2 and one line; the settings step's refusal of a setting in the
//   wrong place names it;
// - called with the inputs of docs/ci.md's example (self-hosted runners, a target with runners of its own), the
//   caller's checkout holding a waiver file and a command template, and a proxy: each reaches the job's
//   environment and resolves, against a participant that does not answer (behind a proxy on a closed port of
//   127.0.0.1); each shard step ends so that its upload runs, with the files the upload names; the merge step
//   exits 4 with its line in the summary, the report is uploaded and the history not kept; the verdict step
//   exits 4; the side-by-side step hands the target with a rule matrix to `npm run compare` and names the other;
// - docs/ci.md's caller example pins a commit of this repository whose workflow takes every input it gives.
import { spawnSync } from 'node:child_process';
import {
  copyFileSync,
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join, relative } from 'node:path';
import { expect, test } from '../support/test';
import { parse as parseYaml, parseDocument } from 'yaml';
import { nightlyEnv, NightlyEnvError } from '../../scripts/nightly/env';
import { nightlyPlan } from '../../scripts/nightly/plan';
import { cleanEnv, ROOT, runCommand, runNode } from '../support/child-run';
import { listen } from '../support/harness-kit';
import { withSandbox } from '../support/sandbox-kit';
import { closedPort } from '../support/webhook-receiver';
import { EXIT } from '../../core/exit-codes';
import { withTempDir } from '../support/temp-dir';

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
  env?: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { workflow_call?: { inputs: Record<string, unknown> } };
  env: Record<string, string>;
  jobs: { plan: Job; shard: Job; merge: Job; compare: Job };
}

function load(text = readFileSync(FILE, 'utf8')): Workflow {
  const doc = parseDocument(text);
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  expect(doc.warnings.map((e) => e.message)).toEqual([]);
  return doc.toJS() as Workflow;
}

interface CallerJob {
  uses: string;
  with: Record<string, string | number>;
  secrets: unknown;
}
/** The examples of a caller's workflow (docs/ci.md first, then the README): each YAML block calling this one. */
function callerExamples(): { file: string; yaml: string; job: CallerJob }[] {
  return ['docs/ci.md', 'README.md'].flatMap((file) =>
    [...readFileSync(join(ROOT, file), 'utf8').matchAll(/```yaml\n([\s\S]*?)```/g)]
      .map((m) => m[1]!)
      .filter((yaml) => /^ +uses: \S+\/\.github\/workflows\/nightly\.yml@/m.test(yaml))
      .map((yaml) => {
        const jobs = (parseYaml(yaml) as { jobs: Record<string, CallerJob> }).jobs;
        return { file, yaml, job: Object.values(jobs)[0]! };
      }),
  );
}
/** `owner/name` and the commit of an example's `uses:`, or undefined when it pins no commit. */
const pin = (job: CallerJob) => {
  const m = /^([^/]+\/[^/]+)\/\.github\/workflows\/nightly\.yml@([0-9a-f]{40})$/.exec(job.uses);
  return m ? { repository: m[1]!, commit: m[2]! } : undefined;
};
const git = (args: string[]) => spawnSync('git', args, { cwd: ROOT, encoding: 'utf8' });
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
  // toJSON(x) of a context value, as the runner gives it.
  const call = /^toJSON\((.+)\)$/.exec(path);
  if (call) return JSON.stringify(ctx[call[1]!.trim()] ?? {}, null, 2);
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

/** A step's `if`: `||` of `&&` of `x == 'v'`, `x != 'v'`. */
function condition(ctx: Context, text: string | undefined): boolean {
  const expr = String(text);
  return expr.split('||').some((any) =>
    any.split('&&').every((term) => {
      const t = term.trim();
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
  /** What the step wrote to $GITHUB_ENV: the environment of the job's later steps. */
  env: Record<string, string>;
}

/** `$GITHUB_ENV` or `$GITHUB_OUTPUT` as the runner reads it: `k=v` lines and `k<<delimiter` blocks. */
function readCommandFile(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  const lines = readFileSync(file, 'utf8').split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const block = /^([^=<]+)<<(.+)$/.exec(line);
    if (block) {
      const end = lines.indexOf(block[2]!, i + 1);
      out[block[1]!] = lines.slice(i + 1, end).join('\n');
      i = end;
    } else if (line.includes('=')) out[line.slice(0, line.indexOf('='))] = line.slice(line.indexOf('=') + 1);
  }
  return out;
}

/**
 * A step's `run:` as the runner runs it (`bash -e`), with the workflow's, the job's and the step's environment
 * evaluated in `ctx`, the runner's GITHUB_REPOSITORY and GITHUB_WORKSPACE (`ctx.github`), GITHUB_OUTPUT,
 * GITHUB_ENV, GITHUB_STEP_SUMMARY and RUNNER_TEMP in `temp`, and `extra` on top (what earlier steps of the job
 * wrote to GITHUB_ENV).
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
  const githubEnv = join(temp, 'env');
  const summary = join(temp, 'summary.md');
  for (const f of [output, githubEnv, summary]) writeFileSync(f, '');
  const env: NodeJS.ProcessEnv = { ...cleanEnv() };
  for (const vars of [wf.env, job.env ?? {}, s.env ?? {}]) {
    for (const [k, v] of Object.entries(vars)) env[k] = interpolate({ ...ctx, env }, v);
  }
  const runner = {
    GITHUB_REPOSITORY: lookup(ctx, 'github.repository'),
    GITHUB_WORKSPACE: lookup(ctx, 'github.workspace') || cwd,
  };
  const files = {
    GITHUB_OUTPUT: output,
    GITHUB_ENV: githubEnv,
    GITHUB_STEP_SUMMARY: summary,
    RUNNER_TEMP: temp,
  };
  Object.assign(env, runner, files, extra);
  const script = join(temp, 'step.sh');
  writeFileSync(script, s.run!);
  const outcome = await runCommand('bash', ['-e', script], env, { cwd });
  return {
    ...outcome,
    outputs: readCommandFile(output),
    env: readCommandFile(githubEnv),
    summary: readFileSync(summary, 'utf8'),
  };
}

/** The scripts of package.json: a step's stand-in `npm` records its calls, each must name one. */
const SCRIPTS = Object.keys(
  (JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { scripts: Record<string, string> })
    .scripts,
);
const expectScripts = (calls: string) => {
  for (const [, script] of calls.matchAll(/^run (\S+)/gm))
    expect(SCRIPTS, `npm run ${script}`).toContain(script);
};

const show = (o: StepOutcome) => `exit ${o.status}\n${o.stdout.slice(-3000)}\n${o.stderr.slice(-3000)}`;

/** The contexts of a run of this workflow (a called one: inputs given; the schedule: none). */
const github = { run_id: '123456789012', run_attempt: '1', repository: 'example/ledger-conformance' };

// ─── Validators ────────────────────────────────────────────────────────────────────────────────────────────────

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

test('actionlint accepts the workflow and the caller example, and rejects a broken copy', async () => {
  // A job without `runs-on`: the workflow schema requires it.
  await withTempDir('nightly-workflow-', async (dir) => {
    const broken = join(dir, 'broken.yml');
    const text = readFileSync(FILE, 'utf8');
    const cut = text.replace(/^( {4}name: side by side\n(?: {4}.*\n)*?) {4}runs-on: .*\n/m, '$1');
    expect(cut, 'the copy is broken').not.toBe(text);
    writeFileSync(broken, cut);
    // The caller example of docs/ci.md, as a workflow of the caller's repository.
    const caller = join(dir, 'caller.yml');
    writeFileSync(caller, callerExamples()[0]!.yaml);
    const lint = await actionlint([FILE, broken, caller]);
    // Its command line passes when its pattern finds no file: it must have read both.
    expect(lint.stdout).toContain('Checking 3 workflow file(s)');
    expect(findings(lint.stdout, FILE), 'actionlint on nightly.yml').toEqual([]);
    expect(findings(lint.stdout, caller), "actionlint on docs/ci.md's caller example").toEqual([]);
    expect(findings(lint.stdout, broken).join('\n')).toContain(
      '"runs-on" section is missing in job "compare"',
    );
    expect(lint.status).toBe(1);
  });
});

// ─── The plan and the settings: the scripts the first steps run ───────────────────────────────────────────────

test('the plan step: a wrong input stops it with 2 and one line', async () => {
  const wf = load();
  await withTempDir('nightly-plan-', async (temp) => {
    const wrong = await runStep(
      wf,
      wf.jobs.plan,
      step(wf.jobs.plan, 'plan'),
      { github, inputs: { targets: '[{"target":"qa","enviroment":"conformance-qa"}]' } },
      temp,
    );
    expect(wrong.status).toBe(EXIT.badSetting);
    expect(wrong.stderr.trim()).toBe(
      'nightly-plan: the targets input, entry 1 has "enviroment": a target has only target, environment, embedded and runs-on',
    );
    expect(wrong.outputs).toEqual({});
  });
  // A wrong runs-on input is refused the same way.
  expect(() => nightlyPlan('[{"target":"a"}]', '1', undefined, { runsOn: '[]' })).toThrow(
    'the runs-on input [] is not valid: give a runner label like "ubuntu-latest", or a list of labels like ["self-hosted", "linux", "canton-net"]',
  );
  // A baseline name that could not be saved stops the night before any shard runs.
  expect(() => nightlyPlan('[{"target":"a"}]', '1', undefined, { saveBaseline: 'before 3.5' })).toThrow(
    'the save-baseline input "before 3.5" is not valid: name the baseline with letters, digits, ".", "_" or "-" (at most 64), e.g. before-3.5',
  );
  // The run id every shard shares, at its longest (a 12-digit run id, attempt 99), still takes -s<n>.
  const runId = wf.env
    .LEDGER_RUN_ID!.replace('${{ github.run_id }}', '9'.repeat(12))
    .replace('${{ github.run_attempt }}', '99');
  expect(runId).toMatch(/^[A-Za-z0-9_-]+$/);
  expect(() => nightlyPlan('[{"target":"a"}]', '128', runId)).not.toThrow();
  expect(() => nightlyPlan('[{"target":"a"}]', '3', 'x'.repeat(38))).toThrow(/too long for a sharded run/);
});

test('the settings step: names in any case, a URL from a secret; a setting in the wrong place stops it', () => {
  // A non-secret setting may be a secret (a URL with credentials); names are GitHub's, whatever their case.
  expect(nightlyEnv({ LEDGER_BASE_URL: 'http://u:p@h' }, { ledger_tags: '@readonly' }, '/c').env).toEqual({
    LEDGER_BASE_URL: 'http://u:p@h',
    LEDGER_TAGS: '@readonly',
    LEDGER_CALLER_DIR: '/c',
  });
  // A setting in the wrong place stops the job with one line naming it.
  const wrong: [Record<string, string>, Record<string, string>, string][] = [
    [{}, { LEDGER_TOKEN: 't' }, 'LEDGER_TOKEN is set as a variable, and its value is a secret'],
    [{ LEDGER_TAGS: 'a' }, { LEDGER_TAGS: 'b' }, 'LEDGER_TAGS is set both as a secret and as a variable'],
    [{}, { LEDGER_RUN_ID: 'x' }, 'LEDGER_RUN_ID is set as a variable, but the workflow sets it'],
    [
      {},
      { LEDGER_REPORTS_DIR: 'x' },
      "LEDGER_REPORTS_DIR is set as a variable, but the harness's own runners set it",
    ],
  ];
  for (const [sec, v, message] of wrong) {
    expect(() => nightlyEnv(sec, v, undefined)).toThrow(NightlyEnvError);
    expect(() => nightlyEnv(sec, v, undefined)).toThrow(message);
  }
});

// ─── Called from another repository: its runner, its files, a proxy; the participant does not answer ────────

test.describe("called as docs/ci.md's example calls it, the participant down: its runners, files and proxy reach the jobs, the shards upload, the merge says 4", () => {
  test.describe.configure({ mode: 'serial' });
  const LABELS = ['self-hosted', 'linux', 'canton-net'];
  const PROD_LABELS = ['self-hosted', 'linux', 'canton-prod'];
  let wf: Workflow;
  let ws: string;
  let port: number;
  let ctx: Context;
  let entries: Record<string, unknown>[];
  let settings: { shard: StepOutcome; merge: StepOutcome };
  let shards: { entry: Record<string, unknown>; guard: StepOutcome; run: StepOutcome }[];
  let merged: StepOutcome;

  /** What a runner gives this job: the run's contexts and the matrix leg. */
  const contexts = (matrix: Record<string, unknown>): Context => ({ ...ctx, matrix });
  const target = {
    target: 'qa',
    environment: 'participant-qa',
    embedded: false,
    runner: JSON.stringify(LABELS),
  };

  test.beforeAll(async () => {
    test.setTimeout(180_000);
    wf = load();
    ws = mkdtempSync(join(tmpdir(), 'nightly-called-'));
    // The proxy's port is closed: a participant behind it does not answer, and the harness says which proxy.
    port = await closedPort();
    // The caller's run: its repository, its workspace (the harness's checkout is this folder), the inputs of
    // docs/ci.md's example (two targets, one on runners of its own; its own save-baseline input unset), and the
    // qa environment's secrets and variables, with others around them that are no setting. Only qa's shards run:
    // prod-mirror is the target whose report never comes.
    const example = callerExamples()[0]!.job.with;
    const called = {
      github: { ...github, repository: 'team/participants', workspace: ws },
      inputs: Object.fromEntries(
        Object.entries(example).map(([k, v]) => [k, interpolate({ inputs: {} }, v)]),
      ),
      secrets: {
        // Credentials in both URLs: none may reach a line or the summary.
        LEDGER_BASE_URL: 'http://qa-user:qa-pass-Z9@participant.qa.internal:7575',
        HTTP_PROXY: `http://qa-proxy:proxy-pass-Z9@127.0.0.1:${port}`,
        github_token: 'ghs_not-a-setting',
        DEPLOY_KEY: 'not-a-setting',
      },
      vars: {
        // One worker per shard: every test of a participant that does not answer is inconclusive at once, and
        // each further worker would only load the suite again.
        LEDGER_WORKERS: '1',
        LEDGER_EXPECTATIONS: 'auto,qa/waivers.json',
        LEDGER_COMMAND_TEMPLATE: 'qa/template.json',
        NO_PROXY: '.corp.example',
        TEAM_CHANNEL: 'not-a-setting',
      },
    };
    // The caller's checkout, where its step puts it: a waiver file and a command template of the team's own.
    const checkout = step(wf.jobs.shard, "The calling repository's files");
    const callerDir = join(ws, interpolate({ env: wf.env }, checkout.with!.path as string));
    mkdirSync(join(callerDir, 'qa'), { recursive: true });
    const waiver = {
      rule: 'VER-SEMVER',
      expect: 'fail',
      reason: 'our gateway rewrites it',
      owner: 'qa-team',
    };
    writeFileSync(
      join(callerDir, 'qa', 'waivers.json'),
      JSON.stringify({ name: 'qa', deviations: [waiver] }),
    );
    copyFileSync(join(ROOT, 'core', 'templates', 'canton-ping.json'), join(callerDir, 'qa', 'template.json'));
    const plan = await runStep(
      wf,
      wf.jobs.plan,
      step(wf.jobs.plan, 'plan'),
      called,
      join(ws, 'temp', 'plan'),
    );
    expect(plan.status, show(plan)).toBe(0);
    ctx = { ...called, needs: { plan: { outputs: plan.outputs } } };
    entries = JSON.parse(plan.outputs.shards!) as Record<string, unknown>[];
    const qa = entries.filter((e) => e.target === 'qa');
    const inJob = (job: Job, matrix: Record<string, unknown>, name: string) =>
      runStep(wf, job, step(job, "The target's settings"), contexts(matrix), join(ws, 'temp', name));
    settings = {
      shard: await inJob(wf.jobs.shard, qa[0]!, 'settings-shard'),
      merge: await inJob(wf.jobs.merge, target, 'settings-merge'),
    };
    const reports = { LEDGER_REPORTS_DIR: join(ws, 'reports') };
    // The two shards side by side, in one workspace (CI runs them on two machines): a few seconds each.
    shards = await Promise.all(
      qa.map(async (entry) => {
        const temp = join(ws, 'temp', `shard-${String(entry.shard)}`);
        const inShard = (name: string) =>
          runStep(wf, wf.jobs.shard, step(wf.jobs.shard, name), contexts(entry), temp, {
            ...settings.shard.env,
            ...reports,
          });
        const guard = await inShard('The target is what the matrix says');
        const run = await inShard('Conformance, shard ${{ matrix.shard }}');
        return { entry, guard, run };
      }),
    );
    merged = await runStep(
      wf,
      wf.jobs.merge,
      step(wf.jobs.merge, 'merge'),
      contexts(target),
      join(ws, 'temp', 'merge'),
      {
        ...settings.merge.env,
        ...reports,
      },
    );
  });
  test.afterAll(() => ws && rmSync(ws, { recursive: true, force: true }));

  test("the runner labels, the caller's checkout and every setting reach both jobs' environment", () => {
    // Every shard job runs on the runs-on input's labels, or on its target's own.
    expect(entries.map((e) => `${String(e.target)}/${String(e.shard)}`)).toEqual([
      'qa/1',
      'qa/2',
      'prod-mirror/1',
      'prod-mirror/2',
    ]);
    const runners = entries.map((e) => JSON.parse(String(e.runner)) as unknown);
    expect(runners).toEqual([LABELS, LABELS, PROD_LABELS, PROD_LABELS]);
    // The caller's repository is checked out (not when the harness's own repository runs the workflow).
    const checkout = step(wf.jobs.shard, "The calling repository's files");
    const env = { ...wf.env, HARNESS_REPOSITORY: github.repository };
    expect(condition({ ...ctx, env }, checkout.if)).toBe(true);
    expect(condition({ ...ctx, env, github }, checkout.if)).toBe(false);
    // The settings step: the settings, and only they, into $GITHUB_ENV; names printed, never a value.
    for (const o of [settings.shard, settings.merge]) {
      expect(o.status, show(o)).toBe(0);
      expect(o.env).toEqual({
        LEDGER_BASE_URL: 'http://qa-user:qa-pass-Z9@participant.qa.internal:7575',
        LEDGER_WORKERS: '1',
        HTTP_PROXY: `http://qa-proxy:proxy-pass-Z9@127.0.0.1:${port}`,
        NO_PROXY: '.corp.example',
        LEDGER_EXPECTATIONS: 'auto,qa/waivers.json',
        LEDGER_COMMAND_TEMPLATE: 'qa/template.json',
        LEDGER_CALLER_DIR: join(ws, '.caller'),
      });
      expect(o.stdout).toContain(
        'nightly-env: from variables LEDGER_WORKERS, NO_PROXY, LEDGER_EXPECTATIONS, LEDGER_COMMAND_TEMPLATE;',
      );
      expect(o.stdout).toContain('from secrets LEDGER_BASE_URL, HTTP_PROXY;');
      for (const secret of ['qa-pass-Z9', 'proxy-pass-Z9', 'ghs_not'])
        expect(o.stdout + o.stderr).not.toContain(secret);
    }
  });

  test("each shard resolves the caller's files and goes through the proxy; its upload finds what it wrote", () => {
    const upload = wf.jobs.shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(upload.if, 'the upload runs after a step that succeeded').toBeUndefined();
    expect(upload.with!['if-no-files-found']).toBe('error');
    for (const { entry, guard, run } of shards) {
      expect(guard.status, show(guard)).toBe(0);
      // Not 2: the template and the waiver file resolved in the caller's checkout.
      expect(run.status, show(run)).toBe(0);
      expect(run.stdout).toContain(
        `::warning title=qa did not answer::shard ${String(entry.shard)}/2 could not judge the participant`,
      );
      const name = `${String(entry.shard)}-of-2`;
      for (const p of uploadPaths(upload)) expect(existsSync(join(ws, p)), p).toBe(true);
      expect(existsSync(join(ws, 'reports', 'blob', `shard-${name}.zip`))).toBe(true);
      const meta = JSON.parse(readFileSync(join(ws, 'reports', 'shards', name, 'shard.json'), 'utf8')) as {
        targetDown?: string;
      };
      expect(meta.targetDown).toMatch(
        /^target unreachable: the connection was refused .*connecting to the proxy \(through the proxy in HTTP_PROXY\)/,
      );
      const info = JSON.parse(readFileSync(join(ws, 'reports', 'shards', name, 'target.json'), 'utf8')) as {
        expectations: { layers: { from: string; entries: number }[] };
      };
      expect(info.expectations.layers).toEqual([{ name: 'qa', from: 'qa/waivers.json', entries: 1 }]);
      for (const text of [run.stdout, run.stderr]) {
        expect(text).not.toContain('qa-pass-Z9');
        expect(text).not.toContain('proxy-pass-Z9');
      }
    }
  });

  test('the merge step exits 4 with its one line, also in the summary, and no credential', async () => {
    expect(merged.status, show(merged)).toBe(0);
    expect(merged.outputs).toEqual({ code: '4' });
    const line =
      'ledger-conformance: participant http://participant.qa.internal:7575 did not answer (the connection was ' +
      'refused (ECONNREFUSED), connecting to the proxy (through the proxy in HTTP_PROXY)): every rule is ' +
      'inconclusive; check that it is running and that this machine reaches it';
    expect(merged.stdout.split('\n')).toContain(line);
    expect(merged.stdout).toContain(`::error title=qa did not answer::${line}`);
    expect(merged.summary).toBe(`### qa: the participant did not answer\n\n${line}\n\n`);
    for (const text of [merged.stdout, merged.stderr, merged.summary]) {
      expect(text).not.toContain('qa-pass-Z9');
      expect(text).not.toContain('proxy-pass-Z9');
    }
    expect(merged.stdout).not.toContain('merge: shard');

    // What runs after it: the matrix into the summary and the report uploaded (this target's column in the
    // side-by-side), no baseline and the history not kept; the verdict is the merge's code.
    const after = { ...contexts(target), steps: { merge: { outputs: merged.outputs } } };
    const merge = wf.jobs.merge;
    expect(condition(after, step(merge, 'Rule matrix in the job summary').if)).toBe(true);
    const report = step(merge, 'Upload the report, JUnit and the rule matrix');
    expect(condition(after, report.if)).toBe(true);
    for (const p of uploadPaths(report)) expect(existsSync(join(ws, p)), p).toBe(true);
    expect(condition(after, step(merge, 'Save a named baseline').if)).toBe(false);
    expect(condition(after, step(merge, 'Save the Allure history for the next night').if)).toBe(false);
    const verdict = await runStep(wf, merge, step(merge, 'Verdict'), after, join(ws, 'temp', 'verdict'));
    expect(verdict.status).toBe(EXIT.targetDown);
  });

  test('the side-by-side step: the target with a rule matrix to npm run compare, the one without named', async () => {
    // As download-artifact leaves them: qa's report, as its merge uploaded it; prod-mirror's never came.
    const upload = step(wf.jobs.merge, 'Upload the report, JUnit and the rule matrix');
    for (const p of uploadPaths(upload))
      cpSync(join(ws, p), join(ws, 'runs', 'conformance-report-qa', relative('reports', p)), {
        recursive: true,
      });
    // `npm` here only records how it is called and writes what compare writes.
    mkdirSync(join(ws, 'bin'));
    writeFileSync(
      join(ws, 'bin', 'npm'),
      '#!/usr/bin/env bash\nprintf "%s\\n" "$*" >> "$NPM_CALLS"\nmkdir -p compare\n' +
        'echo "| rule | qa |" > compare/compare.md\necho "<html>" > compare/compare.html\n',
      { mode: 0o755 },
    );
    const job = wf.jobs.compare;
    const calls = join(ws, 'npm-calls');
    const extra = { PATH: `${join(ws, 'bin')}:${process.env.PATH}`, NPM_CALLS: calls };
    const side = await runStep(wf, job, step(job, 'side'), ctx, join(ws, 'temp', 'side'), extra, ws);
    expect(side.status, show(side)).toBe(0);
    expect(readFileSync(calls, 'utf8')).toBe('run compare -- --out compare runs/qa\n');
    expectScripts(readFileSync(calls, 'utf8'));
    expect(side.outputs).toEqual({ dirs: 'runs/qa' });
    expect(side.summary).toBe(
      '- **prod-mirror**: no rule matrix from this run (its job "prod-mirror report" says why)\n| rule | qa |\n',
    );
    const after = { ...ctx, steps: { side: { outputs: side.outputs } } };
    const compared = step(job, 'Upload the side-by-side');
    expect(condition(after, compared.if)).toBe(true);
    for (const p of uploadPaths(compared)) expect(existsSync(join(ws, p)), p).toBe(true);
  });

  test('a shard that stopped at its preflight left no blob: the merge still says 4, not a missing shard', async () => {
    // The participant answers, its IdP does not: the global setup stops the shard (exit 4) before any test.
    await withSandbox({}, async (app) => {
      const url = await listen(app);
      const copy = join(ws, 'preflight-stop');
      // The settings step's work, done here: its script is run above.
      const jobEnv = {
        ...nightlyEnv(
          { LEDGER_BASE_URL: url, LEDGER_OAUTH_CLIENT_SECRET: 'oauth-client-secret-Q7' },
          {
            LEDGER_AUTH: 'oauth2',
            LEDGER_OAUTH_TOKEN_URL: `http://127.0.0.1:${port}/token`,
            LEDGER_OAUTH_CLIENT_ID: 'qa-runner',
          },
          undefined,
        ).env,
        LEDGER_REPORTS_DIR: join(copy, 'reports'),
      };
      const entry = entries[1]!;
      const run = await runStep(
        wf,
        wf.jobs.shard,
        step(wf.jobs.shard, 'Conformance, shard ${{ matrix.shard }}'),
        contexts(entry),
        join(copy, 'temp-shard'),
        jobEnv,
      );
      expect(run.status, show(run)).toBe(0);
      expect(run.stdout).toContain('::warning title=qa did not answer::shard 2/2');
      expect(existsSync(join(copy, 'reports', 'blob')), 'no blob').toBe(false);
      expect(existsSync(join(copy, 'reports', 'shards', '2-of-2', 'target.json'))).toBe(true);
      const o = await runStep(
        wf,
        wf.jobs.merge,
        step(wf.jobs.merge, 'merge'),
        contexts(target),
        join(copy, 'temp-merge'),
        jobEnv,
      );
      expect(o.outputs, show(o)).toEqual({ code: '4' });
      expect(o.summary).toContain(
        `ledger-conformance: participant ${url} did not answer (the IdP cannot be reached at ` +
          `LEDGER_OAUTH_TOKEN_URL=http://127.0.0.1:${port}/token: ECONNREFUSED; check its host and port and the ` +
          'network route to it): no report of this run (shard 2/2 could not judge it)',
      );
      expect(o.summary).not.toContain('oauth-client-secret-Q7');
      expect(o.stdout).not.toContain('no blob report');
    });
  });

  test('a path that resolves nowhere stops the shard step with 2 and one line: its upload does not run', async () => {
    const o = await runStep(
      wf,
      wf.jobs.shard,
      step(wf.jobs.shard, 'Conformance, shard ${{ matrix.shard }}'),
      contexts(entries[0]!),
      join(ws, 'temp', 'wrong'),
      {
        ...settings.shard.env,
        LEDGER_COMMAND_TEMPLATE: 'qa/missing.json',
        LEDGER_REPORTS_DIR: join(ws, 'wrong'),
      },
    );
    expect(o.status, show(o)).toBe(EXIT.badSetting);
    const lines = o.stderr.split('\n').filter((l) => l.includes('LEDGER_COMMAND_TEMPLATE'));
    expect(lines).toEqual([
      expect.stringContaining(
        `LEDGER_COMMAND_TEMPLATE="qa/missing.json" is not valid: no such file in ${join(ws, '.caller')} or ${ROOT}: set it to`,
      ),
    ]);
  });
});

// ─── The caller examples ──────────────────────────────────────────────────────────────────────────────────────

test.describe('the caller examples (docs/ci.md, README) work as written', () => {
  test('each pins one commit, in uses and harness-ref alike, and gives only inputs the workflow takes', () => {
    const examples = callerExamples();
    expect(examples.map((e) => e.file)).toEqual(['docs/ci.md', 'README.md']);
    const inputs = Object.keys(load().on.workflow_call!.inputs);
    for (const { file, job } of examples) {
      const pinned = pin(job);
      expect(pinned, `${file}: uses pins a commit (40 hex digits)`).toBeDefined();
      expect(job.with['harness-ref'], file).toBe(pinned!.commit);
      expect(job.with['harness-repository'], file).toBe(pinned!.repository);
      expect(job.secrets, `${file}: every setting reaches the jobs only with secrets: inherit`).toBe(
        'inherit',
      );
      for (const key of Object.keys(job.with)) expect(inputs, `${file}: input ${key}`).toContain(key);
      // The plan takes its targets, shards and runners: self-hosted ones.
      const plan = nightlyPlan(String(job.with.targets), String(job.with.shards ?? 3), undefined, {
        runsOn: String(job.with['runs-on'] ?? ''),
      });
      for (const t of plan.targets)
        expect(JSON.parse(t.runner), `${file}: ${t.target}`).toContain('self-hosted');
    }
    expect(new Set(examples.map((e) => pin(e.job)?.commit)).size, 'one commit for both').toBe(1);
  });

  test("the pinned commit is one of this repository's, and its workflow takes every input the examples give", () => {
    const shallow = git(['rev-parse', '--is-shallow-repository']);
    test.skip(shallow.status !== 0, 'not a git checkout: the pinned commit cannot be looked up');
    test.skip(
      shallow.stdout.trim() === 'true',
      'a shallow clone: its history may not reach the pinned commit',
    );
    for (const { file, job } of callerExamples()) {
      const { commit } = pin(job)!;
      const found = git(['cat-file', '-e', `${commit}^{commit}`]);
      expect(
        found.status,
        `${file}: ${commit} is no commit of this repository (${found.stderr.trim()})`,
      ).toBe(0);
      const then = git(['show', `${commit}:.github/workflows/nightly.yml`]);
      expect(then.status, then.stderr).toBe(0);
      const inputs = Object.keys(load(then.stdout).on.workflow_call!.inputs);
      for (const key of Object.keys(job.with))
        expect(inputs, `${file}: input ${key} at ${commit}`).toContain(key);
    }
  });
});
