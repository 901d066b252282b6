// The suite can fail: a sample of the fault catalogue — every flagship rule's counter-case, one fault per
// other rule group and a transport fault — run through the mutation runner. The whole catalogue is
// `npm run mutation` (too long for `npm test` on two cores: see README).
import { test, expect } from '@playwright/test';
import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { MutationReport } from '../scripts/mutation-judge';

const ROOT = resolve(__dirname, '..');
const SAMPLE = process.env.MUTATION_SAMPLE?.split(',') ?? [
  // flagship rules: pagination ordering, the empty final token, deduplication, the two ledger times, page size
  'vet-entries-unsorted',
  'vet-walk-never-ends',
  // (the empty final token's fault, vet-final-token-full-page, needs a strict-interface sandbox: the runner
  // has no per-fault sandbox settings yet, so it is proven by hand — see README)
  'sub-dedup-ignored',
  'sub-min-ledger-time-both-accepted',
  'vet-page-size-limit-unenforced',
  // one per remaining group
  'ver-not-semver',
  'auth-expired-accepted',
  'gen-status-disagrees',
  // the environment misbehaving is inconclusive, never failed
  'transport-unavailable',
];

test('the clean sandbox passes, every sampled fault is killed by a declared rule, a transport fault is inconclusive', async () => {
  test.setTimeout(480_000);
  // Outside test-results/: the nested run owns test-results/mutation and empties it at start.
  const out = mkdtempSync(join(tmpdir(), 'mutation-'));
  const args = ['--import', 'tsx', 'scripts/mutation.ts', '--faults', SAMPLE.join(','), '--out', out];
  const run = await new Promise<{ status: number | null; log: string }>((done, fail) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, env: { ...process.env, LEDGER_BASE_URL: '' } });
    let log = '';
    child.stdout.on('data', (d: Buffer) => (log += d.toString()));
    child.stderr.on('data', (d: Buffer) => (log += d.toString()));
    child.on('error', fail);
    child.on('close', (status) => done({ status, log }));
  });
  expect(
    existsSync(join(out, 'mutation.json')),
    `the mutation runner wrote no report:\n${run.log.slice(-3000)}`,
  ).toBe(true);
  const report = JSON.parse(readFileSync(join(out, 'mutation.json'), 'utf8')) as MutationReport;
  expect(report.cleanFailures, 'rules failing on the clean sandbox').toEqual([]);
  for (const o of report.outcomes) {
    expect(
      o.ok,
      `${o.fault}: ${o.status} ${o.flag ?? ''} (caught by ${o.killedBy.join(', ') || 'nothing'})`,
    ).toBe(true);
  }
  if (SAMPLE.includes('transport-unavailable')) {
    expect(report.outcomes.find((o) => o.fault === 'transport-unavailable')?.status).toBe('inconclusive');
  }
  expect(run.status, run.log.slice(-2000)).toBe(0);
});
