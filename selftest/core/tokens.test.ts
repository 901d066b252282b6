// Every token provider's tokens are accepted by the sandbox, and every negative token is rejected — through
// the real ledger client against a listening sandbox, on the one operation that always needs a caller
// (POST /v2/package-vetting/list). The default form's negative tokens are the AUTH- rules'.
import { generateKeyPairSync, randomUUID } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import { decodeJwt, decodeProtectedHeader } from 'jose';
import { buildApp } from '../../sandbox/app';
import { loadConfig } from '../../sandbox/config';
import { negativeTokensOf, type NegativeTokens } from '../../core/negative-tokens';
import { createTokenProvider, type TokenProvider } from '../../core/token-providers';
import { clientFor, listen, settingsFor } from '../support/harness-kit';

async function startSandbox(
  env: Record<string, string> = {},
): Promise<{ app: FastifyInstance; url: string }> {
  const app = await buildApp(loadConfig(env));
  return { app, url: await listen(app) };
}

async function listStatus(url: string, token: string | null): Promise<number> {
  const client = clientFor(url, { token: () => Promise.resolve(undefined) });
  return (await client.listVettedPackages({ pageSize: 1 }, { token })).status;
}

function negatives(provider: TokenProvider, env: Record<string, string> = {}): NegativeTokens {
  const n = negativeTokensOf(provider, settingsFor(env), 'selftest');
  if (!('tokens' in n)) throw new Error(`expected a minting provider, got: ${n.reason}`);
  return n.tokens;
}

/** Each negative token and what Canton answers (docs/canton-behaviour.md §1.7); the sandbox must agree. */
const NEGATIVE_CASES: [keyof NegativeTokens, number][] = [
  ['malformed', 401],
  ['expired', 401],
  ['notYetValid', 401],
  ['otherKey', 401],
  ['wrongAudience', 401],
  ['otherParticipant', 403],
  ['unknownUser', 403],
];

test.describe('HS256 provider (dev secret)', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  test.beforeAll(async () => (sandbox = await startSandbox()));
  test.afterAll(async () => sandbox.app.close());

  // The audience form's (the default) is every run's token: the sandbox refuses another audience, an unknown
  // user and a lifetime over its 5 minutes (AUTH-WRONG-AUDIENCE, AUTH-UNKNOWN-USER, selftest/sandbox/auth.test.ts).
  test('a minted scope-form token is accepted', async () => {
    const provider = createTokenProvider(settingsFor({ LEDGER_TOKEN_FORM: 'scope' }));
    const token = await provider.token();
    expect(await listStatus(sandbox.url, token!)).toBe(200);
    const claims = decodeJwt(token!);
    expect(claims.sub).toBe('conformance');
    expect(claims.exp! - claims.iat!, 'lifetime within Canton’s 5 minutes').toBeLessThanOrEqual(300);
    expect(claims.scope).toBe('daml_ledger_api');
  });

  // The audience form's (the default) and no token at all are the AUTH- rules' (tests/auth.spec.ts), on the
  // fault run's clean sandbox.
  for (const [name, status] of NEGATIVE_CASES) {
    test(`the scope-form negative token "${name}" is rejected with ${status}`, async () => {
      const env = { LEDGER_TOKEN_FORM: 'scope' };
      const token = await negatives(createTokenProvider(settingsFor(env)), env)[name]();
      expect(await listStatus(sandbox.url, token)).toBe(status);
    });
  }

  test('the token is cached and refreshed before it expires', async () => {
    const provider = createTokenProvider(settingsFor({ LEDGER_TOKEN_LIFETIME_SECONDS: '120' }));
    const first = await provider.token();
    expect(await provider.token(), 'a second call reuses the cached token').toBe(first);
    const realNow = Date.now;
    try {
      // 61 s later, 59 s are left: under the one-minute margin, so a new token is minted.
      Date.now = () => realNow() + 61_000;
      const later = await provider.token();
      expect(later).not.toBe(first);
      expect(decodeJwt(later!).exp).toBeGreaterThan(decodeJwt(first!).exp!);
    } finally {
      Date.now = realNow;
    }
  });
});

