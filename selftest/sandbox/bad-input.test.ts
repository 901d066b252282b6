// Bad input of any kind is a 4xx, never a 5xx or a crash: odd bodies, content types, headers and sizes on
// every route (the control route too). Random bodies and Authorization headers on every route are
// fuzz.test.ts's 'every operation at once'.
import { expect, test } from '../support/test';
import { claim } from '../support/claim';
import type { FastifyInstance } from 'fastify';
import { adminToken, bearer, sandbox, token } from '../support/sandbox-kit';

const ROUTES = [
  ['POST', '/v2/package-vetting/list'],
  ['POST', '/v2/commands/submit-and-wait-for-transaction-tree'],
  ['POST', '/sandbox/control/vet'],
  ['GET', '/v2/version'],
] as const;

const deep = (n: number, open: string, close: string, inner = '1'): string =>
  open.repeat(n) + inner + close.repeat(n);

/**
 * Raw bodies beyond GEN-NO-5XX's rows (tests/general.bad-input.ts, which hold the malformed, mistyped, null, huge
 * and long bodies on the vetting list and the submission, judged on the fault run's clean sandbox): nesting far
 * deeper than a recursive parser survives, and prototype keys; `*` marks JSON objects a route may accept.
 */
const ODD_BODIES: [string, string | Buffer][] = [
  ['*deep nesting in an unknown field', `{"x": ${deep(100_000, '[', ']')}}`],
  [
    'deep nesting in known fields',
    `{"packageMetadataFilter": ${deep(5_000, '{"packageIds":[', ']}')}, "commands": ${deep(50_000, '[', ']')}}`,
  ],
  ['deep root nesting', deep(200_000, '[', ']')],
  ['*proto pollution keys', '{"__proto__": {"polluted": true}, "constructor": {"prototype": {"x": 1}}}'],
];

let app: FastifyInstance;
let auth: Record<string, string>;
let adminAuth: Record<string, string>;
/** The control route asks for the participant-admin right: its bodies reach it with an admin's token. */
const authFor = (url: string): Record<string, string> =>
  url.startsWith('/sandbox/control/') ? adminAuth : auth;

test.beforeAll(async () => {
  app = await sandbox({ SANDBOX_CONTROL: 'true' });
  auth = bearer(await token());
  adminAuth = bearer(await adminToken());
});
test.afterAll(async () => app.close());

async function send(
  method: string,
  url: string,
  payload: string | Buffer | undefined,
  headers: Record<string, string>,
) {
  const res = await app.inject({ method: method as 'POST', url, payload, headers });
  return { status: res.statusCode, type: res.headers['content-type'], body: res.body };
}

test.describe('sandbox bad input', () => {
  test('odd bodies on every route give a 4xx, or a 2xx where the object is valid (version takes no body)', async () => {
    for (const [method, url] of ROUTES) {
      for (const [name, payload] of ODD_BODIES) {
        for (const contentType of ['application/json', 'text/plain', undefined]) {
          const headers = { ...authFor(url), ...(contentType ? { 'content-type': contentType } : {}) };
          const res = await send(method, url, method === 'GET' ? undefined : payload, headers);
          const where = `${method} ${url} with ${name} as ${contentType ?? 'no content type'}: ${res.body.slice(0, 200)}`;
          if (method === 'GET') claim(res.status, where).toBe(200);
          else if (name.startsWith('*')) claim(res.status < 500, where).toBe(true);
          else claim(res.status >= 400 && res.status < 500, where).toBe(true);
        }
      }
    }
  });

  test('malformed JSON is tapir\'s 400 text/plain "Invalid value for: body (…)", not a JsCantonError', async () => {
    for (const [, url] of ROUTES.filter(([m]) => m === 'POST')) {
      for (const payload of ['', '{"a":', '[1,', 'nope']) {
        const res = await send('POST', url, payload, { ...authFor(url), 'content-type': 'application/json' });
        claim(res.status, `${url} ${payload}`).toBe(400);
        claim(res.type).toMatch(/^text\/plain/);
        claim(res.body).toMatch(/^Invalid value for: body \(.+\)$/s);
      }
    }
    const empty = await send('POST', '/v2/package-vetting/list', '', {
      ...auth,
      'content-type': 'application/json',
    });
    expect(empty.body).toBe('Invalid value for: body (exhausted input)');
  });

  test('a wrong-typed body lists each failure with its circe path, joined by ", "', async () => {
    const res = await send(
      'POST',
      '/v2/package-vetting/list',
      JSON.stringify({
        packageMetadataFilter: { packageIds: ['ok', 3] },
        topologyStateFilter: 'x',
        pageSize: 'ten',
      }),
      { ...auth, 'content-type': 'application/json' },
    );
    expect(res.status).toBe(400);
    expect(res.body).toBe(
      "Invalid value for: body (Got value '3' with wrong type, expecting string at 'packageMetadataFilter.packageIds[1]', " +
        `Got value '"x"' with wrong type, expecting object at 'topologyStateFilter', ` +
        `Got value '"ten"' with wrong type, expecting number at 'pageSize')`,
    );
  });

  test('content types: any one, malformed or none, is read as JSON (tapir); above 10 MiB is a 413 from pekko', async () => {
    for (const type of [
      'application/json',
      'application/json; charset=utf-8',
      'text/plain',
      'application/x-www-form-urlencoded',
      '???',
      '',
    ]) {
      const res = await send('POST', '/v2/package-vetting/list', '{}', { ...auth, 'content-type': type });
      expect(res.status, type).toBe(200);
    }
    const huge = Buffer.alloc(10 * 1024 * 1024 + 1, 0x20);
    const res = await send('POST', '/v2/package-vetting/list', huge, {
      ...auth,
      'content-type': 'application/json',
    });
    expect(res.status).toBe(413);
    expect(res.type).toBe('text/plain; charset=UTF-8');
    expect(res.body).toBe(
      `Request Content-Length of ${huge.length} bytes exceeds the configured limit of ${10 * 1024 * 1024} bytes`,
    );
  });
});
