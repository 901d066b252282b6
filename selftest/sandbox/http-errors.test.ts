// HTTP the parser refuses — a malformed chunk, a body cut short of its Content-Length, headers over the size
// limit — never reaches a route: the sandbox answers it as Canton's HTTP layer (pekko) does, a 4xx in
// text/plain, never fastify's default JSON body (which is not a JsCantonError), and keeps serving.
// Raw sockets against the sandbox listening on 127.0.0.1 (an HTTP client would refuse to send these).
import { connect } from 'node:net';
import { expect, test } from '../support/test';
import { claim } from '../support/claim';
import fc from 'fast-check';
import type { FastifyInstance } from 'fastify';
import { listen } from '../support/harness-kit';
import { bearer, sandbox, token } from '../support/sandbox-kit';

let app: FastifyInstance;
let port: number;

test.beforeAll(async () => {
  app = await sandbox();
  port = Number(new URL(await listen(app)).port);
});
test.afterAll(async () => app.close());

interface RawAnswer {
  statusLine: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Writes `request` as is and reads until the server closes the connection; `halfClose` ends the sending side
 * right away (a body cut short), otherwise the request must make the server close (an error, Connection: close).
 */
function raw(request: string, halfClose = false): Promise<RawAnswer> {
  return new Promise((done, fail) => {
    const socket = connect(port, '127.0.0.1');
    let data = '';
    socket.setEncoding('latin1');
    socket.on('data', (chunk: string) => (data += chunk));
    socket.on('error', fail);
    socket.on('close', () => {
      const [head = '', body = ''] = data.split('\r\n\r\n');
      const [statusLine = '', ...lines] = head.split('\r\n');
      const headers = Object.fromEntries(
        lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
      );
      done({ statusLine, headers, body });
    });
    if (halfClose) socket.end(request, 'latin1');
    else socket.write(request, 'latin1');
  });
}

test.describe('sandbox: malformed HTTP', () => {
  test('is a 4xx in text/plain, never a JSON body, and the sandbox keeps serving', async () => {
    const auth = `Authorization: ${bearer(await token()).authorization}\r\n`;
    const list = `POST /v2/package-vetting/list HTTP/1.1\r\nHost: 127.0.0.1\r\n${auth}`;
    const cases: [string, string, RegExp, boolean?][] = [
      [
        'a malformed chunk',
        `${list}Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n`,
        /^HTTP\/1\.1 400 /,
      ],
      [
        'a body shorter than its Content-Length',
        `${list}Content-Length: 10\r\n\r\n{}`,
        /^HTTP\/1\.1 400 /,
        true,
      ],
      [
        'headers over the size limit',
        `GET /v2/version HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer ${'a'.repeat(20_000)}\r\n\r\n`,
        /^HTTP\/1\.1 431 /,
      ],
      ['a request line that is not HTTP', `HELLO\r\n\r\n`, /^HTTP\/1\.1 400 /],
    ];
    for (const [what, request, status, halfClose] of cases) {
      const res = await raw(request, halfClose);
      claim(res.statusLine, what).toMatch(status);
      claim(res.headers['content-type'], what).toBe('text/plain; charset=UTF-8');
      expect(() => JSON.parse(res.body) as unknown, `${what}: ${res.body}`).toThrow();
    }
    // Well-formed HTTP is served as before, a chunked body included.
    const ok = await raw(
      `${list}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    );
    expect(ok.statusLine).toBe('HTTP/1.1 200 OK');
  });
});

// Requests no endpoint takes, and bodies that are not JSON, answered as Canton's HTTP stack answers them
// (pekko-http + tapir + circe; sources in sandbox/error-handler.ts and sandbox/json-syntax-detail.ts), never by fastify or V8.
test.describe('no framework answers', () => {
  let app: FastifyInstance;
  let auth: Record<string, string>;
  test.beforeAll(async () => {
    app = await sandbox();
    auth = bearer(await token());
  });
  test.afterAll(async () => app.close());

  const FRAMEWORK =
    /FST_|"statusCode"\s*:|Unexpected token|is not valid JSON|Unexpected end of JSON|in JSON at position/;
  const PATHS = [
    '/v2/version',
    '/v2/package-vetting/list',
    '/v2/commands/submit-and-wait-for-transaction-tree',
  ];

  test('the answers confirmed from the sources', async () => {
    const inject = (method: 'GET' | 'POST' | 'DELETE', url: string, payload?: string) =>
      app.inject({
        method,
        url,
        payload,
        headers: { ...auth, 'content-type': 'application/json' },
      });
    const badPath = await inject('GET', '/v2/%zz');
    expect([badPath.statusCode, badPath.headers['content-type'], badPath.body]).toEqual([
      400,
      'text/plain; charset=UTF-8',
      "Illegal request-target: Invalid input 'z', expected HEXDIG (line 1, column 6)",
    ]);
    expect((await inject('GET', '/v2/version?x=%zz')).statusCode).toBe(400);
    const unknown = await inject('GET', '/v2/nothing');
    expect([unknown.statusCode, unknown.headers['content-type']]).toEqual([404, 'application/json']);
    expect(unknown.json()).toEqual({
      errors: ['GET, uri: http://localhost:80/v2/nothing'],
      status: 404,
      ledgerApiError: null,
    });
    for (const verb of ['DELETE', 'POST'] as const) {
      const method = await inject(verb, '/v2/version');
      expect([method.statusCode, method.headers['content-type'], method.body]).toEqual([
        405,
        'text/plain; charset=UTF-8',
        'Method Not Allowed',
      ]);
    }
    const html = await inject('POST', '/v2/package-vetting/list', '<html>');
    expect([html.statusCode, html.body]).toEqual([
      400,
      "Invalid value for: body (expected json value got '<html>' (line 1, column 1))",
    ]);
  });

  test('property: any raw path, method, header and body → no fastify error shape, no V8 text, no 5xx', async () => {
    const segment = fc.oneof(
      fc.constantFrom('v2', 'version', 'package-vetting', 'list', '%zz', '%', '%2F', '%E2%82', '..', ''),
      fc.string({ maxLength: 6 }).map(encodeURIComponent),
    );
    const path = fc.oneof(
      fc.constantFrom(...PATHS),
      fc.array(segment, { maxLength: 4 }).map((s) => `/${s.join('/')}`),
    );
    const query = fc.constantFrom('', '?a=1', '?x=%zz', '?%', '?a=%41');
    const body = fc.oneof(fc.constant(undefined), fc.string({ maxLength: 40 }), fc.json());
    const contentType = fc.constantFrom(
      undefined,
      'application/json',
      'text/xml',
      '???',
      '',
      'application/json; charset=bogus',
    );
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'PATCH', 'HEAD', 'OPTIONS'),
        path,
        query,
        body,
        contentType,
        async (method, p, q, payload, type) => {
          const headers: Record<string, string> = { ...auth };
          if (type !== undefined) headers['content-type'] = type;
          const res = await app.inject({
            method: method as 'GET',
            url: p + q,
            headers,
            ...(payload === undefined || method === 'GET' || method === 'HEAD' ? {} : { payload }),
          });
          const where = `${method} ${p}${q} ${JSON.stringify(type)} ${JSON.stringify(payload)} → ${res.statusCode} ${res.body.slice(0, 200)}`;
          claim(res.statusCode, where).toBeLessThan(500);
          claim(FRAMEWORK.test(res.body), where).toBe(false);
        },
      ),
      { numRuns: 300, seed: 13 },
    );
  });
});
