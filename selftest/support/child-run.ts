// Running a node child of the project (a script through tsx, or Playwright's CLI) from a self-test, with its
// output collected for the failure message.
import { spawn } from 'node:child_process';
import { resolve } from 'node:path';
import { playwrightCommand } from '../../scripts/run/playwright-cli';

export const ROOT = resolve(__dirname, '..', '..');

/**
 * The conformance config of a self-test that reads only the rule matrix and the run's output: the real one
 * without the Allure and JUnit writers (whose paths are fixed under the project's reports/), on one worker.
 */
export const LEAN_RUN_CONFIG = 'selftest/support/discovery-run.config.ts';

export interface ChildOutcome {
  status: number | null;
  stdout: string;
  stderr: string;
}

/**
 * The machine's LEDGER_, SANDBOX_ and ALLURE_ settings never leak into a self-test's run, nor its proxy variables
 * (the runs talk to 127.0.0.1, and the harness's lines mention a proxy variable that is set).
 */
export function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([k]) => !/^(LEDGER_|SANDBOX_|ALLURE_)/.test(k) && !/^(https?|all|no)_proxy$/i.test(k),
    ),
  );
}

/**
 * `node <args>` in the project folder with exactly `env`; resolves when it exits. `own`, when given, receives a
 * function that kills the child's whole process group (it is then spawned as its own group): for a caller whose
 * hook may time out while a nested Playwright run and its workers are still going.
 */
export function runNode(
  args: string[],
  env: NodeJS.ProcessEnv,
  own?: (kill: () => void) => void,
): Promise<ChildOutcome> {
  return runCommand(process.execPath, args, env, { own });
}

/** `command <args>` with exactly `env`, in `cwd` (the project folder unless given); as `runNode`. */
export function runCommand(
  command: string,
  args: string[],
  env: NodeJS.ProcessEnv,
  { cwd = ROOT, own }: { cwd?: string; own?: (kill: () => void) => void } = {},
): Promise<ChildOutcome> {
  return new Promise((done, fail) => {
    const child = spawn(command, args, { cwd, env, detached: own !== undefined });
    own?.(() => {
      if (child.pid === undefined || child.exitCode !== null || child.signalCode !== null) return;
      try {
        process.kill(-child.pid, 'SIGKILL');
      } catch {
        // already gone
      }
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('error', fail);
    child.on('close', (status) => done({ status, stdout, stderr }));
  });
}

/** `npm run preflight` (its script through tsx), the machine's settings left out and `env` added. */
export function runPreflight(env: Record<string, string>, args: string[] = []): Promise<ChildOutcome> {
  return runNode(['--require', 'tsx/cjs', 'scripts/preflight/preflight.ts', ...args], {
    ...cleanEnv(),
    ...env,
  });
}

/** Playwright's run of LEAN_RUN_CONFIG with `args`, the machine's settings left out, `env` added, its reports in `out`. */
export function runLean(
  out: string,
  env: Record<string, string>,
  args: string[] = [],
): Promise<ChildOutcome> {
  return runNode(playwrightCommand('test', '-c', LEAN_RUN_CONFIG, ...args), {
    ...cleanEnv(),
    ...env,
    LEDGER_REPORTS_DIR: out,
  });
}
