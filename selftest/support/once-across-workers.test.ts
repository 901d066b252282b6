// The self-tests' shared child runs (support/once-across-workers.ts): made once however many ask, a failure
// reaches every asker, and an owner that died is reported instead of waited for; the global setup starts the
// named ones (support/shared-runs.ts) only for a run of the whole suite.
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { expect, test } from './test';
import { onceAcrossWorkers, SHARED_DIR_ENV } from './once-across-workers';
import { isWholeRun, prefetchSharedRuns } from './shared-runs';

test('made once: every asker gets the same folder and value', async () => {
  const key = `once-${randomUUID()}`;
  let made = 0;
  const produce = async (dir: string) => {
    made += 1;
    writeFileSync(join(dir, 'out.txt'), 'x');
    await new Promise((r) => setImmediate(r));
    return { n: 42 };
  };
  const all = await Promise.all([1, 2, 3].map(() => onceAcrossWorkers(key, produce)));
  expect(made).toBe(1);
  expect(new Set(all.map((a) => a.dir)).size).toBe(1);
  expect(all.map((a) => a.value)).toEqual([{ n: 42 }, { n: 42 }, { n: 42 }]);
});

test('a failure reaches every asker, with its message', async () => {
  const key = `fail-${randomUUID()}`;
  const produce = () => Promise.reject(new Error('the child run broke'));
  const all = await Promise.allSettled([1, 2].map(() => onceAcrossWorkers(key, produce)));
  for (const r of all) {
    expect(r.status).toBe('rejected');
    expect(String((r as PromiseRejectedResult).reason)).toMatch(
      /shared run "fail-.*" failed:[\s\S]*the child run broke/,
    );
  }
});

test('an owner that died without an outcome is named, not waited for', async () => {
  const key = `dead-${randomUUID()}`;
  const home = join(process.env[SHARED_DIR_ENV]!, key);
  mkdirSync(home);
  // A pid no process has: above Linux's pid_max.
  writeFileSync(join(home, 'owner.pid'), '99999999');
  await expect(onceAcrossWorkers(key, () => Promise.resolve(1))).rejects.toThrow(
    /\(pid 99999999\) died before it finished/,
  );
});

test('the shared runs are started up front only when the whole suite runs', async () => {
  const cli = ['node', 'cli.js', 'test'];
  expect(isWholeRun([...cli, '-c', 'selftest/playwright.config.ts'])).toBe(true);
  expect(
    isWholeRun([...cli, '-c', 'selftest/playwright.config.ts', '--reporter=dot', '--workers', '2']),
  ).toBe(true);
  expect(
    isWholeRun([...cli, '-c', 'selftest/playwright.config.ts', 'selftest/history/compare.test.ts']),
  ).toBe(false);
  expect(isWholeRun([...cli, '-c', 'selftest/playwright.config.ts', '--grep', 'triage'])).toBe(false);
  expect(isWholeRun([...cli, '--project=selftest'])).toBe(false);
  expect(isWholeRun(['node', 'cli.js', '--list'])).toBe(false);
  // A part of the suite starts nothing: its teardown has nothing to wait for.
  await prefetchSharedRuns([...cli, 'selftest/support/once-across-workers.test.ts'])();
});
