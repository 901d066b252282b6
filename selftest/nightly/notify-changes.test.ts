// scripts/nightly/notify-changes.ts, the nightly's webhook step: one {"text"} message to a webhook on
// 127.0.0.1 when a verdict changed since the baseline, none when nothing changed or there was nothing to
// compare with; never a token, a secret setting, the webhook's own URL or a URL's credentials in it, even
// when the files hold them.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { changesMessage, main, MAX_IDS, type RunMatrix } from '../../scripts/nightly/notify-changes';
import { cleanEnv, runNode, type ChildOutcome } from '../support/child-run';
import { startReceiver, type Receiver } from '../support/webhook-receiver';
import { CHANGE_KINDS, type ChangeKind, type ChangeRow } from '../../reporters/run-history';
import { EXIT } from '../../core/exit-codes';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJxYS1ydW5uZXIiLCJzY29wZSI6ImRhbWxfbGVkZ2VyX2FwaSJ9.c2lnbmF0dXJlc2lnbmF0dXJl';
const TOKEN = 'opaque-static-token-7f3a9c';
const PASSWORD = 'pa55-w0rd-Q8';

const row = (
  rule: string,
  before: ChangeRow['before'] = 'pass',
  after: ChangeRow['after'] = 'fail',
): ChangeRow => ({
  rule,
  before,
  after,
});
const noChanges = Object.fromEntries(CHANGE_KINDS.map((k) => [k, []])) as unknown as Record<
  ChangeKind,
  ChangeRow[]
>;
const since = { kind: 'previous' as const, generatedAt: '2026-11-25T02:31:07.123Z', target: {} };

/** A night of `staging` with changes, every file field that could carry a credential carrying one. */
const changed: RunMatrix = {
  runId: 'nightly-42-1',
  targetLost: `target lost: GET http://qa:${PASSWORD}@participant.example.com/v2/version got no response`,
  target: { baseUrl: `https://qa:${PASSWORD}@participant.example.com/api/json` },
  changes: {
    since,
    ...noChanges,
    newFailures: [row('SUB-DEDUP-PARALLEL'), row(`AUTH-${JWT}`), row(`VET-${TOKEN}`)],
    fixed: [row('VET-PAGE-ORDER', 'fail', 'pass')],
    newSkips: Array.from({ length: MAX_IDS + 2 }, (_, i) => row(`GEN-${i + 1}`, 'pass', 'skip')),
  },
};

let dir: string;
let receiver: Receiver;
test.beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'notify-changes-'));
  receiver = await startReceiver();
});
test.afterAll(async () => {
  await receiver.close();
  rmSync(dir, { recursive: true, force: true });
});
test.beforeEach(() => {
  receiver.received.length = 0;
  receiver.status = 200;
});

/** A run folder named `name` with this conformance.json. */
function runDir(name: string, matrix: unknown): string {
  const d = join(dir, name);
  mkdirSync(d, { recursive: true });
  writeFileSync(join(d, 'conformance.json'), JSON.stringify(matrix));
  return d;
}

/** The step's environment: the run's secrets in it as CI would have them. */
const stepEnv = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...cleanEnv(),
  CONFORMANCE_WEBHOOK_URL: receiver.url,
  GITHUB_SERVER_URL: 'https://github.com',
  GITHUB_REPOSITORY: 'example/ledger-conformance',
  GITHUB_RUN_ID: '4242',
  LEDGER_TOKEN: TOKEN,
  ...env,
});
/** The step's command, as the workflow runs it. */
const notify = (dirs: string[], env: NodeJS.ProcessEnv = {}) =>
  runNode(['--require', 'tsx/cjs', 'scripts/nightly/notify-changes.ts', ...dirs], stepEnv(env));
/** The command's main in this process: its exit code and lines as `notify` gives them, without a process. */
async function notifyHere(dirs: string[], env: NodeJS.ProcessEnv = {}): Promise<ChildOutcome> {
  const out = { stdout: '', stderr: '' };
  const write = {
    stdout: (l: string) => void (out.stdout += l),
    stderr: (l: string) => void (out.stderr += l),
  };
  return { status: await main(dirs, stepEnv(env), write), ...out };
}

