// `npm run mutation [-- --faults a,b] [--full] [--jobs N]`: runs the suite against the sandbox once clean and
// once per fault (child processes, in parallel), and writes reports/mutation.{json,md}: per fault, killed or
// survived and by which rules; a fault caught only by rules other than those declared is flagged (the suite
// caught it by accident: the intended check is weak). Exits non-zero unless every conformance fault is killed
// by a declared rule, every transport fault is inconclusive (never failed) and the clean run is green.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join, resolve } from 'node:path';
import { FAULTS, type Fault } from '../sandbox/faults/catalogue';
import type { RuleRow } from '../reporters/verdicts';
import { judgeFault, renderMutationMarkdown, type FaultOutcome, type MutationReport } from './mutation-judge';
import { specsForRules } from './suite-listing';

const ROOT = resolve(__dirname, '..');
const OUT = join(ROOT, 'reports', 'mutation');

interface Options {
  faults: Fault[];
  full: boolean;
  jobs: number;
}

function parseArgs(argv: string[]): Options {
  const get = (flag: string) => {
    const i = argv.indexOf(flag);
    return i >= 0 ? argv[i + 1] : undefined;
  };
  const names = get('--faults')?.split(',').filter(Boolean);
  const faults = names ? FAULTS.filter((f) => names.includes(f.name)) : [...FAULTS];
  if (names && faults.length !== names.length) {
    const unknown = names.filter((n) => !FAULTS.some((f) => f.name === n));
    throw new Error(`--faults names unknown faults: ${unknown.join(', ')}`);
  }
  const jobs = Number(get('--jobs') ?? Math.max(1, availableParallelism()));
  return { faults, full: argv.includes('--full'), jobs };
}

/** One suite run in a child process with its own output folders; resolves to the rule rows it produced. */
function runSuite(label: string, env: Record<string, string>, specs: string[]): Promise<RuleRow[]> {
  const dir = join(OUT, label);
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const cli = require.resolve('@playwright/test/cli');
  const args = [
    cli,
    'test',
    ...specs,
    '--reporter=./reporters/rule-matrix.ts',
    `--output=${join(dir, 'test-results')}`,
    '--workers=1',
  ];
  return new Promise((done, fail) => {
    const child = spawn(process.execPath, args, {
      cwd: ROOT,
      env: { ...process.env, ...env, LEDGER_REPORTS_DIR: dir, LEDGER_BASE_URL: '' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('error', fail);
    child.on('close', () => {
      writeFileSync(join(dir, 'run.log'), log);
      try {
        const matrix = JSON.parse(readFileSync(join(dir, 'conformance.json'), 'utf8')) as {
          rules: RuleRow[];
        };
        done(matrix.rules);
      } catch {
        fail(new Error(`the ${label} run wrote no rule matrix; see ${join(dir, 'run.log')}`));
      }
    });
  });
}

async function pool<T, R>(items: T[], jobs: number, work: (item: T) => Promise<R>): Promise<R[]> {
  const results = new Array<R>(items.length);
  let next = 0;
  const lanes = Array.from({ length: Math.min(jobs, items.length) }, async () => {
    while (next < items.length) {
      const i = next++;
      results[i] = await work(items[i]!);
    }
  });
  await Promise.all(lanes);
  return results;
}

async function main(): Promise<void> {
  const opts = parseArgs(process.argv.slice(2));
  mkdirSync(OUT, { recursive: true });
  const started = Date.now();
  // Each child runs one worker: the faults run side by side, one per core.
  const clean = await runSuite('clean', { SANDBOX_FAULTS: '' }, []);
  const allSpecs = opts.full ? [] : undefined;
  const outcomes: FaultOutcome[] = await pool(opts.faults, opts.jobs, async (fault) => {
    const specs = allSpecs ?? specsForRules(ROOT, fault.kind === 'transport' ? [] : fault.rules);
    const rows = await runSuite(fault.name, { SANDBOX_FAULTS: fault.name }, specs);
    const outcome = judgeFault(fault, clean, rows, specs);
    process.stdout.write(
      `  ${outcome.status.padEnd(12)} ${fault.name}${outcome.flag ? `  (${outcome.flag})` : ''}\n`,
    );
    return outcome;
  });
  const report: MutationReport = {
    generatedAt: new Date().toISOString(),
    durationSeconds: Math.round((Date.now() - started) / 1000),
    selection: opts.full ? 'full suite per fault' : 'per fault, the spec files holding its declared rules',
    cleanFailures: clean
      .filter((r) => r.verdict === 'fail' || r.verdict === 'unexpected-pass')
      .map((r) => r.id),
    outcomes,
  };
  writeFileSync(join(ROOT, 'reports', 'mutation.json'), JSON.stringify(report, null, 2) + '\n');
  const md = renderMutationMarkdown(report);
  writeFileSync(join(ROOT, 'reports', 'mutation.md'), md);
  process.stdout.write('\n' + md.split('\n').slice(0, 6).join('\n') + '\n');
  const ok = report.cleanFailures.length === 0 && outcomes.every((o) => o.ok);
  process.exit(ok ? 0 : 1);
}

main().catch((e: unknown) => {
  process.stderr.write(`mutation: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(2);
});
