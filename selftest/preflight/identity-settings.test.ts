// Every identity the harness is configured with is checked before the first test: a wrong one stops the preflight
// and the run with exit 2 and ONE line that names the setting first (not a setting it makes fail next). An answer
// during a test that can only mean a configured user is unknown is a set-up verdict naming the setting, never
// the participant's failure.
import { existsSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { loadSettings } from '../../core/settings';
import { tokenProviderFor } from '../../core/token-providers';
import { SETUP } from '../../core/verdict-marks';
import { failureKind } from '../../reporters/classify';
import { runExitCode } from '../../scripts/run/target-down';
import type { ChildOutcome } from '../support/child-run';
import { runTsx } from '../support/report-kit';
import { clientFor } from '../support/harness-kit';
import { preflightBatch } from '../support/preflight-batch';
import { minimal, NS, PARTICIPANT, party, staging, SYNCHRONIZER, type Staging } from '../support/staging-kit';
import { participantAudience } from '../../core/api-paths';

const OTHER_PARTICIPANT = `staging-node-8::${NS}`;
const esc = (text: string): string => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** A command template of a package no participant vets, as a file a team would write. */
function unvetted(t: Staging): string {
  const path = join(t.dir, 'not-installed.json');
  const command = {
    CreateCommand: { templateId: '#not-installed:M:T', createArguments: { owner: '{{actAs0}}' } },
  };
  writeFileSync(path, JSON.stringify({ description: 'a package not vetted here', commands: [command] }));
  return path;
}
import { EXIT } from '../../core/exit-codes';

/** Exit 2 and one line on stderr, without the prefix; nothing secret in it. */
function settingLine(run: ChildOutcome): string {
  expect(run.status, run.stdout + run.stderr).toBe(EXIT.badSetting);
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).not.toMatch(/PRIVATE KEY|eyJ[A-Za-z0-9_-]{10,}/);
  return lines[0]!.replace(/^ledger-conformance: /, '');
}

test.describe('identity settings, checked by the preflight against a staging-like participant', () => {
  // In order in one worker: the preflight's cases share one child (support/preflight-batch.ts).
  test.describe.configure({ mode: 'default' });
  let target: Staging;
  test.beforeAll(async () => {
    target = await staging();
  });
  test.afterAll(async () => {
    await target?.app.close();
  });

  // [setting overrides, what the line starts with]: each names its setting before anything else. A template whose
  // package is not vetted, the synchronizer to be found: selftest/run/broken-listing.test.ts's run.
  const cases: [string, (t: Staging) => Record<string, string>, RegExp][] = [
    [
      'a LEDGER_PARTICIPANT_ID of another participant',
      (t) => ({ ...minimal(t, 'qa-runner'), LEDGER_PARTICIPANT_ID: OTHER_PARTICIPANT }),
      new RegExp(
        `^LEDGER_PARTICIPANT_ID=${esc(OTHER_PARTICIPANT)} is not this participant's id .*this participant is ${esc(PARTICIPANT)}`,
      ),
    ],
    [
      'a LEDGER_PARTICIPANT_ID of another participant, scope-form tokens',
      (t) => ({
        ...minimal(t, 'qa-runner'),
        LEDGER_TOKEN_FORM: 'scope',
        LEDGER_PARTICIPANT_ID: OTHER_PARTICIPANT,
      }),
      new RegExp(
        `^LEDGER_PARTICIPANT_ID=${esc(OTHER_PARTICIPANT)} is not this participant's id \\(GET \\S+ answers ${esc(PARTICIPANT)}`,
      ),
    ],
    [
      'a LEDGER_AUDIENCE naming another participant',
      (t) => ({ ...minimal(t, 'qa-runner'), LEDGER_AUDIENCE: participantAudience(OTHER_PARTICIPANT) }),
      new RegExp(
        `^LEDGER_AUDIENCE=\\S+ names another participant .*set it to ${esc(participantAudience(PARTICIPANT))}`,
      ),
    ],
    [
      'a LEDGER_AUDIENCE the participant does not accept',
      (t) => ({
        ...minimal(t, 'qa-runner'),
        LEDGER_PARTICIPANT_ID: PARTICIPANT,
        LEDGER_AUDIENCE: 'https://ledger.example.com',
      }),
      /^LEDGER_AUDIENCE=https:\/\/ledger\.example\.com is not an audience this participant accepts/,
    ],
    [
      'a LEDGER_JWT_PRIVATE_KEY the participant does not trust, its id to be asked',
      (t) => minimal(t, 'qa-runner', t.otherKeyPath),
      /^LEDGER_JWT_PRIVATE_KEY is not a key this participant trusts/,
    ],
    [
      'a LEDGER_SYNCHRONIZER_ID the participant is not connected to',
      (t) => ({ ...minimal(t, 'qa-runner'), LEDGER_SYNCHRONIZER_ID: `other-sync::${NS}` }),
      new RegExp(
        `^LEDGER_SYNCHRONIZER_ID=other-sync::\\S+ is not a synchronizer .* lists: .*${esc(SYNCHRONIZER)}`,
      ),
    ],
    [
      'a LEDGER_COMMAND_TEMPLATE whose package is not vetted, the synchronizer given',
      (t) => ({
        ...minimal(t, 'qa-runner'),
        LEDGER_SYNCHRONIZER_ID: SYNCHRONIZER,
        LEDGER_COMMAND_TEMPLATE: unvetted(t),
      }),
      /^LEDGER_COMMAND_TEMPLATE: its package not-installed is not vetted by .*, or LEDGER_SYNCHRONIZER_ID; or the participant's listing is wrong \(POST \S+ listed 0 entries of /,
    ],
    ['an unknown LEDGER_USER', (t) => minimal(t, 'qa-ghost'), /^LEDGER_USER=qa-ghost is not a user/],
    [
      'a LEDGER_ACT_AS party the user may not act as',
      (t) => ({ ...minimal(t, 'qa-runner'), LEDGER_ACT_AS: party('Nobody') }),
      /^LEDGER_ACT_AS names Nobody::\S+, which user qa-runner may not act as/,
    ],
    [
      'a LEDGER_READ_AS party the user may not read as',
      (t) => ({ ...minimal(t, 'qa-runner'), LEDGER_READ_AS: party('Nobody') }),
      /^LEDGER_READ_AS names Nobody::\S+, which user qa-runner may not read as/,
    ],
    [
      'a LEDGER_SECOND_USER without the act-as rights',
      (t) => ({ ...minimal(t, 'qa-runner'), LEDGER_SECOND_USER: 'qa-solo' }),
      /^LEDGER_SECOND_USER=qa-solo may not act as Treasury::/,
    ],
    [
      'a LEDGER_UNAUTHORIZED_PARTY the user has a right for',
      (t) => ({ ...minimal(t, 'qa-runner'), LEDGER_UNAUTHORIZED_PARTY: party('Audit') }),
      /LEDGER_UNAUTHORIZED_PARTY=Audit::/,
    ],
  ];
  /** Every case's outcome, run together when the first is read. */
  let batch: Promise<ChildOutcome[]> | undefined;
  cases.forEach(([what, , first], i) => {
    test(`${what}: exit 2, one line naming it first`, async () => {
      batch ??= preflightBatch(cases.map(([, env]) => env(target)));
      expect(settingLine((await batch)[i]!)).toMatch(first);
    });
  });

  // The run's global setup makes the preflight's checks (scripts/preflight/checks.ts): one case shows the run
  // stops on them too; each case's line is the batch's above.
  test('the run stops the same way before any test: the participant id named', async () => {
    const run = await runTsx(['scripts/run/conformance.ts', '--grep', 'VET-PAGE-ORDER'], {
      ...cases[0]![1](target),
      LEDGER_REPORTS_DIR: mkdtempSync(join(tmpdir(), 'identity-staging-')),
    });
    expect(settingLine(run)).toMatch(cases[0]![2]);
  });
});