test('a changed verdict: one JSON message naming the target, the baseline, counts and rule ids; no secret in it', async () => {
  const o = await notify([
    runDir('sandbox', { changes: { since, ...noChanges } }),
    runDir('staging', changed),
  ]);
  expect(o.status, o.stdout + o.stderr).toBe(0);
  expect(o.stdout).toBe('notify-changes: posted the changes of 1 target(s) to the webhook\n');
  expect(receiver.received).toHaveLength(1);
  const [post] = receiver.received;
  expect(post!.method).toBe('POST');
  expect(post!.headers['content-type']).toBe('application/json');
  const body = JSON.parse(post!.body) as Record<string, unknown>;
  expect(Object.keys(body)).toEqual(['text']);
  for (const secret of [JWT, TOKEN, PASSWORD, 'qa:', receiver.url, new URL(receiver.url).pathname]) {
    expect(post!.body, secret).not.toContain(secret);
    expect(o.stdout + o.stderr, secret).not.toContain(secret);
  }
  const text = String(body.text);
  expect(text.split('\n')).toEqual([
    'ledger-conformance: verdicts changed',
    '• staging (https://participant.example.com/api/json), since the previous run of 2026-11-25 02:31 UTC:',
    '  3 new failures: SUB-DEDUP-PARALLEL, AUTH-<redacted>, VET-<redacted>',
    '  1 fixed: VET-PAGE-ORDER',
    '  7 new skips: GEN-1, GEN-2, GEN-3, GEN-4, GEN-5 and 2 more',
    '  the participant did not answer: target lost: GET http://<redacted>@participant.example.com/v2/version got no response',
    'Run: https://github.com/example/ledger-conformance/actions/runs/4242',
  ]);
});

test('nothing changed, nothing to compare with, or an older run without changes: nothing is posted', async () => {
  const dirs = [
    runDir('same', { changes: { since, ...noChanges } }),
    // Nothing to compare with: whatever a list says, nothing changed since anything.
    runDir('first', { changes: { since: null, ...noChanges, newFailures: [row('SUB-DEDUP-PARALLEL')] } }),
    runDir('older', { generatedAt: '2026-11-01T00:00:00Z', status: 'passed', rules: [] }),
  ];
  const o = await notifyHere(dirs);
  expect(o.status, o.stdout + o.stderr).toBe(0);
  expect(o.stdout).toBe(
    'notify-changes: the participant changed no verdict since the runs compared with: nothing to post\n',
  );
  expect(receiver.received).toEqual([]);
});

test('a webhook that refuses, a URL that is not one, a folder that is not a run: one line each, never the URL', async () => {
  receiver.status = 404;
  // The command's own process for the last (its exit code set by the entry); the others by its main.
  const refused = await notifyHere([runDir('staging', changed)]);
  expect(refused.status).toBe(EXIT.failed);
  expect(refused.stderr).toBe(
    'notify-changes: the webhook in CONFORMANCE_WEBHOOK_URL answered 404: check that the URL is current (a revoked webhook answers 403 or 404)\n',
  );
  expect(receiver.received).toHaveLength(1);
  const notUrl = await notifyHere([runDir('staging', changed)], {
    CONFORMANCE_WEBHOOK_URL: 'hooks.example.com/abc',
  });
  expect(notUrl.status).toBe(EXIT.badSetting);
  expect(notUrl.stderr).toMatch(
    /^notify-changes: CONFORMANCE_WEBHOOK_URL is not an http\(s\) URL: [^\n]+\n$/,
  );
  expect(notUrl.stderr).not.toContain('hooks.example.com');
  const notRun = await notify([dir]);
  expect(notRun.status).toBe(EXIT.badSetting);
  expect(notRun.stderr).toBe(
    `notify-changes: ${dir} holds no readable conformance.json: give the reports folders of runs (npm run conformance, npm run merge)\n`,
  );
  expect(receiver.received).toHaveLength(1);
});

test('a named baseline is named; no CI run, no link', () => {
  const text = changesMessage(
    [
      {
        label: 'qa',
        matrix: {
          changes: {
            since: { kind: 'named', name: 'release-3.4', generatedAt: '2026-10-01T12:00:00Z', target: {} },
            ...noChanges,
            deviationsGone: [row('VET-FILTER', 'known-deviation', 'pass')],
          },
        },
        baseUrl: 'in-process sandbox',
      },
    ],
    {},
  );
  expect(text).toBe(
    'ledger-conformance: verdicts changed\n' +
      '• qa (in-process sandbox), since baseline "release-3.4" of 2026-10-01 12:00 UTC:\n' +
      '  1 known deviation gone: VET-FILTER',
  );
});

test('a verdict an expectations file changed, a harness defect, a first verdict: no change of the participant, nothing posted', () => {
  const matrix: RunMatrix = {
    changes: {
      since,
      ...noChanges,
      expectationsChanged: [row('VER-SHAPE', 'unexpected-pass', 'pass')],
      harnessDefects: [row('GEN-ERROR-BODY', 'pass', 'harness-defect')],
      firstVerdicts: [row('VER-NEW', 'absent', 'pass')],
    },
  };
  expect(changesMessage([{ label: 'qa', matrix }], {})).toBeUndefined();
});
