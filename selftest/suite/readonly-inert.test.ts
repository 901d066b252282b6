// A read-only selection cannot commit anything, whatever the participant does. Against the sandbox with every
// authorization fault of the catalogue on and every validation fault beside them — a participant with exactly
// the bugs the rules look for, each only letting more through — a `LEDGER_TAGS=@readonly` run and
// `npm run preflight` get no submission accepted (counted as the sandbox answers them), and the read-only run
// still fails every AUTH- rule those faults break (the rules a full run fails against them:
// selftest/mutation/mutation.test.ts proves each by rule). One child run (the read-only rules of the specs that
// submit) and one preflight.
import { mkdtempSync, readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import { CommandFactory, RunIds, seededFaker } from '../../core/command-factory';
import { PATHS } from '../../core/ledger-client';
import { FAULTS } from '../../sandbox/faults/catalogue';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { cleanEnv, runNode, runPreflight, type ChildOutcome } from '../support/child-run';
import { listen, settingsFor } from '../support/harness-kit';
import { sandbox } from '../support/sandbox-kit';

/** Every authorization fault: a participant that lets a bad credential or a missing right through. */
const AUTH_FAULTS = FAULTS.filter((f) => f.name.startsWith('auth-')).map((f) => f.name);

/** The faults through which a participant accepts a request its validation (or decoding) must refuse. */
const VALIDATION_FAULTS = [
  'sub-command-id-empty-generated',
  'sub-ledgerstring-sanitized',
  'sub-wrong-types-coerced',
  'sub-userid-body-wins-over-token',
  'sub-synchronizer-invalid-ignored',
  'sub-synchronizer-unknown-rerouted',
  'sub-min-ledger-time-both-accepted',
  'sub-negative-dedup-accepted',
  'sub-taps-nonpositive-accepted',
];
/** sub-taps-nonpositive-accepted needs a release that knows tapsMaxPasses (its profile). */
const VALIDATION_SANDBOX = { SANDBOX_VERSION: '3.4.12' };

interface Participant {
  app: FastifyInstance;
  url: string;
  /** Submissions answered 200: each one a committed transaction. */
  accepted(): number;
}

async function faulty(faults: string[], env: Record<string, string> = {}): Promise<Participant> {
  const app = await sandbox({ ...env, SANDBOX_FAULTS: faults.join(',') });
  const url = await listen(app);
  let accepted = 0;
  app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    if (req.method !== 'POST' || !req.url?.startsWith(PATHS.submitTree)) return;
    res.on('finish', () => {
      if (res.statusCode === 200) accepted++;
    });
  });
  return { app, url, accepted: () => accepted };
}

interface ReadOnlyRun extends ChildOutcome {
  /** rule id → verdict, from the run's rule matrix. */
  verdicts: Record<string, string>;
}

async function readOnlyRun(url: string): Promise<ReadOnlyRun> {
  const out = mkdtempSync(join(tmpdir(), 'readonly-inert-'));
  // The read-only specs that submit; the others (version, vetting) only read — the ledger fixture stops any
  // submission of a @readonly rule that is not inert, in those as here.
  const specs = ['tests/auth.spec.ts', 'tests/general.spec.ts'];
  const run = await runNode(
    playwrightCommand('test', '-c', 'selftest/support/readonly-run.config.ts', ...specs),
    {
      ...cleanEnv(),
      LEDGER_BASE_URL: url,
      LEDGER_TAGS: '@readonly',
      LEDGER_REPORTS_DIR: out,
    },
  );
  const matrix = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
    rules: { id: string; verdict: string }[];
  };
  return { ...run, verdicts: Object.fromEntries(matrix.rules.map((r) => [r.id, r.verdict])) };
}

const log = (run: ChildOutcome): string => (run.stdout + run.stderr).slice(-3000);

// A child run and a preflight on cores the rest of npm test shares: a bound far above what they take.
const TIMEOUT = 240_000;

test('a read-only selection commits nothing: every authorization and validation fault on, every AUTH- rule they break still fails', async () => {
  test.setTimeout(TIMEOUT);
  for (const name of VALIDATION_FAULTS) expect(FAULTS.map((f) => f.name)).toContain(name);
  const p = await faulty([...AUTH_FAULTS, ...VALIDATION_FAULTS], VALIDATION_SANDBOX);
  try {
    // The participant does commit what a rule would send unless inert: a valid command with no token.
    const s = settingsFor({ LEDGER_BASE_URL: p.url });
    const factory = new CommandFactory(seededFaker(1), new RunIds('inert', 'SELFTEST', 0), s, s.user);
    const res = await fetch(`${p.url}${PATHS.submitTree}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(factory.submitRequest()),
    });
    expect(res.status, await res.text()).toBe(200);
    expect(p.accepted()).toBe(1);

    const run = await readOnlyRun(p.url);
    const flight = await runPreflight({ LEDGER_BASE_URL: p.url });
    expect(p.accepted() - 1, `${log(run)}\n${log(flight)}`).toBe(0);

    // The run judged the rules that submit (nothing vacuous): the GEN- probes ran, and every AUTH- rule the
    // faults break failed.
    expect(run.verdicts['GEN-NO-5XX'], log(run)).not.toBe('not-run');
    const broken = [...new Set(FAULTS.filter((f) => AUTH_FAULTS.includes(f.name)).flatMap((f) => f.rules))];
    expect(broken.length).toBeGreaterThan(10);
    const notFailed = broken.filter((id) => run.verdicts[id] !== 'fail');
    expect(notFailed, `AUTH- rules the faults break that did not fail:\n${log(run)}`).toEqual([]);
  } finally {
    await p.app.close();
  }
});
