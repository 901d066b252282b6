// HTTP the parser refuses — a malformed chunk, a body cut short of its Content-Length, headers over the size
// limit — never reaches a route: the sandbox answers it as Canton's HTTP layer (pekko) does, a 4xx in
// text/plain, never fastify's default JSON body (which is not a JsCantonError), and keeps serving.
// Raw sockets against the sandbox listening on 127.0.0.1 (an HTTP client would refuse to send these).
import { connect } from 'node:net';
import { expect, test } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { listen } from './support/harness-kit';
import { bearer, sandbox, token } from './support/sandbox-kit';

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
      expect(res.statusLine, what).toMatch(status);
      expect(res.headers['content-type'], what).toBe('text/plain; charset=UTF-8');
      expect(() => JSON.parse(res.body) as unknown, `${what}: ${res.body}`).toThrow();
    }
    // Well-formed HTTP is served as before, a chunked body included.
    const ok = await raw(
      `${list}Transfer-Encoding: chunked\r\nConnection: close\r\n\r\n2\r\n{}\r\n0\r\n\r\n`,
    );
    expect(ok.statusLine).toBe('HTTP/1.1 200 OK');
  });
});
