// `npm run preflight` (scripts/preflight.ts) against a staging-like participant (selftest/support/staging-kit):
// ready with only the URL, the RS256 key and the user; and a wrong token, a user without rights and an
// unvetted template package each stop it with ONE line saying what is wrong and what to set (exit 2), with no
// secret in it. Nothing is submitted: the preflight only reads.
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import Fastify, { type FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { cleanEnv, runNode, type ChildOutcome } from './support/child-run';
import { listen } from './support/harness-kit';
import { minimal, staging, type Staging } from './support/staging-kit';

const preflight = (env: Record<string, string>): Promise<ChildOutcome> =>
  runNode(['--require', 'tsx/cjs', 'scripts/preflight.ts'], { ...cleanEnv(), ...env });

/** Exit 2, nothing on stdout, one line on stderr; the line is returned. */
function oneLine(run: ChildOutcome): string {
  expect(run.status, run.stdout + run.stderr).toBe(2);
  expect(run.stdout).toBe('');
  const lines = run.stderr.trimEnd().split('\n');
  expect(lines, run.stderr).toHaveLength(1);
  expect(lines[0]).not.toMatch(/PRIVATE KEY|eyJ[A-Za-z0-9_-]{10,}/);
  return lines[0]!;
}

test.describe('npm run preflight', () => {
  let target: Staging;
  test.beforeAll(async () => {
    target = await staging();
  });
  test.afterAll(async () => {
    await target?.app.close();
  });

  test('ready: every identity value with its source, and the rules that will skip and why', async () => {
    const run = await preflight(minimal(target, 'qa-solo'));
    expect(run.status, run.stderr).toBe(0);
    expect(run.stdout).toContain('ledger-conformance preflight: ready');
    expect(run.stdout).toMatch(
      /LEDGER_ACT_AS +Solo::\S+ \(discovered via GET \/v2\/users\/qa-solo\/rights\)/,
    );
    expect(run.stdout).toContain('canton-ping (picked: canton-builtin-admin-workflow-ping is vetted');
    expect(run.stdout).toContain('will skip');
    expect(run.stdout).toContain('SUB-DEDUP-ACTAS-ORDER, SUB-DEDUP-NEW-ACTAS: needs two actAs parties');
    expect(run.stdout).not.toMatch(/PRIVATE KEY|eyJ[A-Za-z0-9_-]{10,}/);
  });

  test('a wrong token: one line naming the key to set', async () => {
    const line = oneLine(await preflight(minimal(target, 'qa-runner', target.otherKeyPath)));
    expect(line).toContain('refused');
    expect(line).toContain('LEDGER_JWT_PRIVATE_KEY');
  });

  test('a wrong token with the participant given: one line naming the key to set', async () => {
    const env = { ...minimal(target, 'qa-runner', target.otherKeyPath), LEDGER_PARTICIPANT_ID: 'p::1220ab' };
    const line = oneLine(await preflight(env));
    expect(line).toMatch(/refused the harness's token \(.* answered 401\): set LEDGER_JWT_PRIVATE_KEY/);
  });

  test('an expired static token: one line saying so, no request made with it', async () => {
    const exp = Math.floor(Date.now() / 1000) - 3600;
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject('qa-runner')
      .setExpirationTime(exp)
      .sign(new TextEncoder().encode('any key: the harness only reads exp'));
    const line = oneLine(
      await preflight({ LEDGER_BASE_URL: target.url, LEDGER_AUTH: 'static', LEDGER_TOKEN: token }),
    );
    expect(line).toBe(
      `ledger-conformance: LEDGER_TOKEN expired at ${new Date(exp * 1000).toISOString()} (its exp): set it to a current access token for this participant`,
    );
  });

  test('a proxy variable set: the unreachable line says the harness does not use it, and not its URL', async () => {
    const gone = Fastify();
    const url = await listen(gone);
    await gone.close();
    const run = await preflight({
      ...minimal(target, 'qa-runner'),
      LEDGER_BASE_URL: url,
      HTTPS_PROXY: 'http://qa:proxy-password@proxy.example:3128',
    });
    expect(run.status, run.stderr).toBe(4);
    expect(run.stderr).toContain(
      'refused (ECONNREFUSED); check that the participant is running and the host and port of LEDGER_BASE_URL; HTTPS_PROXY is set, but the harness connects directly, without a proxy',
    );
    expect(run.stderr).not.toContain('proxy-password');
  });

  test('a user without rights: one line naming the user and what to set', async () => {
    const line = oneLine(await preflight(minimal(target, 'qa-none')));
    expect(line).toContain('user qa-none has no CanActAs right');
    expect(line).toContain('LEDGER_USER');
  });

  test('an unvetted template package: one line naming the package and what to set', async () => {
    const template = join(target.dir, 'acme.json');
    writeFileSync(
      template,
      JSON.stringify({
        commands: [
          {
            CreateCommand: {
              templateId: '#acme-treasury:Acme:Transfer',
              createArguments: { owner: '{{actAs0}}' },
            },
          },
        ],
      }),
    );
    const line = oneLine(
      await preflight({ ...minimal(target, 'qa-runner'), LEDGER_COMMAND_TEMPLATE: template }),
    );
    expect(line).toContain('acme-treasury');
    expect(line).toContain('LEDGER_COMMAND_TEMPLATE');
  });
});

// The first mistake against a staging node: a base URL that is not the JSON Ledger API. Before, the run went on
// to ask for the identity and stopped naming LEDGER_PARTICIPANT_ID, then LEDGER_COMMAND_TEMPLATE: not the cause.
test.describe('npm run preflight, a base URL that serves no JSON Ledger API', () => {
  let target: Staging;
  let web: FastifyInstance;
  let webUrl: string;
  test.beforeAll(async () => {
    target = await staging();
    // A login gateway, a web server's page, and its 404 page for anything else.
    web = Fastify();
    web.get('/gw/v2/version', (_req, reply) =>
      reply.redirect('https://login.example.com/authorize?client_id=qa&state=s3cr3t-state', 302),
    );
    web.get('/site/v2/version', (_req, reply) =>
      reply.type('text/html').send('<!DOCTYPE html><html></html>'),
    );
    web.all('/proxy/*', (_req, reply) =>
      reply.code(401).type('text/html').send('<html>401 Authorization Required</html>'),
    );
    web.all('/down/*', (_req, reply) =>
      reply.code(502).type('text/html').send('<html>502 Bad Gateway</html>'),
    );
    web.all('/starting/*', (_req, reply) =>
      reply.code(503).send({ code: 'SERVICE_NOT_RUNNING', cause: 'starting', grpcCodeValue: 14 }),
    );
    web.get('/tls/v2/version', (_req, reply) =>
      reply
        .code(400)
        .type('text/html')
        .send('<html><head><title>400 The plain HTTP request was sent to HTTPS port</title></head></html>'),
    );
    web.setNotFoundHandler((_req, reply) => reply.code(404).type('text/html').send('<html>Not Found</html>'));
    webUrl = await listen(web);
  });
  test.afterAll(async () => {
    await target?.app.close();
    await web?.close();
  });

  const cases = [
    { what: 'the participant without its path prefix', base: () => `${target.url}/api/json`, shows: '404' },
    { what: 'a web server', base: () => webUrl, shows: '404 with an HTML page' },
    { what: 'an HTML page answered 200', base: () => `${webUrl}/site`, shows: '200 with an HTML page' },
    {
      what: "a proxy's https port asked in http",
      base: () => `${webUrl}/tls`,
      shows: '400 with an HTML page',
    },
    {
      what: 'a login redirect (its query left out)',
      base: () => `${webUrl}/gw`,
      shows: '302, a redirect to https://login.example.com/authorize',
    },
  ];
  for (const c of cases) {
    test(`${c.what}: one line naming LEDGER_BASE_URL, before any identity is asked for`, async () => {
      const base = c.base();
      const line = oneLine(await preflight({ ...minimal(target, 'qa-runner'), LEDGER_BASE_URL: base }));
      expect(line).toBe(
        `ledger-conformance: LEDGER_BASE_URL=${base} serves no Canton JSON Ledger API v2 (GET /v2/version answered ${c.shows}): set it to the JSON API's address, with its port (7575 by default, not the gRPC port) and any path prefix in front of /v2, e.g. https://participant.example.com/api/json`,
      );
    });
  }

  test('a gateway refusing the token with an HTML 401 is a token problem, not a wrong URL', async () => {
    const line = oneLine(
      await preflight({ ...minimal(target, 'qa-runner'), LEDGER_BASE_URL: `${webUrl}/proxy` }),
    );
    expect(line).toContain('refused');
    expect(line).toContain('LEDGER_JWT_PRIVATE_KEY');
    expect(line).not.toContain('serves no');
  });

  // As a target that does not answer: every identity call would get the same, so none is made (exit 4).
  for (const [prefix, status] of [
    ['down', 502],
    ['starting', 503],
  ] as const) {
    test(`GET /v2/version answered ${status}: the target is down (exit 4), not a setting to fix`, async () => {
      const base = `${webUrl}/${prefix}`;
      const run = await preflight({ ...minimal(target, 'qa-runner'), LEDGER_BASE_URL: base });
      expect(run.status, run.stderr).toBe(4);
      expect(run.stderr.trimEnd()).toBe(
        `ledger-conformance: the target LEDGER_BASE_URL=${base} cannot be reached: GET /v2/version answered ${status}, a participant down or not ready (or a proxy in front of one); check that the participant behind LEDGER_BASE_URL is running and its JSON Ledger API has started`,
      );
    });
  }
});