// RS256 from a JWKS, its negative tokens included, is the staging participant's of
// selftest/run/discovery-run.test.ts: a whole suite with every AUTH- rule passing.
test.describe('ES256 provider (PEM private key, kid)', () => {
  const kid = `selftest-es256-${randomUUID()}`;
  let env: Record<string, string>;
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;

  test.beforeAll(async ({}, testInfo) => {
    // Here, not in the describe: Playwright's runner loads the file only to list its tests.
    const pair = generateKeyPairSync('ec', { namedCurve: 'P-256' });
    env = {
      LEDGER_AUTH: 'es256',
      LEDGER_JWT_PRIVATE_KEY: pair.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString(),
      LEDGER_JWT_KID: kid,
    };
    // The participant trusts the public half through a JWKS file (Canton's jwt-jwks).
    const jwk = { ...pair.publicKey.export({ format: 'jwk' }), kid, alg: 'ES256', use: 'sig' };
    const jwks = testInfo.outputPath('es256-jwks.json');
    writeFileSync(jwks, JSON.stringify({ keys: [jwk] }));
    sandbox = await startSandbox({ SANDBOX_AUTH: 'jwks', SANDBOX_JWKS: jwks });
  });
  test.afterAll(async () => sandbox.app.close());

  test('a minted token is accepted and carries the kid', async () => {
    const token = await createTokenProvider(settingsFor(env)).token();
    expect(decodeProtectedHeader(token!)).toMatchObject({ alg: 'ES256', kid, typ: 'JWT' });
    expect(await listStatus(sandbox.url, token!)).toBe(200);
  });

  for (const [name, status] of NEGATIVE_CASES) {
    test(`the negative token "${name}" is rejected with ${status}`, async () => {
      const token = await negatives(createTokenProvider(settingsFor(env)), env)[name]();
      expect(await listStatus(sandbox.url, token)).toBe(status);
    });
  }
});

test.describe('static provider (LEDGER_TOKEN)', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  test.beforeAll(async () => (sandbox = await startSandbox()));
  test.afterAll(async () => sandbox.app.close());

  test('the given token is sent as is, its user read from sub, and no negative tokens exist', async () => {
    const given = await createTokenProvider(settingsFor()).token();
    const provider = createTokenProvider(settingsFor({ LEDGER_AUTH: 'static', LEDGER_TOKEN: given! }));
    expect(await provider.token()).toBe(given);
    expect(await provider.userId()).toBe('conformance');
    expect(await listStatus(sandbox.url, (await provider.token())!)).toBe(200);
    expect(provider.minter).toBeUndefined();
    expect(negativeTokensOf(provider, settingsFor(), 'x')).toEqual({
      reason: expect.stringMatching(/static/),
    });
  });

  test('an opaque token names no user unless LEDGER_USER does', async () => {
    const opaque = createTokenProvider(
      settingsFor({ LEDGER_AUTH: 'static', LEDGER_TOKEN: 'opaque-token-1234' }),
    );
    expect(await opaque.userId()).toBeUndefined();
    const named = createTokenProvider(
      settingsFor({ LEDGER_AUTH: 'static', LEDGER_TOKEN: 'opaque-token-1234', LEDGER_USER: 'alice' }),
    );
    expect(await named.userId()).toBe('alice');
  });
});

test.describe('no-auth provider (LEDGER_AUTH=none)', () => {
  let sandbox: Awaited<ReturnType<typeof startSandbox>>;
  test.beforeAll(async () => (sandbox = await startSandbox({ SANDBOX_AUTH: 'none' })));
  test.afterAll(async () => sandbox.app.close());

  test('requests carry no Authorization header and are served', async () => {
    const provider = createTokenProvider(settingsFor({ LEDGER_AUTH: 'none' }));
    expect(await provider.token()).toBeUndefined();
    const client = clientFor(sandbox.url, provider);
    const res = await client.listVettedPackages({ pageSize: 1 });
    expect(res.status).toBe(200);
    expect(res.exchange.authorized).toBe(false);
    expect(negativeTokensOf(provider, settingsFor(), 'x')).toEqual({ reason: expect.stringMatching(/none/) });
  });
});
