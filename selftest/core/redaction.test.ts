// Redaction is proven, not promised: a planted token never appears in a transcript, a curl line, a matcher
// message or a transport error. The target is an echo server that sends the Authorization header back. That a
// real failing run hands no reporter a token, its evidence attached redacted, is
// selftest/report/reporter-leaks.test.ts's (a static token and minted ones, echoed back).
import { randomUUID } from 'node:crypto';
import { expect, test } from '../support/test';
import Fastify, { type FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { Evidence } from '../../core/evidence';
import { expect as harnessExpect } from '../../fixtures/matchers';
import { redact, registerSecret } from '../../core/redact';
import { clientFor, listen } from '../support/harness-kit';

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
});
