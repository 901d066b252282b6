// `npm run preflight` (scripts/preflight/preflight.ts) against a staging-like participant
// (selftest/support/staging-kit): ready with only the URL, the RS256 key and the user; and a wrong token and a
// user without rights each stop it with ONE line saying what is wrong and what to set (exit 2), with no secret
// in it (each identity setting's own line: selftest/preflight/identity-settings.test.ts). Nothing is submitted:
// the preflight only reads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { runPreflight, type ChildOutcome } from '../support/child-run';
import { stagingAndNotLedgerApis } from '../support/not-ledger-api';
import { preflightBatch } from '../support/preflight-batch';
import { minimal } from '../support/staging-kit';
import { EXIT } from '../../core/exit-codes';

/** Exit 2, nothing on stdout, one line on stderr; the line is returned. */
function oneLine(run: ChildOutcome): string {
  expect(run.status, run.stdout + run.stderr).toBe(EXIT.badSetting);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).not.toMatch(/PRIVATE KEY|eyJ[A-Za-z0-9_-]{10,}/);
  return lines[0]!;
}

test.describe('npm run preflight', () => {
  // In order in one worker: the cases but the ready one and the web server share one child
  // (support/preflight-batch.ts); those two run the command in a process of its own, its entry's exit code.
  test.describe.configure({ mode: 'default' });
  const at = stagingAndNotLedgerApis();
  /** The settings of the batched cases, by name. */
  const cases = () => ({
    wrongTokenParticipant: {
      ...minimal(at.target, 'qa-runner', at.target.otherKeyPath),
      LEDGER_PARTICIPANT_ID: 'p::1220ab',
    },
    noRights: minimal(at.target, 'qa-none'),
    down: { ...minimal(at.target, 'qa-runner'), LEDGER_BASE_URL: `${at.webUrl}/down` },
    noBaseline: {
      ...minimal(at.target, 'qa-runner'),
      LEDGER_COMPARE_WITH: 'no-such-baseline',
      LEDGER_REPORTS_DIR: join(at.target.dir, 'reports'),
    },
    waivers: { ...minimal(at.target, 'qa-runner'), LEDGER_EXPECTATIONS: `canton,${waivers()}` },
  });
  /** A team's layer: one waiver past its day, one ending in three days, one far off. */
  const waivers = () => {
    const file = join(at.target.dir, 'waivers.json');
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    const deviations = [
      { rule: 'VER-SEMVER', expect: 'fail', reason: 'ran out', owner: 'qa', until: day(-2) },
      { rule: 'VER-SHAPE', expect: 'fail', reason: 'ends soon', owner: 'qa', ticket: 'QA-7', until: day(3) },
      { rule: 'VER-FEATURES', expect: 'fail', reason: 'far off', until: day(60) },
    ];
    writeFileSync(file, JSON.stringify({ name: 'team', deviations }));
    return file;
  };
  /** The batched cases by name, run together when the first of them is read. */
  let batch: Promise<Record<string, ChildOutcome>> | undefined;
  const batched = async (name: keyof ReturnType<typeof cases>): Promise<ChildOutcome> => {
    batch ??= (async () => {
      const named = Object.entries(cases());
      const outcomes = await preflightBatch(named.map(([, env]) => env));
      return Object.fromEntries(named.map(([n], i) => [n, outcomes[i]!]));
    })();
    return (await batch)[name]!;
  };

  test('ready: every identity value with its source, and the rules that will skip and why', async () => {
    const run = await runPreflight(minimal(at.target, 'qa-solo'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('ledger-conformance preflight: ready');
    expect(run.stdout).toMatch(
      /LEDGER_ACT_AS +Solo::\S+ \(discovered via GET \/v2\/users\/qa-solo\/rights\)/,
    );
    expect(run.stdout).toContain('canton-ping (picked: canton-builtin-admin-workflow-ping is vetted');
    expect(run.stdout).toContain('will skip');
    expect(run.stdout).toContain('SUB-DEDUP-ACTAS-ORDER, SUB-DEDUP-NEW-ACTAS: needs two actAs parties');
    // The participant's own API description: the count of its differences from the document.
    expect(run.stdout).toMatch(/\n {2}description +read: \d+ differences? from the document/);
    expect(run.stdout).not.toMatch(/PRIVATE KEY|eyJ[A-Za-z0-9_-]{10,}/);
  });

  test('a wrong token with the participant given: one line naming the key to set', async () => {
    const line = oneLine(await batched('wrongTokenParticipant'));
    expect(line).toMatch(
      /^ledger-conformance: LEDGER_JWT_PRIVATE_KEY is not a key this participant trusts: the participant refused the harness's token \(.* answered 401\): set it/,
    );
  });

  test('a user without rights: one line naming the user and what to set', async () => {
    const line = oneLine(await batched('noRights'));
    expect(line).toContain('user qa-none has no CanActAs right');
    expect(line).toContain('LEDGER_USER');
  });

  test('a baseline this target lacks (LEDGER_COMPARE_WITH): one line naming it, exit 2, as the run', async () => {
    const line = oneLine(await batched('noBaseline'));
    expect(line).toMatch(
      /^ledger-conformance: LEDGER_COMPARE_WITH=no-such-baseline: this target \(.*\) has no baseline/,
    );
  });

  test('waivers expired or ending within a week are listed, the others not', async () => {
    const run = await batched('waivers');
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toMatch(
      /\n {2}expectations +canton \(\d+ entries\) \+ \S+waivers\.json \(3 entries, 1 expired\)/,
    );
    expect(run.stdout).toMatch(
      /\n {2}waiver expired +VER-SEMVER \(\S+waivers\.json, owner qa\): past its until day \d{4}-\d\d-\d\d/,
    );
    expect(run.stdout).toMatch(
      /\n {2}waiver expiring +VER-SHAPE \(\S+waivers\.json, owner qa, QA-7\): until \S+ \(in 3 days\)/,
    );
    expect(run.stdout).not.toContain('VER-FEATURES (');
  });

  // The CLI's line and exit code for each kind; every case of each, in-process, in
  // selftest/preflight/target.test.ts.
  test('a web server: one line naming LEDGER_BASE_URL (exit 2), before any identity is asked for', async () => {
    const line = oneLine(
      await runPreflight({ ...minimal(at.target, 'qa-runner'), LEDGER_BASE_URL: at.webUrl }),
    );
    expect(line).toBe(
      `ledger-conformance: LEDGER_BASE_URL=${at.webUrl} serves no Canton JSON Ledger API v2 (GET /v2/version answered 404 with an HTML page): set it to the JSON API's address, with its port (7575 by default, not the gRPC port) and any path prefix in front of /v2, e.g. https://participant.example.com/api/json`,
    );
  });

  test('a proxy whose participant is down (502): the target is down, exit 4', async () => {
    const base = `${at.webUrl}/down`;
    const run = await batched('down');
    expect(run.status, run.stderr).toBe(EXIT.targetDown);
    expect(run.stderr.trimEnd()).toBe(
      `ledger-conformance: the target LEDGER_BASE_URL=${base} cannot be reached: GET /v2/version answered 502 on every try (4), a participant down, not ready or too busy (or a proxy in front of one); check that the participant behind LEDGER_BASE_URL is running and its JSON Ledger API has started`,
    );
  });
});