// The run stops the same way: its global setup makes the preflight's checks (scripts/preflight/checks.ts). An
// unknown LEDGER_SECOND_USER is shown here only, the run nearer a user than the preflight.
test('against the in-process sandbox: a wrong identity stops the run before any test, and leaves no earlier report', async () => {
  const out = mkdtempSync(join(tmpdir(), 'identity-sandbox-'));
  // What an earlier run left: it must not be read as this run's.
  writeFileSync(join(out, 'conformance.md'), '# Conformance: passed\n');
  writeFileSync(join(out, 'conformance.json'), '{"status":"passed"}\n');
  const run = await runTsx(['scripts/run/conformance.ts', '--grep', 'SUB-DEDUP-NEW-USER-ID'], {
    LEDGER_SECOND_USER: 'no-such-user',
    LEDGER_REPORTS_DIR: out,
  });
  expect(settingLine(run)).toMatch(/^LEDGER_SECOND_USER=no-such-user is not a user of this participant/);
  for (const f of ['conformance.md', 'conformance.json'])
    expect(existsSync(join(out, f)), `${f} of the earlier run`).toBe(false);
});

test.describe('a configured user unknown during a test: a set-up verdict naming the setting', () => {
  let target: Staging;
  test.beforeAll(async () => {
    target = await staging();
  });
  test.afterAll(async () => {
    await target?.app.close();
  });

  test('the ledger client marks it, only for a token of a configured identity', async () => {
    const provider = tokenProviderFor(loadSettings(minimal(target, 'qa-runner')));
    const token = await provider.minter!.mint({ sub: 'no-such-user' });
    const client = clientFor(target.url, provider);
    const refused = client.listVettedPackages({}, { token, identity: 'LEDGER_SECOND_USER=no-such-user' });
    await expect(refused).rejects.toThrow(`${SETUP} LEDGER_SECOND_USER=no-such-user:`);
    await expect(refused).rejects.toThrow(/set LEDGER_SECOND_USER to a user of this participant/);
    // The same answer to a token the rule chose (AUTH-UNKNOWN-USER's): the participant's answer to judge.
    const judged = await client.listVettedPackages({}, { token });
    expect(judged.status).toBe(403);
  });

  test('the verdict is set-up, not a failure; a run with only that exits 2', () => {
    const message = `${SETUP} LEDGER_SECOND_USER=x: POST /v2/commands/… answered 403 "invalid token"`;
    expect(failureKind([message], [])).toBe('setup');
    const dir = mkdtempSync(join(tmpdir(), 'identity-exit-'));
    const matrix = join(dir, 'conformance.json');
    writeFileSync(matrix, JSON.stringify({ tests: [{ verdict: 'pass' }, { verdict: 'setup' }] }));
    expect(runExitCode(matrix, 1)).toBe(EXIT.badSetting);
    writeFileSync(matrix, JSON.stringify({ tests: [{ verdict: 'fail' }, { verdict: 'setup' }] }));
    expect(runExitCode(matrix, 1)).toBe(EXIT.failed);
  });
});
