// The nightly GitHub Actions workflow (.github/workflows/nightly.yml) cannot run here, so its wiring is checked
// against the project: it parses; every `npm run` names a script of package.json; the shard list matches
// SHARD_TOTAL and the run id leaves room for the shard suffix; shards and merges name the same targets, the
// embedded sandbox among them; every setting is one of .env.example, the run's secrets come from GitHub
// secrets and no step prints one; artifacts, history cache and report paths are the ones the scripts write.
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { test, expect } from '@playwright/test';
import { parseDocument } from 'yaml';
import { reportPaths } from '../scripts/allure-report';
import { shardRunId } from '../scripts/shard';

const ROOT = join(__dirname, '..');
const FILE = join(ROOT, '.github', 'workflows', 'nightly.yml');

interface Step {
  name?: string;
  uses?: string;
  run?: string;
  if?: string;
  with?: Record<string, string | boolean | number>;
  env?: Record<string, string>;
}
interface Job {
  needs?: string | string[];
  if?: string;
  environment?: string;
  strategy?: { matrix: { target: string[]; shard?: number[]; include: Record<string, unknown>[] } };
  env: Record<string, string>;
  steps: Step[];
}
interface Workflow {
  on: { schedule?: { cron: string }[]; workflow_dispatch?: unknown };
  env: Record<string, string | number>;
  jobs: { shard: Job; merge: Job };
}

/** The secrets a run holds (scripts/secret-gate.ts runSecrets) and the URL, which may carry credentials. */
const SECRETS = [
  'LEDGER_TOKEN',
  'LEDGER_HMAC_SECRET',
  'LEDGER_JWT_PRIVATE_KEY',
  'LEDGER_OAUTH_CLIENT_SECRET',
  'LEDGER_BASE_URL',
];

function load(): Workflow {
  const doc = parseDocument(readFileSync(FILE, 'utf8'));
  expect(doc.errors.map((e) => e.message)).toEqual([]);
  expect(doc.warnings.map((e) => e.message)).toEqual([]);
  return doc.toJS() as Workflow;
}

const rel = (p: string) => relative(ROOT, p);

test.describe('nightly workflow', () => {
  test('parses; runs nightly and on demand; every npm script it runs exists; each job installs with npm ci', () => {
    const wf = load();
    expect(wf.on.schedule?.[0]?.cron).toMatch(/^\S+ \S+ \* \* \*$/);
    expect(wf.on).toHaveProperty('workflow_dispatch');
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
    }
    expect(wf.jobs.shard.steps.some((s) => /npm run conformance -- --shard=/.test(s.run ?? ''))).toBe(true);
    expect(wf.jobs.merge.steps.some((s) => /npm run merge\b/.test(s.run ?? ''))).toBe(true);
  });

  test('shards × targets: the shard list is 1..SHARD_TOTAL; merges name the same targets and environments', () => {
    const wf = load();
    const total = Number(wf.env.SHARD_TOTAL);
    const shard = wf.jobs.shard.strategy!.matrix;
    expect(shard.shard).toEqual(Array.from({ length: total }, (_, i) => i + 1));
    const merge = wf.jobs.merge.strategy!.matrix;
    expect(merge.target).toEqual(shard.target);
    const envOf = (m: typeof shard) =>
      Object.fromEntries(m.include.map((i) => [String(i.target), String(i.environment)]));
    expect(envOf(merge)).toEqual(envOf(shard));
    for (const t of shard.target)
      expect(envOf(shard), `target ${t} has an environment entry`).toHaveProperty(t);
    // The embedded sandbox is a target, and needs no environment (no secrets).
    const embedded = shard.include.filter((i) => i.embedded === true);
    expect(embedded).toEqual([{ target: 'sandbox', environment: '', embedded: true }]);
    expect(wf.jobs.shard.environment).toBe('${{ matrix.environment }}');
    expect(wf.jobs.merge.environment).toBe('${{ matrix.environment }}');
    expect(wf.jobs.merge.needs).toBe('shard');
    expect(wf.jobs.merge.if).toContain('!cancelled()');
    // The run id every shard shares, at its longest (a 12-digit run id, attempt 99), still takes -s<n>.
    const runId = String(wf.env.LEDGER_RUN_ID)
      .replace('${{ github.run_id }}', '9'.repeat(12))
      .replace('${{ github.run_attempt }}', '99');
    expect(runId).toMatch(/^[A-Za-z0-9_-]+$/);
    expect(() => shardRunId(runId, { current: total, total })).not.toThrow();
  });

  test("settings: .env.example's names, secrets from GitHub secrets, the same for shards and merges, never printed", () => {
    const wf = load();
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const env = wf.jobs.shard.env;
    expect(wf.jobs.merge.env).toEqual(env);
    for (const [name, value] of Object.entries(env)) {
      expect(example, `${name} is a setting of .env.example`).toMatch(new RegExp(`^# ${name}=`, 'm'));
      const from = SECRETS.includes(name) ? 'secrets' : 'vars';
      expect(value, name).toBe(`\${{ ${from}.${name} }}`);
    }
    for (const name of SECRETS) expect(env, `${name} is passed`).toHaveProperty(name);
    for (const job of Object.values(wf.jobs)) {
      for (const step of job.steps) {
        const run = step.run ?? '';
        // Secrets reach a step only through the environment, and no line prints one.
        expect(run, step.name).not.toContain('secrets.');
        for (const line of run
          .split('\n')
          .filter((l) => /\b(echo|printf|cat|env|printenv|set -x)\b/.test(l))) {
          for (const name of SECRETS) expect(line, `${step.name}: ${line}`).not.toContain(`$${name}`);
        }
        expect(run, step.name).not.toMatch(/\bset -x\b|\bprintenv\b|^\s*env\s*$/m);
      }
    }
  });

  test('artifacts, history and report paths are those the scripts write', () => {
    const wf = load();
    const paths = reportPaths(join(ROOT, 'reports'));
    const upload = wf.jobs.shard.steps.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    expect(String(upload.with!.path).split('\n').filter(Boolean)).toEqual([
      'reports/blob/',
      'reports/shards/',
    ]);
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
    // The report, JUnit and the rule matrix are uploaded; not after a secret-gate failure.
    const report = merge.find((s) => s.uses?.startsWith('actions/upload-artifact@'))!;
    const uploaded = String(report.with!.path).split('\n').filter(Boolean);
    for (const p of [paths.output, paths.singleFile, paths.junit, paths.matrix]) {
      expect(
        uploaded.map((u) => u.replace(/\/$/, '')),
        rel(p),
      ).toContain(rel(p));
    }
    for (const step of [report, merge[save]!]) expect(step.if).not.toContain("'3'");
    expect(merge[merge.length - 1]!.run).toContain('steps.merge.outputs.code');
  });
});
