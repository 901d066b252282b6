// The nightly workflow's first job (.github/workflows/nightly.yml, "plan"): the targets and the number of shards
// it was given (workflow_call inputs; the workflow's defaults on the schedule and "Run workflow"), checked, and
// written to $GITHUB_OUTPUT as the matrices of the later jobs:
//   targets  [{target, environment, embedded, runner}]          one merge job each
//   shards   [{target, environment, embedded, runner, shard}]   every target × 1..total, one shard job each
//   total    the number of shards (SHARD_TOTAL of the shard jobs)
//   names    the target names, space-separated (the side-by-side job's order)
//   runner   the runs-on input's runner labels, as JSON (the side-by-side job's `runs-on`)
// `runner` is the JSON of the runner labels of the target's shard and report jobs (`runs-on: fromJSON(…)`): the
// target's own "runs-on", else the runs-on input, else ubuntu-latest.
// Input: TARGETS (JSON; blank: DEFAULT_TARGETS), SHARDS (blank or 0: DEFAULT_SHARDS), RUNS_ON, SAVE_BASELINE (a
// baseline name, checked here so that a wrong one stops the night before it runs), LEDGER_RUN_ID.
// A wrong input: one line naming it and the fix, exit 2.
import { appendFileSync } from 'node:fs';
import { BASELINE_NAME } from '../../reporters/run-history';
import { ShardError, shardRunId } from '../shard/shard';
import { EXIT } from '../../core/exit-codes';

export interface NightlyTarget {
  /** The job's name, its artifacts' and history's key: letters, digits, `.`, `_`, `-`. */
  target: string;
  /** The GitHub environment holding the participant's settings ('' for none: the embedded sandbox). */
  environment: string;
  /** The embedded sandbox: no LEDGER_BASE_URL may reach it. */
  embedded: boolean;
  /** The runner labels of its shard and report jobs, as JSON: `"ubuntu-latest"` or `["self-hosted", …]`. */
  runner: string;
}

export interface NightlyPlan {
  targets: NightlyTarget[];
  shards: (NightlyTarget & { shard: number })[];
  total: number;
  /** The runs-on input's runner labels, as JSON: the jobs that read no participant run there too. */
  runner: string;
}

export class PlanError extends Error {}

/** GitHub runs at most 256 jobs of one matrix. */
const MAX_JOBS = 256;
const NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,39}$/;
const EXAMPLE = '[{"target":"staging","environment":"conformance-staging","embedded":false}]';
export const DEFAULT_RUNNER = 'ubuntu-latest';
const LABELS_EXAMPLE = '["self-hosted", "linux", "canton-net"]';

/** Runner labels: one label, or a non-empty list of them; as the JSON `runs-on: fromJSON(…)` takes. */
function runner(value: unknown, where: string): string {
  const list = typeof value === 'string' ? [value] : value;
  const label = (l: unknown) =>
    typeof l === 'string' && l.trim() === l && l.length > 0 && l.length <= 100 && !/[,\n]/.test(l);
  if (!Array.isArray(list) || list.length === 0 || !list.every(label)) {
    throw new PlanError(
      `${where} is not valid: give a runner label like "${DEFAULT_RUNNER}", or a list of labels like ${LABELS_EXAMPLE}`,
    );
  }
  return JSON.stringify(list.length === 1 ? list[0] : list);
}

/** The runs-on input: blank (ubuntu-latest), a bare label, or JSON (a label or a list of labels). */
function runsOnInput(text: string): string {
  const t = text.trim();
  if (t === '') return JSON.stringify(DEFAULT_RUNNER);
  if (!t.startsWith('[') && !t.startsWith('"')) return runner(t, `the runs-on input ${JSON.stringify(t)}`);
  let parsed: unknown;
  try {
    parsed = JSON.parse(t);
  } catch {
    throw new PlanError(`the runs-on input is not JSON: give a label, or a list like ${LABELS_EXAMPLE}`);
  }
  return runner(parsed, `the runs-on input ${t}`);
}

