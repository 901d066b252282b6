// Runs a command to completion, its output captured (to a log file and for parsing), the wall time measured
// from spawn to exit on the epoch clock the sandbox child's records share.
import { spawn } from 'node:child_process';
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';

export interface RunResult {
  code: number;
  output: string;
  spawnedAt: number;
  exitedAt: number;
  wallMs: number;
  /**
   * CPU seconds (user + system) of the command and every descendant it waited for (Playwright's runner and its
   * workers, the report build), from /usr/bin/time; NaN where that tool is missing.
   */
  cpuSeconds: number;
}

const TIME = '/usr/bin/time';

export const epochNow = (): number => performance.timeOrigin + performance.now();

export async function runCommand(
  command: string,
  args: string[],
  opts: { cwd: string; env: NodeJS.ProcessEnv; log: string; timeoutMs?: number },
): Promise<RunResult> {
  const cpuFile = `${opts.log}.cpu`;
  const timed = existsSync(TIME);
  const [cmd, argv] = timed ? [TIME, ['-f', '%U %S', '-o', cpuFile, command, ...args]] : [command, args];
  const spawnedAt = epochNow();
  const child = spawn(cmd, argv, { cwd: opts.cwd, env: opts.env, stdio: ['ignore', 'pipe', 'pipe'] });
  const chunks: Buffer[] = [];
  child.stdout.on('data', (c: Buffer) => chunks.push(c));
  child.stderr.on('data', (c: Buffer) => chunks.push(c));
  const timer = setTimeout(() => child.kill('SIGTERM'), opts.timeoutMs ?? 300_000);
  const code = await new Promise<number>((res) => child.on('close', (c) => res(c ?? 1)));
  clearTimeout(timer);
  const exitedAt = epochNow();
  const output = Buffer.concat(chunks).toString('utf8');
  writeFileSync(opts.log, output);
  let cpuSeconds = NaN;
  if (timed && existsSync(cpuFile)) {
    // The last line: a killed command's file starts with "Command terminated by signal …".
    const last = readFileSync(cpuFile, 'utf8').trim().split('\n').pop() ?? '';
    const [user, sys] = last.split(' ').map(Number);
    if (Number.isFinite(user) && Number.isFinite(sys)) cpuSeconds = user! + sys!;
    rmSync(cpuFile, { force: true });
  }
  return { code, output, spawnedAt, exitedAt, wallMs: exitedAt - spawnedAt, cpuSeconds };
}

/** Playwright's closing lines: "123 passed (12.6s)", "5 skipped", "2 failed", "Running 128 tests using 1 worker". */
export function playwrightSummary(output: string): {
  passed: number;
  failed: number;
  skipped: number;
  flaky: number;
  workers: number;
  reportedMs: number;
} {
  // oxlint-disable-next-line no-control-regex
  const plain = output.replace(/\u001b\[[0-9;]*m/g, '');
  const n = (re: RegExp): number => Number(re.exec(plain)?.[1] ?? 0);
  const dur = /\d+ (?:passed|failed) \(([\d.]+)(ms|s|m)\)/.exec(plain);
  const unit = { ms: 1, s: 1000, m: 60_000 }[dur?.[2] ?? 's'] ?? 1000;
  const reportedMs = dur ? Number(dur[1]) * unit : NaN;
  return {
    passed: n(/(\d+) passed/),
    failed: n(/(\d+) failed/),
    skipped: n(/(\d+) skipped/),
    flaky: n(/(\d+) flaky/),
    workers: n(/using (\d+) workers?/),
    reportedMs,
  };
}
