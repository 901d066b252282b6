// Redaction is proven, not promised: a planted token never appears in a transcript, a curl line, a matcher
// message, a transport error — nor anywhere a real failing run writes (Allure results, attachments, JUnit,
// test-results, terminal output). The target is an echo server that sends the Authorization header back.
import { randomUUID } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import Fastify, { type FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { Evidence } from '../../core/evidence';
import { expect as harnessExpect } from '../../fixtures/matchers';
import { redact, registerSecret } from '../../core/redact';
import { runNode, type ChildOutcome } from '../support/child-run';
import { clientFor, listen } from '../support/harness-kit';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { EXIT } from '../../core/exit-codes';

/** Answers 500 to everything, echoing the Authorization header in a response header and in the JSON body. */
async function startEcho(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
  app.all('/*', async (req, reply) =>
    reply
      .code(500)
      .header('x-echo-authorization', req.headers.authorization ?? '')
      .send({ code: 'ECHO', echoedAuthorization: req.headers.authorization ?? null, body: req.body ?? null }),
  );
  return { app, url: await listen(app) };
}

function runPlaywright(args: string[], env: NodeJS.ProcessEnv): Promise<ChildOutcome> {
  return runNode(playwrightCommand(...args), env);
}

function filesUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

test.describe('redaction at the source', () => {
  let echo: Awaited<ReturnType<typeof startEcho>>;
  test.beforeAll(async () => (echo = await startEcho()));
  test.afterAll(async () => echo.app.close());

  test('an echoed JWT appears in no transcript, curl line or matcher message', async () => {
    // Signed with a random key and never registered: only the JWT shape can give it away.
    const planted = await new SignJWT({ scope: 'daml_ledger_api' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(`planted-${randomUUID()}`)
      .sign(new TextEncoder().encode(randomUUID()));
    const client = clientFor(echo.url, { token: () => Promise.resolve(planted) });
    const res = await client.listVettedPackages({ pageSize: 1 });
    expect(res.text, 'the echo server did echo it (else this test proves nothing)').toContain(planted);

    const transcript = client.evidence.transcript();
    const curl = client.evidence.curl();
    expect(transcript).not.toContain(planted);
    expect(transcript).toContain('authorization: Bearer <redacted>');
    expect(transcript).toContain('x-echo-authorization: Bearer <redacted>');
    expect(curl).not.toContain(planted);
    expect(curl).toContain('-H "Authorization: Bearer $TOKEN"');
    expect(curl).toContain('--data-raw \'{"pageSize":1}\'');

    const messages: string[] = [];
    for (const check of [
      () => harnessExpect(res).toHaveStatus(200),
      () => harnessExpect(res).toBeCantonError({ status: 500, code: 'INTERNAL' }),
      () => harnessExpect(res.json).toMatchSchema('version-response'),
    ]) {
      try {
        check();
      } catch (e) {
        messages.push((e as Error).message);
      }
    }
    expect(messages).toHaveLength(3);
    for (const m of messages) expect(m).not.toContain(planted);
  });

  test('a transport failure reports no token', async () => {
    const planted = `opaque-transport-${randomUUID()}`;
    registerSecret(planted);
    // A port nobody listens on: connection refused.
    const closed = await startEcho();
    await closed.app.close();
    const client = clientFor(closed.url, { token: () => Promise.resolve(planted) });
    const error = await client.version().then(
      () => undefined,
      (e: unknown) => e as Error,
    );
    expect(error?.message).toMatch(/GET \/v2\/version got no response/);
    expect(`${error?.message} ${error?.stack}`).not.toContain(planted);
    expect(client.evidence.transcript()).not.toContain(planted);
  });

  test('redact masks registered secrets, JWT-shaped strings and bearer values', () => {
    registerSecret('a-registered-client-secret');
    const text = redact(
      'secret=a-registered-client-secret jwt=eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiJ4In0.abc Authorization: Bearer opaque123',
    );
    expect(text).toBe('secret=<redacted> jwt=<redacted> Authorization: Bearer <redacted>');
    expect(new Evidence().curl()).toContain('export TOKEN=');
  });

  test('a failing conformance run writes the token nowhere, and attaches the redacted evidence', async ({}, testInfo) => {
    test.setTimeout(120_000);
    const planted = `planted-opaque-token-${randomUUID()}`;
    const out = testInfo.outputPath('run');
    const clean = Object.fromEntries(
      Object.entries(process.env).filter(([k]) => !/^(LEDGER_|SANDBOX_)/.test(k)),
    );
    // Asynchronously: the echo server lives in this process and must keep answering while the run goes on.
    const run = await runPlaywright(['test', '-c', 'selftest/samples/playwright.config.ts'], {
      ...clean,
      SAMPLE_OUT: out,
      LEDGER_BASE_URL: echo.url,
      LEDGER_AUTH: 'static',
      LEDGER_TOKEN: planted,
      LEDGER_USER: 'conformance',
    });
    expect(run.status, run.stdout + run.stderr).toBe(EXIT.failed);
    expect(run.stdout, run.stdout + run.stderr).toMatch(/2 failed/);
    expect(run.stdout + run.stderr, 'terminal output').not.toContain(planted);

    const files = filesUnder(out);
    const leaks = files.filter((f) => readFileSync(f).includes(planted));
    expect(leaks, 'files containing the planted token').toEqual([]);

    // The evidence is there, redacted: a transcript and a curl reproduction per failed test. Attached in
    // the fixture's teardown, allure-playwright files them under the test's "After Hooks" step.
    interface Node {
      attachments?: { name: string; source: string }[];
      steps?: Node[];
    }
    const attachmentsOf = (n: Node): { name: string; source: string }[] => [
      ...(n.attachments ?? []),
      ...(n.steps ?? []).flatMap(attachmentsOf),
    ];
    const results = files
      .filter((f) => f.endsWith('-result.json'))
      .map((f) => JSON.parse(readFileSync(f, 'utf8')) as Node & { name: string });
    expect(results.map((r) => r.name.split(' ')[0]).sort()).toEqual(['SUB-SHAPE', 'VER-SHAPE']);
    for (const r of results) {
      const byName = new Map(attachmentsOf(r).map((a) => [a.name, a.source]));
      const read = (name: string) => {
        const source = byName.get(name);
        expect(source, `${r.name}: attachment "${name}"`).toBeDefined();
        return readFileSync(join(out, 'allure-results', source!), 'utf8');
      };
      const transcript = read('HTTP transcript (Authorization redacted)');
      expect(transcript).toContain('authorization: Bearer <redacted>');
      expect(transcript).toContain('→ HTTP 500');
      expect(read('reproduce with curl')).toContain('-H "Authorization: Bearer $TOKEN"');
    }
  });
});
