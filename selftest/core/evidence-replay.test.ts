// The curl reproduction (core/evidence.ts) replays a test's submissions as new ones: each id the test
// generated gets a fresh value on every replay, of the same length, the same wherever the test used it, and
// the rest of every body is sent as the test sent it. Expanded by the shell with curl stood in for, and
// replayed with curl against the sandbox: a deduplication case replays as one, time and again — where the
// test's own ids would have made every replayed submission a duplicate.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import { CommandFactory, RunIds, seededFaker } from '../../core/command-factory';
import { Evidence } from '../../core/evidence';
import { validBoundaries } from '../../core/grammars';
import { PATHS } from '../../core/ledger-client';
import { clientFor, listen, settingsFor } from '../support/harness-kit';
import { sandbox, userToken } from '../sandbox/submit-kit';

const execFileAsync = promisify(execFile);

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'replay-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The script as a file (a fresh name per call). */
let scripts = 0;
function scriptFile(text: string): string {
  const file = join(dir, `replay-${++scripts}.sh`);
  writeFileSync(file, text);
  return file;
}

/** The script's fresh-id variables: name → the test's id it stands for (from its own comments). */
const variablesOf = (script: string): Map<string, string> =>
  new Map(
    [...script.matchAll(/^(ID_\d+)="\$\(fresh \d+ \d+\)" +# the test's (.+)$/gm)].map((m) => [m[1]!, m[2]!]),
  );

/** Runs the script with curl stood in for: the body of every request, and the value of each variable. */
function expand(file: string, variables: readonly string[]): { bodies: string[]; values: string[] } {
  const out = execFileSync(
    'sh',
    [
      '-c',
      `curl() { while [ $# -gt 0 ]; do [ "$1" = --data-raw ] && printf 'B%s\\0' "$2"; shift; done; }
       . "$1"; for v in ${variables.join(' ')}; do eval "printf 'V%s\\0' \\"\\$$v\\""; done`,
      'replay',
      file,
    ],
    { encoding: 'utf8' },
  );
  const parts = out.split('\0').slice(0, -1);
  return {
    bodies: parts.filter((p) => p.startsWith('B')).map((p) => p.slice(1)),
    values: parts.filter((p) => p.startsWith('V')).map((p) => p.slice(1)),
  };
}

const submission = (body: unknown) => ({
  method: 'POST',
  url: `http://127.0.0.1:9${PATHS.submitTree}`,
  requestHeaders: { 'content-type': 'application/json' },
  requestBody: JSON.stringify(body),
  authorized: true,
  status: 200,
  responseHeaders: {},
  responseBody: '{}',
  startedAt: '2026-01-01T00:00:00.000Z',
  durationMs: 1,
  error: undefined,
});

test('fresh ids: one per id of the test, as long as it, new on every replay; the rest of each body as sent', () => {
  const ids = new RunIds('20260101-000000-abcd', 'SUB-DEDUP-SAME-CHANGE-ID', 3);
  const [command, other, workflow, sub1, sub2] = [
    ids.commandId(),
    ids.commandId(),
    ids.workflowId(),
    ids.submissionId(),
    ids.submissionId(),
  ];
  const ok = ids.next('ok');
  const boundary = validBoundaries('LedgerString', { prefix: `${ok}-` })[0]!.value;
  const someoneElses = new RunIds('20260101-000000-abcd', 'SUB-SHAPE', 3).commandId();
  const bodies = [
    // Characters the shell would read inside double quotes or bare: they must reach curl as they are.
    { commandId: command, workflowId: workflow, submissionId: sub1, label: `it's $HOME \`id\` "q" \\ !` },
    { commandId: command, submissionId: sub2 }, // the duplicate: the same commandId
    { commandId: `${command}-${other}` }, // another commandId extending the first
    { commandId: boundary }, // 255 characters, the id inside
    { commandId: someoneElses }, // not an id of this test: left alone
  ].map((b) => JSON.stringify(b));
  const evidence = new Evidence(ids.pattern());
  for (const b of bodies) evidence.record(submission(JSON.parse(b)));
  const script = evidence.curl();
  expect(script).toContain("# A replay is a new submission, not a duplicate of the test's");
  execFileSync('sh', ['-n', scriptFile(script)]);

  const variables = variablesOf(script);
  expect([...variables.values()].sort()).toEqual([command, other, workflow, sub1, sub2, ok].sort());
  const file = scriptFile(script);
  const first = expand(file, [...variables.keys()]);
  const second = expand(file, [...variables.keys()]);
  for (const replay of [first, second]) {
    const fresh = new Map([...variables.values()].map((id, i) => [id, replay.values[i]!]));
    for (const [id, value] of fresh) {
      expect(value, `fresh value for ${id}`).toMatch(/^[A-Za-z0-9]+$/);
      expect(value.length, `as long as ${id}`).toBe(id.length);
    }
    expect(new Set(fresh.values()).size, 'one fresh value per id').toBe(fresh.size);
    // Each body is the test's own with each of its ids replaced by its one fresh value, and nothing else.
    expect(replay.bodies).toEqual(
      bodies.map((b) => [...fresh].reduce((body, [id, value]) => body.replaceAll(id, value), b)),
    );
  }
  const commandIdOf = (body: string) => (JSON.parse(body) as { commandId: string }).commandId;
  expect(commandIdOf(first.bodies[3]!)).toHaveLength(255);
  expect(commandIdOf(first.bodies[4]!)).toBe(someoneElses);
  for (let i = 0; i < first.values.length; i++)
    expect(second.values[i], 'a second replay has ids of its own').not.toBe(first.values[i]);
});

test.describe('against the sandbox, with curl', () => {
  let app: FastifyInstance;
  let url: string;
  test.beforeAll(async () => {
    app = await sandbox();
    url = await listen(app);
  });
  test.afterAll(async () => app.close());

  test('a deduplication case replays as one, replay after replay', async () => {
    const curl = (() => {
      try {
        return execFileSync('curl', ['--version'], { encoding: 'utf8' });
      } catch {
        return undefined;
      }
    })();
    test.skip(curl === undefined, 'curl is not installed');
    const token = await userToken();
    const ids = new RunIds(`replay${Date.now()}`, 'SUB-DEDUP-SAME-CHANGE-ID', 0);
    const evidence = new Evidence(ids.pattern());
    const client = clientFor(url, { token: () => Promise.resolve(token) }, evidence);
    const request = new CommandFactory(seededFaker(1), ids, settingsFor(), 'conformance').submitRequest();
    const original = await client.submitAndWaitForTransactionTree(request);
    const duplicate = await client.submitAndWaitForTransactionTree({
      ...request,
      submissionId: ids.submissionId(),
    });
    expect([original.status, duplicate.status], 'the test: accepted, then a duplicate').toEqual([200, 409]);

    /** The HTTP statuses a replay of the script got, in order (asynchronously: the sandbox is in this process). */
    const replay = async (script: string): Promise<number[]> => {
      const { stdout } = await execFileAsync('sh', [scriptFile(script)], {
        encoding: 'utf8',
        env: { PATH: process.env.PATH, TOKEN: token },
      });
      return [...stdout.matchAll(/^HTTP\/[\d.]+ (\d{3})/gm)].map((m) => Number(m[1]));
    };
    const script = evidence.curl();
    expect(await replay(script), 'the first replay').toEqual([200, 409]);
    expect(await replay(script), 'the next replay: new ids again').toEqual([200, 409]);

    // The same exchanges replayed with the test's own ids: every submission a duplicate of the test's.
    const ownIds = new Evidence();
    ownIds.exchanges.push(...evidence.exchanges);
    expect(await replay(ownIds.curl()), "the test's own ids").toEqual([409, 409]);
  });
});
