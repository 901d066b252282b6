// No reporter ever receives a token, whichever a user picks. The suite runs against participants that fail in
// every way a transport can fail and one that answers with failures (echoing the token back), once, with every
// built-in Playwright reporter at the same time (html, blob, json, junit, list, line, dot, github) plus a
// user's own that writes everything a reporter is handed (support/dump-reporter.ts). Every file any of them
// wrote — the HTML report's embedded data and the blob's zip entries included — and the console are scanned
// for the tokens sent, the HMAC secret and JWT shapes.
import { randomUUID } from 'node:crypto';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { specsIn } from '../support/json-report';
import { describeHits, scanForSecrets } from '../../reporters/secret-scan';
import { cleanEnv, runNode } from '../support/child-run';
import type { LeakProject } from '../support/leak-run.config';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { EXIT } from '../../core/exit-codes';
import { closedPort } from '../support/webhook-receiver';

const VERSION = {
  version: '3.4.11',
  features: {
    experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
    userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
    partyManagement: { maxPartiesPageSize: 10000 },
    offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0 } },
    packageFeature: { maxVettedPackagesPageSize: 100 },
  },
};

/**
 * One participant on 127.0.0.1, its behaviour chosen by the first path segment of the base URL: /v2/version
 * answers (so the tests get as far as their operation), every other request of
 *   /reset — headers and half a body, then the connection is reset;
 *   /hang  — never answered;
 *   /fail  — 400 with a body of the wrong shape echoing the Authorization header (the version too is broken).
 * Every Authorization header received is kept: proof the tokens were sent.
 */
async function participant(): Promise<{ url: string; received: string[]; close: () => Promise<void> }> {
  const received: string[] = [];
  const server: Server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const [, mode, ...rest] = (req.url ?? '/').split('/');
    const path = `/${rest.join('/')}`;
    const auth = req.headers.authorization ?? '';
    if (auth) received.push(auth);
    req.resume();
    const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
      res.writeHead(status, { 'content-type': 'application/json', ...headers }).end(JSON.stringify(body));
    if (mode === 'fail') {
      if (path === '/v2/version')
        return json(200, { version: '3.4.11', features: 'all of them', echoedAuthorization: auth });
      return json(
        400,
        { code: 42, cause: ['not', 'a', 'JsCantonError'], echoedAuthorization: auth },
        { 'x-echo-authorization': auth },
      );
    }
    if (path === '/v2/version') return json(200, VERSION);
    if (mode === 'reset') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '4096' });
      res.write('{"vettedPackages":[');
      setTimeout(() => req.socket.resetAndDestroy(), 20);
      return;
    }
    // /hang: no answer; the socket is closed when the server closes.
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    close: () =>
      new Promise<void>((ok) => {
        server.closeAllConnections();
        server.close(() => ok());
      }),
  };
}

/** Every built-in reporter, and a user's own. */
const REPORTERS = [
  'list',
  'line',
  'dot',
  'github',
  'html',
  'blob',
  'json',
  'junit',
  './selftest/support/dump-reporter.ts',
];

function resultsOf(report: string): { project: string; status: string; error: string }[] {
  return specsIn(report).flatMap((spec) =>
    spec.tests.flatMap((t) =>
      t.results.map((r) => ({
        project: t.projectName,
        status: r.status,
        // A target found gone ends its tests at set-up: the reason is the skip annotation, not an error.
        error: [
          ...r.errors.map((e) => e.message ?? ''),
          ...(t.annotations ?? []).map((a) => a.description ?? ''),
        ].join('\n'),
      })),
    ),
  );
}

