// A participant unlike the development defaults (participant id, synchronizer, users, parties, RS256 tokens
// from a JWKS, every AUTH- rule judging them and the negative tokens minted with the key) passes the conformance
// suite given only LEDGER_BASE_URL, the auth settings and the user — the rest discovered by the global setup —
// with the same verdict for every test as a run given every identity setting explicitly: the suite twice in a
// child Playwright (selftest/support/discovery-run.config.ts). A user with a single actAs party: its discovery is
// selftest/core/discovery.test.ts's, the suite's skips for it selftest/preflight/forecast-skips.test.ts's.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { runLean, runPreflight, type ChildOutcome } from '../support/child-run';
import { forecastOf, skipsOf } from '../support/forecast';
import { minimal, party, PARTICIPANT, staging, SYNCHRONIZER, type Staging } from '../support/staging-kit';

interface Run extends ChildOutcome {
  out: string;
}

async function suite(env: Record<string, string>): Promise<Run> {
  const out = mkdtempSync(join(tmpdir(), 'discovery-run-'));
  return { ...(await runLean(out, env)), out };
}

/** test title → verdict, from the run's rule matrix. */
function verdicts(run: Run): Record<string, string> {
  const matrix = JSON.parse(readFileSync(join(run.out, 'conformance.json'), 'utf8')) as {
    tests: { title: string; verdict: string }[];
  };
  return Object.fromEntries(matrix.tests.map((t) => [t.title, t.verdict]));
}

const identityOf = (run: Run): Record<string, { value: string; source: string }> =>
  (JSON.parse(readFileSync(join(run.out, 'target.json'), 'utf8')) as { identity: never }).identity;

const log = (run: Run): string => (run.stdout + run.stderr).slice(-4000);

/** Neither the key nor a token may reach the output. */
function expectNoSecret(run: Run): void {
  const all = run.stdout + run.stderr;
  expect(all).not.toContain('PRIVATE KEY');
  expect(all).not.toMatch(/eyJ[A-Za-z0-9_-]{10,}\.[A-Za-z0-9_-]{10,}/);
}

// Two suite runs per test, each given three times what it takes on a loaded 2-core machine.
const TIMEOUT = 420_000;

test.describe('discovery in a conformance run against a staging-like participant', () => {
  let target: Staging;
  test.beforeAll(async () => {
    target = await staging();
  });
  test.afterAll(async () => {
    await target?.app.close();
  });

  test('only URL, RS256 key and user: every verdict as with every identity setting given', async () => {
    test.setTimeout(TIMEOUT);
    const discovered = await suite(minimal(target, 'qa-runner'));
    expect(discovered.status, log(discovered)).toBe(0);
    // Its RS256 tokens and the negative ones minted with its key, each judged by an AUTH- rule: none skipped.
    const auth = Object.entries(verdicts(discovered)).filter(([title]) => title.startsWith('AUTH-'));
    expect(auth.length).toBeGreaterThan(20);
    expect(auth.filter(([, verdict]) => verdict !== 'pass')).toEqual([]);
    const explicit = await suite({
      ...minimal(target, 'qa-runner'),
      LEDGER_PARTICIPANT_ID: PARTICIPANT,
      LEDGER_ACT_AS: `${party('Treasury')},${party('Ops')}`,
      LEDGER_READ_AS: party('Audit'),
      LEDGER_UNAUTHORIZED_PARTY: party('Nobody'),
      LEDGER_SYNCHRONIZER_ID: SYNCHRONIZER,
      LEDGER_COMMAND_TEMPLATE: 'canton-ping',
    });
    expect(explicit.status, log(explicit)).toBe(0);
    expect(verdicts(discovered)).toEqual(verdicts(explicit));
    expect(Object.keys(verdicts(discovered)).length).toBeGreaterThan(100);
    // The preflight's forecast is what the run skipped, word for word (no control route here: its rule too).
    const preflight = await runPreflight(minimal(target, 'qa-runner'));
    expect(preflight.status, preflight.stderr).toBe(0);
    expect(forecastOf(preflight.stdout)).toEqual(skipsOf(discovered.out));
    expect(skipsOf(discovered.out)['VET-PAGE-TOKEN-REPEAT-MORE']).toContain('no control route');

    // The run says where each value came from, in its output and in target.json.
    const id = identityOf(discovered);
    expect(id.LEDGER_PARTICIPANT_ID).toEqual({
      value: PARTICIPANT,
      source: 'discovered via GET /v2/parties/participant-id, with a scope-form token',
    });
    expect(id.LEDGER_USER?.source).toBe('LEDGER_USER');
    expect(id.LEDGER_ACT_AS).toEqual({
      value: `${party('Treasury')},${party('Ops')}`,
      source: 'discovered via GET /v2/users/qa-runner/rights',
    });
    expect(id.LEDGER_READ_AS?.value).toBe(party('Audit'));
    expect(id.LEDGER_SYNCHRONIZER_ID?.source).toContain('GET /v2/state/connected-synchronizers');
    expect(id.LEDGER_UNAUTHORIZED_PARTY?.value).toMatch(/^conformance-unauthorized::/);
    expect(id.LEDGER_COMMAND_TEMPLATE?.value).toBe('canton-ping');
    expect(discovered.stdout).toContain('discovered via GET /v2/users/qa-runner/rights');
    expect(identityOf(explicit).LEDGER_ACT_AS?.source).toBe('LEDGER_ACT_AS');
    expectNoSecret(discovered);
    expectNoSecret(explicit);
    // Two whole suites' answers: none is fastify's or V8's.
    expect(target.frameworkAnswers).toEqual([]);
  });
});