function target(entry: unknown, i: number, defaultRunner: string): NightlyTarget {
  const where = `the targets input, entry ${i + 1}`;
  if (typeof entry !== 'object' || entry === null || Array.isArray(entry)) {
    throw new PlanError(`${where} is not an object: give each target as ${EXAMPLE.slice(1, -1)}`);
  }
  const {
    target,
    environment = '',
    embedded = false,
    'runs-on': runsOn,
    ...rest
  } = entry as Record<string, unknown>;
  const unknown = Object.keys(rest);
  if (unknown.length > 0) {
    throw new PlanError(
      `${where} has ${unknown.map((k) => `"${k}"`).join(', ')}: a target has only target, environment, embedded and runs-on`,
    );
  }
  if (typeof target !== 'string' || !NAME.test(target)) {
    throw new PlanError(
      `${where}: target ${JSON.stringify(target)} is not valid: name it with letters, digits, ".", "_" or "-" (at most 40), e.g. "staging"`,
    );
  }
  if (typeof environment !== 'string') {
    throw new PlanError(`${where}: environment must be the name of a GitHub environment, or "" for none`);
  }
  if (typeof embedded !== 'boolean') {
    throw new PlanError(`${where}: embedded must be true (the embedded sandbox) or false`);
  }
  const labels = runsOn === undefined ? defaultRunner : runner(runsOn, `${where}: "runs-on"`);
  return { target, environment, embedded, runner: labels };
}

export interface PlanOptions {
  /** The runs-on input: the runner labels of every target without its own. */
  runsOn?: string;
  /** The save-baseline input: the name a night's verdicts are saved under. */
  saveBaseline?: string;
}

/** The plan, or PlanError naming the input and the fix. `runId` (LEDGER_RUN_ID) must leave room for -s<n>. */
export function nightlyPlan(
  targetsText: string,
  shardsText: string,
  runId?: string,
  options: PlanOptions = {},
): NightlyPlan {
  const name = options.saveBaseline?.trim() ?? '';
  if (name !== '' && !BASELINE_NAME.test(name)) {
    throw new PlanError(
      `the save-baseline input ${JSON.stringify(name)} is not valid: name the baseline with letters, digits, ".", "_" or "-" (at most 64), e.g. before-3.5`,
    );
  }
  const defaultRunner = runsOnInput(options.runsOn ?? '');
  let parsed: unknown;
  try {
    parsed = JSON.parse(targetsText);
  } catch {
    throw new PlanError(`the targets input is not JSON: give a list like ${EXAMPLE}`);
  }
  if (!Array.isArray(parsed) || parsed.length === 0) {
    throw new PlanError(`the targets input is not a list of targets: give a list like ${EXAMPLE}`);
  }
  const targets = parsed.map((entry, i) => target(entry, i, defaultRunner));
  const names = targets.map((t) => t.target);
  const twice = names.filter((n, i) => names.indexOf(n) !== i);
  if (twice.length > 0) {
    throw new PlanError(`the targets input names ${twice.join(', ')} twice: give each target once`);
  }
  const total = Number(shardsText.trim());
  const most = Math.floor(MAX_JOBS / targets.length);
  if (!Number.isInteger(total) || total < 1 || total > most) {
    throw new PlanError(
      `the shards input ${JSON.stringify(shardsText)} is not valid: give a whole number from 1 to ${most} ` +
        `(${targets.length} target(s) × shards is at most ${MAX_JOBS} jobs)`,
    );
  }
  if (runId) {
    try {
      shardRunId(runId, { current: total, total });
    } catch (e) {
      if (!(e instanceof ShardError)) throw e;
      throw new PlanError(e.message);
    }
  }
  const shards = targets.flatMap((t) => Array.from({ length: total }, (_, i) => ({ ...t, shard: i + 1 })));
  return { targets, shards, total, runner: defaultRunner };
}

if (require.main === module) {
  const env = process.env;
  let plan: NightlyPlan;
  try {
    plan = nightlyPlan(
      env.TARGETS?.trim() || env.DEFAULT_TARGETS || '',
      env.SHARDS?.trim() && env.SHARDS.trim() !== '0' ? env.SHARDS : env.DEFAULT_SHARDS || '',
      env.LEDGER_RUN_ID,
      { runsOn: env.RUNS_ON, saveBaseline: env.SAVE_BASELINE },
    );
  } catch (e) {
    if (!(e instanceof PlanError)) throw e;
    process.stderr.write(`nightly-plan: ${e.message}\n`);
    process.exit(EXIT.badSetting);
  }
  const outputs = {
    targets: JSON.stringify(plan.targets),
    shards: JSON.stringify(plan.shards),
    total: String(plan.total),
    names: plan.targets.map((t) => t.target).join(' '),
    runner: plan.runner,
  };
  if (env.GITHUB_OUTPUT) {
    appendFileSync(
      env.GITHUB_OUTPUT,
      Object.entries(outputs)
        .map(([k, v]) => `${k}=${v}\n`)
        .join(''),
    );
  }
  process.stdout.write(
    `nightly-plan: ${plan.targets.length} target(s) × ${plan.total} shard(s): ` +
      plan.targets
        .map(
          (t) =>
            (t.embedded
              ? `${t.target} (embedded sandbox`
              : `${t.target} (environment ${t.environment || 'none'}`) + `, runs on ${t.runner})`,
        )
        .join(', ') +
      '\n',
  );
}
