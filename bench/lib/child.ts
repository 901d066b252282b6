// Server children of the bench: each runs in its own process (its own event loop and core), so the load
// generator in the bench process never competes with the server on one event loop. A child reports
// `{ type: 'ready', port }` over IPC once it listens on 127.0.0.1, port 0, and answers `{ type, id }` requests.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { resolve } from 'node:path';

export const ROOT = resolve(__dirname, '..', '..');

/** The environment without the caller's LEDGER_ and SANDBOX_ settings: every figure runs on defaults. */
/**
 * What a harness run against a sandbox child sets besides LEDGER_BASE_URL: the dev user with the participant-admin
 * right, which the control route asks of its caller (the harness presents it only to the in-process sandbox).
 */
export const SANDBOX_ADMIN = { LEDGER_ADMIN_USER: 'admin' } as const;

export function cleanEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      /^(LEDGER_|SANDBOX_|LOG_LEVEL$|BENCH_|PW_|PWTEST_|PLAYWRIGHT_|CI$|TEST_WORKER_INDEX$|TEST_PARALLEL_INDEX$)/.test(
        k,
      )
    )
      continue;
    env[k] = v;
  }
  return { ...env, ...extra };
}

export interface Child {
  url: string;
  pid: number;
  /** Sends a request to the child and waits for its answer. */
  ask<T = Record<string, unknown>>(msg: Record<string, unknown>): Promise<T>;
  /** Asks the child to exit cleanly and waits for it. */
  stop(): Promise<void>;
}

interface Message {
  type: string;
  id?: number;
  port?: number;
  error?: string;
}

export async function startChild(
  entry: string,
  opts: { env?: Record<string, string>; nodeArgs?: string[]; readyTimeoutMs?: number } = {},
): Promise<Child> {
  const proc: ChildProcess = spawn(
    process.execPath,
    [...(opts.nodeArgs ?? []), '--require', 'tsx/cjs', resolve(ROOT, entry)],
    { cwd: ROOT, env: cleanEnv(opts.env), stdio: ['ignore', 'inherit', 'inherit', 'ipc'] },
  );
  const pending = new Map<number, (m: Message) => void>();
  let nextId = 1;
  const ready = new Promise<number>((res, rej) => {
    const timer = setTimeout(
      () => rej(new Error(`${entry} did not start within ${opts.readyTimeoutMs ?? 60_000} ms`)),
      opts.readyTimeoutMs ?? 60_000,
    );
    proc.once('exit', (code) => {
      clearTimeout(timer);
      rej(new Error(`${entry} exited with code ${code} before it was ready`));
    });
    proc.on('message', (raw) => {
      const m = raw as Message;
      if (m.type === 'ready') {
        clearTimeout(timer);
        res(m.port ?? 0);
      } else if (m.id !== undefined) {
        pending.get(m.id)?.(m);
        pending.delete(m.id);
      }
    });
  });
  const port = await ready;
  const exited = once(proc, 'exit');
  return {
    url: `http://127.0.0.1:${port}`,
    pid: proc.pid ?? 0,
    ask<T>(msg: Record<string, unknown>): Promise<T> {
      const id = nextId++;
      return new Promise<T>((res, rej) => {
        pending.set(id, (m) => (m.error ? rej(new Error(m.error)) : res(m as T)));
        proc.send({ ...msg, id });
      });
    },
    async stop(): Promise<void> {
      if (proc.exitCode !== null || proc.signalCode !== null) return;
      proc.send({ type: 'stop' });
      const timer = setTimeout(() => proc.kill('SIGKILL'), 15_000);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** The IPC side of a child: answers requests with `handler`, exits on `stop`. */
export function serveParent(
  handler: (msg: Message & Record<string, unknown>) => Promise<object> | object,
): void {
  process.on('message', (raw) => {
    const msg = raw as Message & Record<string, unknown>;
    if (msg.type === 'stop') {
      process.exit(0);
    }
    Promise.resolve()
      .then(() => handler(msg))
      .then(
        (answer) => process.send?.({ ...answer, id: msg.id }),
        (e: unknown) => process.send?.({ id: msg.id, error: e instanceof Error ? e.message : String(e) }),
      );
  });
  // The parent went away (a crashed or interrupted bench): never outlive it.
  process.on('disconnect', () => process.exit(0));
}
