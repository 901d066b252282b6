// What the figures were measured on. The machine is shared: every figure carries the load average before and
// after it and the CPU others used meanwhile, so a figure taken beside other work says so next to itself.
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cpus, freemem, loadavg, totalmem } from 'node:os';
import { ROOT } from './child';

export interface Load {
  one: number;
  five: number;
  /** Busy CPU seconds so far: of the whole machine (every tenant), and of the bench's own process tree. */
  cpu?: { machine: number; ours: number };
  at: number;
  /** CPU milliseconds of the speed probe (speedProbeMs) at this reading, per core. */
  probeMs: number[];
}

// The load average cannot tell the bench's own runs (two workers and a sandbox keep it near 2) from other
// tenants' work; /proc can. Others' share = the machine's busy time (stolen time included) less the bench's
// process tree's: itself, its live descendants, and all they reaped (a child that lives across figures, as the
// paging figures' sandbox, is counted while it runs). Linux only; elsewhere the note keeps the load average.
const TICK = (() => {
  try {
    return Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** utime + stime + cutime + cstime of one process (its reaped children included), and its parent. */
function processTicks(stat: string): { ppid: number; ticks: number } {
  // Fields counted after the command name's closing parenthesis: 3 state, 4 ppid, …, 14–17 the four times.
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const ticks = f.slice(11, 15).reduce((a, x) => a + Number(x), 0);
  return { ppid: Number(f[1]), ticks };
}

/** The bench's own process tree: itself with its reaped children, and every live descendant with theirs. */
function ourTicks(): number {
  const procs = new Map<number, { ppid: number; ticks: number }>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    try {
      procs.set(Number(name), processTicks(readFileSync(`/proc/${name}/stat`, 'utf8')));
    } catch {
      // it exited meanwhile: its time is in its parent's reaped children's once reaped
    }
  }
  const ours = new Set([process.pid]);
  let total = 0;
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, p] of procs)
      if (!ours.has(pid) && ours.has(p.ppid)) {
        ours.add(pid);
        grew = true;
      }
  }
  for (const pid of ours) total += procs.get(pid)?.ticks ?? NaN;
  return total;
}

function cpuSeconds(): Load['cpu'] {
  try {
    const [, user, nice, system, , , irq, softirq, steal] = readFileSync('/proc/stat', 'utf8')
      .split('\n', 1)[0]!
      .trim()
      .split(/\s+/)
      .map(Number);
    const sum = (...xs: (number | undefined)[]): number => xs.reduce<number>((a, x) => a + (x ?? NaN), 0);
    const machine = sum(user, nice, system, irq, softirq, steal) / TICK;
    const ours = ourTicks() / TICK;
    return Number.isFinite(machine) && Number.isFinite(ours) ? { machine, ours } : undefined;
  } catch {
    return undefined;
  }
}

// The host's own speed, which /proc cannot show: two full runs of the same tree, nobody else on this machine, can
// spend very different CPU time on the same cold conformance runs (other VMs on the same physical cores, a clock
// that moves). The probe is a fixed piece of the harness's kind of work (JSON round trips of 200
// tree-like events and a regex over them), its CPU time the least of five after a warm-up, in a fresh Node
// process (in the bench's own, its heap and its last child's after-effects moved it by half): the same on the
// same host, so it moves with the host. Compare it between figures and RESULTS files, never with a number.
const PROBE = `
const doc = { events: Array.from({ length: 200 }, (_, i) => ({ id: '#' + i + ':0',
  party: 'p' + i + '::1220' + 'ab'.repeat(32), args: { n: i, s: 'x'.repeat(40), l: [1, 2, 3] } })) };
const once = () => {
  const start = process.cpuUsage();
  let n = 0;
  for (let i = 0; i < 150; i++) n += JSON.parse(JSON.stringify(doc)).events.filter((e) => /::1220/.test(e.party)).length;
  const used = process.cpuUsage(start);
  if (n !== 30000) throw new Error('wrong count');
  return (used.user + used.system) / 1000;
};
once();
console.log(Math.min(...Array.from({ length: 5 }, once)));
`;

/** Where taskset is missing (not Linux, util-linux not installed): one unpinned probe. */
const TASKSET = (() => {
  try {
    execFileSync('taskset', ['-c', '0', 'true']);
    return true;
  } catch {
    return false;
  }
})();

/**
 * The probe on each core (pinned with taskset), or once unpinned. Per core, because the cores of a cloud VM need
 * not be equal: one may run the probe far slower than the other at the same moment (its physical core shared
 * with a busy neighbour), and a figure's processes land on either.
 */
export function speedProbeMs(): number[] {
  const run = (command: string, args: string[]): number => {
    try {
      return Number(execFileSync(command, [...args, '-e', PROBE], { encoding: 'utf8' }).trim());
    } catch {
      return NaN;
    }
  };
  if (!TASKSET) return [run(process.execPath, [])];
  return Array.from({ length: cores() }, (_, i) => run('taskset', ['-c', String(i), process.execPath]));
}

export const load = (): Load => {
  const [one = 0, five = 0] = loadavg();
  return { one, five, cpu: cpuSeconds(), at: Date.now(), probeMs: speedProbeMs() };
};

/** Cores' worth of CPU that others used between two readings (0 = nobody else ran), if /proc says. */
export function othersCores(before: Load, after: Load): number | undefined {
  if (!before.cpu || !after.cpu || after.at <= before.at) return undefined;
  const others = after.cpu.machine - before.cpu.machine - (after.cpu.ours - before.cpu.ours);
  return Math.max(0, others) / ((after.at - before.at) / 1000);
}

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
    'core',
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

/**
 * Where /proc tells, a figure is flagged when others used more than a quarter of a core on average beside it;
 * otherwise by the 1-min load average, which counts the bench's own processes too and so flags more often.
 */
export function loadNote(before: Load, after: Load): string {
  const others = othersCores(before, after);
  const busy =
    others === undefined ? Math.max(before.one, after.one) > cores() * 0.75 : others > OTHERS_BUSY_CORES;
  const share = others === undefined ? '' : `; others used ${others.toFixed(2)} of ${cores()} cores`;
  const ms = (xs: number[]): string => xs.map((x) => x.toFixed(0)).join('/');
  const probe = `; speed probe${before.probeMs.length > 1 ? ' per core' : ''} ${ms(before.probeMs)} → ${ms(after.probeMs)} ms`;
  return `load ${before.one.toFixed(2)} → ${after.one.toFixed(2)} (1 min)${share}${probe}${busy ? ' — **busy machine: the figure is pessimistic**' : ''}`;
}

export const OTHERS_BUSY_CORES = 0.25;
