// What `npm run preflight` says will skip is what the run then skips, rule for rule and word for word (a rule's
// needs, core/rule-needs.ts, decide both): against the in-process sandbox meeting few needs, so that every kind
// of need skips rules (with every need met, as by default, both are empty). The staging-like configuration
// (a participant started apart, LEDGER_BASE_URL set, a token: the no-auth need unmet) is held the same way in
// selftest/run/discovery-run.test.ts, beside its suite run. One preflight and one suite run per configuration,
// side by side. Both read only the rule matrix and the output, so the run is the lean one (LEAN_RUN_CONFIG): the
// real config's global setup, which prints the run-information block, and its rule matrix, without the Allure
// report nothing here reads.
import { expect, test } from '../support/test';
import { runLean, runPreflight } from '../support/child-run';
import { forecastOf, skipsOf, verdictOf } from '../support/forecast';
import { DEV_NAMESPACE } from '../../core/dev-defaults';
import { withTempDir } from '../support/temp-dir';

/** The preflight and the lean run side by side, with the same settings and selection; the run's reports in `out`. */
const preflightAndRun = (env: Record<string, string>, out: string, grep: string[] = []) =>
  Promise.all([runPreflight(env, grep), runLean(out, env, grep)]);

/** [what, settings, at least this many rules skipped, rules among them] */
const configurations: [string, Record<string, string>, number, string[]][] = [
  // Every kind of need unmet but 'default-audience' (no token at all) and 'no-auth' (met): a sandbox without
  // authentication, one actAs party, no synchronizer named, Canton's built-in Ping.
  [
    'a participant that meets few needs (no auth, one party, no synchronizer)',
    {
      SANDBOX_AUTH: 'none',
      LEDGER_AUTH: 'none',
      LEDGER_ACT_AS: `Alice::${DEV_NAMESPACE}`,
      LEDGER_COMMAND_TEMPLATE: 'canton-ping',
      LEDGER_SYNCHRONIZER_ID: 'none',
    },
    16,
    // One actAs party: the rules that need a second say so by skipping, and the rest of the suite passes.
    ['SUB-DEDUP-ACTAS-ORDER'],
  ],
];

for (const [what, env, atLeast, skipping] of configurations) {
  test(`${what}: the preflight's forecast is the run's skips`, async () => {
    test.setTimeout(240_000);
    await withTempDir('forecast-skips-', async (out) => {
      // The whole suite (or the whole selection): a skip the forecast does not know of is a mismatch too.
      const [preflight, run] = await preflightAndRun(env, out);
      expect(preflight.status, preflight.stderr).toBe(0);
      expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(0);
      expect(forecastOf(preflight.stdout)).toEqual(skipsOf(out));
      expect(Object.keys(skipsOf(out)).length, 'rules skipped for a need').toBeGreaterThanOrEqual(atLeast);
      for (const id of skipping) expect(Object.keys(skipsOf(out))).toContain(id);
      // The run-information block forecasts the same.
      expect(forecastOf(run.stdout)).toEqual(skipsOf(out));
    });
  });
}

// A skip that depends on the topology: a large listing whose first pages hold one synchronizer. With two
// synchronizers the rule finds the second beyond those pages and gives a verdict; with one it skips, saying what
// it looked at; the preflight forecasts exactly that. The VET-FILTER- rules only: the rest is held above.
const topologies: [string, Record<string, string>, 'skip' | 'pass'][] = [
  [
    '2 synchronizers × 1,000 participants',
    { SANDBOX_SYNCHRONIZERS: '2', SANDBOX_PARTICIPANTS: '1000' },
    'pass',
  ],
  [
    '1 synchronizer × 1,000 participants',
    { SANDBOX_SYNCHRONIZERS: '1', SANDBOX_PARTICIPANTS: '1000' },
    'skip',
  ],
];

for (const [what, env, synchronizers] of topologies) {
  test(`${what}: VET-FILTER-SYNCHRONIZERS ${synchronizers === 'pass' ? 'judged' : 'skips truly'}, as forecast`, async () => {
    test.setTimeout(240_000);
    const grep = ['--grep', 'VET-FILTER-'];
    await withTempDir('forecast-topology-', async (out) => {
      const [preflight, run] = await preflightAndRun(env, out, grep);
      expect(preflight.status, preflight.stderr).toBe(0);
      expect(run.status, run.stdout.slice(-3000) + run.stderr).toBe(0);
      const skips = skipsOf(out);
      expect(forecastOf(preflight.stdout)).toEqual(skips);
      expect(forecastOf(run.stdout)).toEqual(skips);
      expect(verdictOf(out, 'VET-FILTER-SYNCHRONIZERS')).toBe(synchronizers);
      if (synchronizers === 'skip')
        expect(skips['VET-FILTER-SYNCHRONIZERS']).toBe(
          'needs entries of ≥ 2 distinct synchronizerIds: the listing holds 1 (looked at the first pages of the listing and GET /v2/state/connected-synchronizers: 1 synchronizer connected, none beyond those pages)',
        );
    });
  });
}
