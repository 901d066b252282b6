// `npm run mutation [-- --faults a,b] [--full] [--workers N] [--out DIR]`: proves every check can fail. Starts the clean
// sandbox and one sandbox per fault (in this process, each on its own loopback port), runs the suite once
// with one Playwright project per sandbox on all cores, and writes reports/mutation.{json,md}: per fault,
// killed or survived and by which rules; a fault caught only by rules other than those declared is flagged
// (the suite caught it by accident: the intended check is weak). Exits non-zero unless the clean sandbox is
// green, every conformance fault is killed by a declared rule and every transport fault stays inconclusive.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { RULES } from '../rules/catalogue';
import { buildApp } from '../sandbox/app';
import { loadConfig } from '../sandbox/config';
import { FAULTS, type Fault } from '../sandbox/faults/catalogue';
import type { ProjectRecord } from '../reporters/mutation-collector';
import { ruleRows, type RuleRow } from '../reporters/verdicts';
import { judgeFault, renderMutationMarkdown, type MutationReport } from './mutation-judge';
import type { PlannedProject } from './mutation.config';
import { specsForRules } from './suite-listing';

const ROOT = resolve(__dirname, '..');
const CLEAN = 'clean';

interface Options {
  /** Where mutation.{json,md} go (reports/ by default; the self-test uses its own folder). */
  out: string;
  faults: Fault[];
  full: boolean;
  workers: number;
}

function parseArgs(argv: string[]): Options {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const names = get('--faults')?.split(',').filter(Boolean);
  const unknown = (names ?? []).filter((n) => !FAULTS.some((f) => f.name === n));
  if (unknown.length > 0) throw new Error(`--faults names unknown faults: ${unknown.join(', ')}`);
  return {
    out: resolve(ROOT, get('--out') ?? 'reports'),
    faults: names ? FAULTS.filter((f) => names.includes(f.name)) : [...FAULTS],
    full: argv.includes('--full'),
    workers: Number(get('--workers') ?? Math.max(1, availableParallelism())),
  };
}

async function startSandbox(faults: string): Promise<{ app: FastifyInstance; url: string }> {
  // The sandbox's own settings apply (SANDBOX_*), as in a conformance run; the control route is on, as there.
  const app = await buildApp(
    loadConfig({ ...process.env, SANDBOX_FAULTS: faults, SANDBOX_CONTROL: 'true', LOG_LEVEL: '' }),
  );
  await app.listen({ host: '127.0.0.1', port: 0 });
  return { app, url: `http://127.0.0.1:${(app.server.address() as AddressInfo).port}` };
}

const SLOW_RULES = RULES.filter((r) => r.tags.includes('@slow')).map((r) => r.id);

function plan(fault: Fault | undefined, url: string, full: boolean): PlannedProject {
  if (!fault) return { name: CLEAN, url, specs: [], skipSlow: [] };
  const targeted = fault.kind === 'conformance' && !full;
  return {
    name: fault.name,
    url,
    specs: targeted ? specsForRules(ROOT, fault.rules) : [],
    skipSlow: SLOW_RULES.filter((id) => !fault.rules.includes(id)),
  };
}

function runPlaywright(projects: PlannedProject[], workers: number, recordsFile: string): Promise<number> {
  const cli = require.resolve('@playwright/test/cli');
  const args = [cli, 'test', '-c', 'scripts/mutation.config.ts', `--workers=${workers}`];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: {
        ...process.env,
        MUTATION_PLAN: JSON.stringify(projects),
        MUTATION_RECORDS: recordsFile,
        LEDGER_BASE_URL: '',
      },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
    child.on('error', fail);
    child.on('close', (code) => done(code ?? 1));
  });
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  mkdirSync(opts.out, { recursive: true });
  const started = Date.now();
  const sandboxes = await Promise.all(
    [undefined, ...opts.faults].map(async (fault) => ({ fault, ...(await startSandbox(fault?.name ?? '')) })),
  );
  const projects = sandboxes.map((s) => plan(s.fault, s.url, opts.full));
  const recordsFile = join(opts.out, 'mutation-records.json');
  process.stdout.write(
    `mutation: ${opts.faults.length} faults and the clean sandbox, ${opts.workers} workers\n`,
  );
  try {
    await runPlaywright(projects, opts.workers, recordsFile);
  } finally {
    await Promise.all(sandboxes.map((s) => s.app.close()));
  }
  const records = JSON.parse(readFileSync(recordsFile, 'utf8')) as ProjectRecord[];
  const rowsOf = (project: string): RuleRow[] =>
    ruleRows(
      RULES,
      records.filter((r) => r.project === project),
    );
  const clean = rowsOf(CLEAN);
  const outcomes = projects
    .filter((p) => p.name !== CLEAN)
    .map((p) =>
      judgeFault(
        FAULTS.find((f) => f.name === p.name)!,
        clean,
        rowsOf(p.name),
        p.specs,
      ),
    );
  const report: MutationReport = {
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    selection: opts.full
      ? 'the whole suite for every fault'
      : 'per conformance fault, the spec files holding its declared rules (@slow rules only where declared); the whole suite for the clean sandbox and transport faults',
    cleanFailures: clean
      .filter((r) => ['fail', 'unexpected-pass', 'inconclusive', 'harness-defect'].includes(r.verdict))
      .map((r) => r.id),
    outcomes,
  };
  writeFileSync(join(opts.out, 'mutation.json'), JSON.stringify(report, null, 2) + '\n');
  const md = renderMutationMarkdown(report);
  writeFileSync(join(opts.out, 'mutation.md'), md);
  for (const o of outcomes.filter((x) => !x.ok)) {
    process.stdout.write(`  ${o.status.padEnd(12)} ${o.fault}${o.flag ? ` — ${o.flag}` : ''}\n`);
  }
  process.stdout.write(md.split('\n').slice(2, 5).join('\n') + '\n');
  process.exit(report.cleanFailures.length === 0 && outcomes.every((o) => o.ok) ? 0 : 1);
}

main().catch((e: unknown) => {
  process.stderr.write(`mutation: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
