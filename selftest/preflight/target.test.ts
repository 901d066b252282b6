// What the preflight (scripts/preflight/checks.ts, in-process) makes of a base URL that is no JSON Ledger
// API, or not now, and of a token or a proxy that will not do: each case stops with the error that names its
// cause, before any identity is asked for. selftest/preflight/preflight.test.ts runs the CLI for one case of
// each kind (its line, its exit code): a web server, and a target down (502; 503 in
// selftest/run/busy-participant.test.ts's run).
import { expect, test } from '../support/test';
import { SignJWT } from 'jose';
import { TransportFailure } from '../../core/http';
import { unreachableOf } from '../../core/reachability';
import { authLine } from '../../scripts/run/global-setup';
import { preflight, PreflightError, staticTokenLife, type Preflight } from '../../scripts/preflight/checks';
import { settingsFor } from '../support/harness-kit';
import { stagingAndNotLedgerApis } from '../support/not-ledger-api';
import { minimal } from '../support/staging-kit';
import { EXIT } from '../../core/exit-codes';

/** A JWT of qa-runner whose exp is `exp` (epoch seconds), signed with a key no one checks: the harness reads exp. */
const jwtExpiringAt = (exp: number): Promise<string> =>
  new SignJWT({})
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject('qa-runner')
    .setExpirationTime(exp)
    .sign(new TextEncoder().encode('any key: the harness only reads exp'));

/** The preflight's result, or the PreflightError it stopped with. */
function outcome(env: Record<string, string>): Promise<Preflight | PreflightError> {
  const s = settingsFor(env);
  return preflight(s, s.baseUrl!, env).catch((e: unknown) => {
    if (e instanceof PreflightError) return e;
    throw e;
  });
}

/** The error's message when the preflight stopped with exit 2. */
async function settingError(env: Record<string, string>): Promise<string> {
  const o = await outcome(env);
  expect(o).toBeInstanceOf(PreflightError);
  expect((o as PreflightError).exitCode).toBe(EXIT.badSetting);
  return (o as PreflightError).message;
}

test.describe('the preflight, a base URL that is no JSON Ledger API', () => {
  const at = stagingAndNotLedgerApis();

  const cases = [
    {
      what: 'the participant without its path prefix',
      base: () => `${at.target.url}/api/json`,
      shows: '404',
    },
    { what: 'an HTML page answered 200', base: () => `${at.webUrl}/site`, shows: '200 with an HTML page' },
    {
      what: "a proxy's https port asked in http",
      base: () => `${at.webUrl}/tls`,
      shows: '400 with an HTML page',
    },
    {
      what: 'a login redirect (its query left out)',
      base: () => `${at.webUrl}/gw`,
      shows: '302, a redirect to https://login.example.com/authorize',
    },
    {
      what: 'a relative redirect, resolved',
      base: () => `${at.webUrl}/rel`,
      // A getter: at.webUrl is known once beforeAll has run.
      get shows() {
        return `303, a redirect to ${at.webUrl}/sso/login`;
      },
    },
    {
      what: 'a redirect with credentials in it (left out)',
      base: () => `${at.webUrl}/cred`,
      shows: '307, a redirect to https://login.example.com/authorize',
    },
  ];
  for (const c of cases) {
    test(`${c.what}: the error names LEDGER_BASE_URL and the fix`, async () => {
      const base = c.base();
      expect(await settingError({ ...minimal(at.target, 'qa-runner'), LEDGER_BASE_URL: base })).toBe(
        `LEDGER_BASE_URL=${base} serves no Canton JSON Ledger API v2 (GET /v2/version answered ${c.shows}): set it to the JSON API's address, with its port (7575 by default, not the gRPC port) and any path prefix in front of /v2, e.g. https://participant.example.com/api/json`,
      );
    });
  }

  test('a gateway refusing the token with an HTML 401 is a token problem, not a wrong URL', async () => {
    const message = await settingError({
      ...minimal(at.target, 'qa-runner'),
      LEDGER_BASE_URL: `${at.webUrl}/proxy`,
    });
    expect(message).toContain('refused');
    expect(message).toContain('LEDGER_JWT_PRIVATE_KEY');
    expect(message).not.toContain('serves no');
  });

  test('an expired static token: the error says when it expired, no request made with it', async () => {
    const exp = Math.floor(Date.now() / 1000) - 3600;
    const token = await jwtExpiringAt(exp);
    // A base URL answering 502 to everything: had a request been made, the outcome would be the target down.
    expect(
      await settingError({
        LEDGER_BASE_URL: `${at.webUrl}/down`,
        LEDGER_AUTH: 'static',
        LEDGER_TOKEN: token,
      }),
    ).toBe(
      `LEDGER_TOKEN expired at ${new Date(exp * 1000).toISOString()} (its exp): set it to a current access token for this participant`,
    );
  });
});

test('a proxy variable set for another host: what to check says this one is reached directly, never the URL', () => {
  const refused = new TransportFailure('the connection was refused (ECONNREFUSED)', 'refused');
  const saved = process.env.HTTPS_PROXY;
  try {
    process.env.HTTPS_PROXY = 'http://qa:proxy-password@proxy.example:3128';
    // A loopback participant is never reached through a proxy (core/proxy.ts).
    expect(unreachableOf(refused, 'https://127.0.0.1:7575/v2/version').check).toBe(
      "check that the participant is running and the host and port of LEDGER_BASE_URL; HTTPS_PROXY is set, but this host is reached directly (NO_PROXY, another scheme's variable, or a loopback address)",
    );
  } finally {
    if (saved === undefined) delete process.env.HTTPS_PROXY;
    else process.env.HTTPS_PROXY = saved;
  }
  expect(unreachableOf(refused, 'https://127.0.0.1:7575/v2/version').check).toBe(
    'check that the participant is running and the host and port of LEDGER_BASE_URL',
  );
});

test('a static token: the run-information block says when it expires; other tokens say nothing of it', async () => {
  const exp = Math.floor(Date.now() / 1000) + 270;
  const token = await jwtExpiringAt(exp);
  const s = settingsFor({
    LEDGER_BASE_URL: 'http://127.0.0.1:7575',
    LEDGER_AUTH: 'static',
    LEDGER_TOKEN: token,
  });
  const life = `the token expires at ${new Date(exp * 1000).toISOString()} (in 4 min)`;
  expect(staticTokenLife(s, exp * 1000 - 250_000)).toBe(life);
  expect(staticTokenLife(s, exp * 1000 - 20_000)).toMatch(/\(in under a minute\)$/);
  expect(authLine(s)).toMatch(/^static, user \(from the token\); the token expires at \S+Z \(in [45] min\)$/);
  expect(authLine(settingsFor({}))).toBe('hs256, audience form, user conformance');
  expect(
    staticTokenLife(settingsFor({ LEDGER_AUTH: 'static', LEDGER_TOKEN: 'opaque-token-value' })),
  ).toBeUndefined();
});