test('no reporter receives a token, a secret or a key when requests fail in every way and assertions fail', async () => {
  // Several times what the child run takes on a loaded 2-core machine.
  test.setTimeout(150_000);
  const target = await participant();
  const out = mkdtempSync(join(tmpdir(), 'reporter-leaks-'));
  try {
    const staticToken = `planted-static-token-${randomUUID()}`;
    const hmacSecret = `planted-hmac-secret-${randomUUID()}`;
    const shapes = 'VER-SHAPE|VET-SHAPE|SUB-SHAPE';
    // The run's token is a static opaque one (only its literal can give it away, not a JWT shape); the other
    // projects mint HS256 tokens instead. Tokens come from the environment, never from a project's `use`:
    // that is configuration, which the JSON reporter writes out.
    const minted = { LEDGER_AUTH: 'hs256', LEDGER_TOKEN: '' };
    // One test per way a transport fails (a POST where the request must get through /v2/version first), and
    // every shape rule where the answers are judged wrong. Playwright starts a worker per project and another
    // after each failed test: a test more is a worker start more, not more evidence.
    const plan: LeakProject[] = [
      { name: 'refused', url: `http://127.0.0.1:${await closedPort()}`, grep: 'VET-SHAPE', env: minted },
      // Plain HTTP spoken to by TLS: the handshake fails.
      {
        name: 'tls',
        url: `https://127.0.0.1:${new URL(target.url).port}/fail`,
        grep: 'VET-SHAPE',
        env: minted,
      },
      // .invalid never resolves (RFC 2606), without a network.
      { name: 'dns', url: 'http://ledger.invalid', grep: 'VET-SHAPE', env: minted },
      { name: 'reset', url: `${target.url}/reset`, grep: 'VET-SHAPE', env: {} },
      { name: 'hang', url: `${target.url}/hang`, grep: 'VET-SHAPE', env: minted },
      { name: 'fail', url: `${target.url}/fail`, grep: shapes, env: minted },
      // The static token echoed back: an opaque token, masked only because the harness registers it.
      { name: 'fail-static', url: `${target.url}/fail`, grep: 'VER-SHAPE|SUB-SHAPE', env: {} },
    ];
    const run = await runNode(
      playwrightCommand(
        'test',
        '-c',
        'selftest/support/leak-run.config.ts',
        `--reporter=${REPORTERS.join(',')}`,
      ),
      {
        ...cleanEnv(),
        LEAK_RUN_OUT: out,
        LEAK_RUN_PLAN: JSON.stringify(plan),
        LEDGER_HMAC_SECRET: hmacSecret,
        LEDGER_AUTH: 'static',
        LEDGER_TOKEN: staticToken,
        LEDGER_USER: 'conformance',
        // Requests time out after 2 s (20 s × 0.1): the hanging target costs seconds, not minutes.
        LEDGER_TIMEOUT_SCALE: '0.1',
        PLAYWRIGHT_HTML_OUTPUT_DIR: join(out, 'html'),
        PLAYWRIGHT_HTML_OPEN: 'never',
        PLAYWRIGHT_BLOB_OUTPUT_DIR: join(out, 'blob'),
        PLAYWRIGHT_JSON_OUTPUT_FILE: join(out, 'report.json'),
        PLAYWRIGHT_JUNIT_OUTPUT_FILE: join(out, 'junit.xml'),
        DUMP_REPORTER_FILE: join(out, 'dump.jsonl'),
      },
    );
    const console = `${run.stdout}\n${run.stderr}`;
    writeFileSync(join(out, 'console.txt'), console);
    const tail = console.slice(-3000);

    // The run went where it had to: every reporter wrote, every way of failing happened, tokens were sent.
    expect(run.status, tail).toBe(EXIT.failed);
    for (const f of ['html/index.html', 'report.json', 'junit.xml', 'dump.jsonl'])
      expect(readdirSync(join(out, f, '..')), `${f} written`).toContain(f.split('/').pop());
    expect(readdirSync(join(out, 'blob')).some((f) => f.endsWith('.zip'))).toBe(true);
    const results = resultsOf(join(out, 'report.json'));
    const errorsOf = (project: string) =>
      results
        .filter((r) => r.project === project)
        .map((r) => r.error)
        .join('\n');
    expect(errorsOf('refused')).toContain(
      'target lost: GET /v2/version got no response: the connection was refused (ECONNREFUSED)',
    );
    expect(errorsOf('tls')).toMatch(
      /target lost: GET \/v2\/version got no response: the TLS connection failed \(\w+\)/,
    );
    expect(errorsOf('dns')).toMatch(
      /target lost: GET \/v2\/version got no response: the host name could not be resolved \((ENOTFOUND|EAI_AGAIN)\)/,
    );
    expect(errorsOf('reset')).toMatch(
      /\[inconclusive\] POST \/v2\/\S+(?: \(.*?\))? got no response: the connection was closed before the answer was complete/,
    );
    expect(errorsOf('hang')).toMatch(
      /\[inconclusive\] POST \/v2\/\S+(?: \(.*?\))? got no response: no complete answer within 2000 ms/,
    );
    // Assertion failures, not transport ones: the answers were judged and found wrong.
    expect(errorsOf('fail')).toMatch(/expect\(/);
    expect(errorsOf('fail'), 'the echoing 400s were judged').toMatch(/\b400\b/);
    expect(errorsOf('fail-static'), 'the static token was echoed and judged').toMatch(/\b400\b/);
    expect(target.received).toContain(`Bearer ${staticToken}`);
    expect(
      target.received.some((a) => a.startsWith('Bearer eyJ')),
      'minted tokens were sent',
    ).toBe(true);
    // The evidence is still attached, redacted (the dump reporter writes attachment bodies in clear).
    const dump = readFileSync(join(out, 'dump.jsonl'), 'utf8');
    expect(dump).toContain('authorization: Bearer <redacted>');
    expect(dump).toContain('Authorization: Bearer $TOKEN');

    // Nothing any reporter wrote holds a token, the secret or a JWT; console included (console.txt).
    const hits = scanForSecrets(
      [out],
      [
        { kind: 'the static token', value: staticToken },
        { kind: 'LEDGER_HMAC_SECRET', value: hmacSecret },
      ],
    );
    expect(hits, describeHits(hits)).toEqual([]);
    rmSync(out, { recursive: true, force: true }); // kept when an assertion failed, for a look
  } finally {
    await target.close();
  }
});
