// A costly child run several self-tests only read (the report run with every verdict kind): made once per
// `npm test` by the first worker that asks, while the others wait for its outcome. The workers are separate
// processes, so the claim is a directory made with mkdir (atomic) under the folder the self-tests' global
// setup made for this run (SELFTEST_SHARED_DIR, removed by its teardown); the outcome is handed over as a
// JSON file (scripts/run/file-handoff.ts).
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { awaitFile, publishJson } from '../../scripts/run/file-handoff';

export const SHARED_DIR_ENV = 'SELFTEST_SHARED_DIR';

interface Stored<T> {
  value?: T;
  error?: string;
}

/** The folder shared by this run's workers, made by the self-tests' global setup. */
function sharedRoot(): string {
  const dir = process.env[SHARED_DIR_ENV];
  if (!dir)
    throw new Error(`${SHARED_DIR_ENV} is unset: run the self-tests with -c selftest/playwright.config.ts`);
  return dir;
}

/** The self-tests' global setup: the shared folder for this run, and its removal once every test is done. */
export function makeSharedRoot(): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'selftest-shared-'));
  process.env[SHARED_DIR_ENV] = dir;
  return () => rmSync(dir, { recursive: true, force: true });
}

const alive = (pid: number): boolean => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: a process of another user holds the pid, so it is alive.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
};

/**
 * `produce(dir)` once for `key` across the run's workers: its folder `dir` and its value. The value must be
 * JSON; the folder is shared, so callers only read it.
 */
export async function onceAcrossWorkers<T>(
  key: string,
  produce: (dir: string) => Promise<T>,
): Promise<{ dir: string; value: T }> {
  const home = join(sharedRoot(), key);
  const dir = join(home, 'output');
  const outcome = join(home, 'outcome.json');
  const owner = join(home, 'owner.pid');
  let mine = false;
  try {
    mkdirSync(home);
    mine = true;
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  if (mine) {
    writeFileSync(owner, String(process.pid));
    mkdirSync(dir);
    let stored: Stored<T>;
    try {
      stored = { value: await produce(dir) };
    } catch (e) {
      stored = { error: e instanceof Error ? (e.stack ?? e.message) : String(e) };
    }
    publishJson(outcome, stored);
  } else {
    // The owner's death writes nothing to watch for: its pid is checked every few seconds.
    await awaitFile(outcome, () => {
      const pid = existsSync(owner) ? Number(readFileSync(owner, 'utf8')) : NaN;
      return Number.isInteger(pid) && pid > 0 && !alive(pid)
        ? new Error(`the worker making the shared run "${key}" (pid ${pid}) died before it finished`)
        : undefined;
    });
  }
  const stored = JSON.parse(readFileSync(outcome, 'utf8')) as Stored<T>;
  if (stored.error !== undefined) throw new Error(`the shared run "${key}" failed:\n${stored.error}`);
  return { dir, value: stored.value as T };
}
