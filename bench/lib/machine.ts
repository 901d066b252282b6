// What the figures were measured on. The machine is shared: every figure carries the load average before and
// after it, so a figure taken under load says so next to itself.
import { execFileSync } from 'node:child_process';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { ROOT } from './child';

export interface Load {
  one: number;
  five: number;
}

export const load = (): Load => {
  const [one = 0, five = 0] = loadavg();
  return { one, five };
};

export const cores = (): number => cpus().length;

export function machine(): Record<string, string> {
  const git = (...args: string[]): string => {
    try {
      return execFileSync('git', args, { cwd: ROOT, encoding: 'utf8' }).trim();
    } catch {
      return '?';
    }
  };
  const dirty = git(
    'status',
    '--porcelain',
    '--',
    'sandbox',
    'fixtures',
    'tests',
    'scripts',
    'reporters',
    'rules',
  );
  const cpu = cpus()[0];
  return {
    cpu: `${cores()} × ${cpu?.model.trim() ?? '?'}`,
    memory: `${(totalmem() / 2 ** 30).toFixed(1)} GiB (${(freemem() / 2 ** 30).toFixed(1)} GiB free at start)`,
    node: process.version,
    commit: `${git('rev-parse', '--short', 'HEAD')}${dirty && dirty !== '?' ? ` + ${dirty.split('\n').length} uncommitted files of others in sandbox/fixtures/tests/scripts/reporters/rules` : ''}`,
  };
}

/** Load averages of 1 min are comparable to the core count: above it, processes wait for a core. */
export function loadNote(before: Load, after: Load): string {
  const worst = Math.max(before.one, after.one);
  const busy = worst > cores() * 0.75 ? ' — **busy machine: the figure is pessimistic**' : '';
  return `load ${before.one.toFixed(2)} → ${after.one.toFixed(2)} (1 min)${busy}`;
}
