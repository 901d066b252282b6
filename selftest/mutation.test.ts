// The suite can fail: the whole fault catalogue through the mutation runner, each conformance fault against
// the tests of its declared rules (`--by-rule`, to stay within npm test's budget on two cores; `npm run
// mutation` runs whole spec files per fault, `--full` the whole suite). MUTATION_SAMPLE=a,b narrows it.
import { test, expect } from '@playwright/test';
import { existsSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { FAULTS } from '../sandbox/faults/catalogue';
import type { MutationReport } from '../scripts/mutation-judge';
import { runNode } from './support/child-run';

const SAMPLE = process.env.MUTATION_SAMPLE?.split(',');

test('the clean sandbox passes, every fault is killed by a declared rule, transport faults are never failed', async () => {
  test.setTimeout(600_000);
  // Outside test-results/: the nested run owns test-results/mutation and empties it at start.
  const out = mkdtempSync(join(tmpdir(), 'mutation-'));
  const args = ['--require', 'tsx/cjs', 'scripts/mutation.ts', '--by-rule', '--out', out];
  if (SAMPLE) args.push('--faults', SAMPLE.join(','));
  const child = await runNode(args, { ...process.env, LEDGER_BASE_URL: '' });
  const run = { status: child.status, log: child.stdout + child.stderr };
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
  expect(report.outcomes.map((o) => o.fault).sort(), 'every fault of the catalogue was judged').toEqual(
    (SAMPLE ?? FAULTS.map((f) => f.name)).sort(),
  );
  if (!SAMPLE) {
    expect(report.outcomes.find((o) => o.fault === 'transport-unavailable')?.status).toBe('inconclusive');
  }
  expect(run.status, run.log.slice(-2000)).toBe(0);
});
