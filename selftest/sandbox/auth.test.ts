// Canton user-token authentication in the sandbox, on POST /v2/package-vetting/list (any authenticated user
// may list): the token forms the fuzz property does not draw, RS256 / ES256 from a JWKS, auth off, and the cache
// of verified tokens.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import { cachedVerifier } from '../../sandbox/auth';
import { AUD_PREFIX, bearer, PARTICIPANT, redacted, sandbox, token } from '../support/sandbox-kit';

const now = (): number => Math.floor(Date.now() / 1000);
const OTHER_PARTICIPANT = `participant9::1220${'b'.repeat(64)}`;

async function listWith(app: FastifyInstance, headers: Record<string, string>) {
  const res = await app.inject({ method: 'POST', url: '/v2/package-vetting/list', headers, payload: {} });
  return { status: res.statusCode, type: res.headers['content-type'], body: res.body };
}

async function expectStatus(app: FastifyInstance, tok: string, status: number, why: string): Promise<void> {
  const res = await listWith(app, bearer(tok));
  expect(res.status, `${why}: ${res.body}`).toBe(status);
  if (status === 401) expect(JSON.parse(res.body)).toEqual(redacted(16));
  if (status === 200) expect(JSON.parse(res.body)).toHaveProperty('vettedPackages');
}

// The token kinds every request may carry — each valid form (audience, scope, scp, extra audiences), no header,
// another scheme, garbage, tampered, expired, not yet valid, no exp, issued in the future, a lifetime above the
// maximum, another secret, RS256, alg none, a foreign audience, neither audience nor scope, no sub, another
// participant (403), an unknown user (403 "invalid token"), the empty bearer however spaced (400 text/plain) —
// are held, answer and body, by the token properties of selftest/sandbox/fuzz.test.ts (the version in canton
// and strict-interface mode, through the resolver every route uses), the catalogued ones on every operation by
// the AUTH- rules.
// Here: the forms it does not draw.
test.describe('sandbox auth: HS256 user tokens (the dev default)', () => {
  let app: FastifyInstance;
  test.beforeAll(async () => {
    app = await sandbox();
  });
  test.afterAll(async () => app.close());

  test('the scope form with our participant as aud, and a lifetime just within the maximum, are accepted', async () => {
    const scope = { aud: PARTICIPANT, scope: 'openid daml_ledger_api profile' };
    await expectStatus(app, await token({ claims: scope }), 200, 'scope + our participant');
    await expectStatus(
      app,
      await token({ claims: { exp: now() + 290, nbf: now() - 5 } }),
      200,
      'within 5 minutes',
    );
  });

  test('the max lifetime is a setting', async () => {
    const long = await sandbox({ SANDBOX_MAX_TOKEN_LIFETIME_SECONDS: '3600' });
    await expectStatus(long, await token({ claims: { exp: now() + 1800 } }), 200, '30 min under a 1 h max');
    await expectStatus(long, await token({ claims: { exp: now() + 4000 } }), 401, 'beyond 1 h');
    await long.close();
  });

  test('audiences and payloads no Canton user token has are 401', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ aud: AUD_PREFIX }, 'participant audience with an empty id'],
      [{ aud: [AUD_PREFIX + PARTICIPANT, AUD_PREFIX + OTHER_PARTICIPANT] }, 'two participant audiences'],
      [{ aud: undefined, scope: 'openid profile' }, 'other scopes only'],
      [{ aud: ['a', 'b'], scope: 'daml_ledger_api' }, 'scope form with two audiences'],
      [{ sub: 42 }, 'sub not a string'],
      [
        {
          sub: undefined,
          aud: undefined,
          'https://daml.com/ledger-api': { actAs: ['Alice'], ledgerId: 'x' },
        },
        'legacy custom-claims token (2.x only)',
      ],
    ];
    for (const [claims, why] of cases) await expectStatus(app, await token({ claims }), 401, why);
  });

  test('another participant in the scope form is 403 (redacted)', async () => {
    const res = await listWith(
      app,
      bearer(await token({ claims: { aud: OTHER_PARTICIPANT, scope: 'daml_ledger_api' } })),
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual(redacted(7));
  });
});

// An RS256 key of a JWKS, one not in it under the trusted kid, an expired token and an unknown user are the
// staging participant's of selftest/run/discovery-run.test.ts: a whole suite passes against it with RS256 tokens
// from a JWKS (its AUTH- rules included). Here: ES256, a kid the JWKS lacks, and HS256 on a JWKS sandbox.
test.describe('sandbox auth: RS256 / ES256 from a JWKS file', () => {
  test('tokens signed by a key of the JWKS are accepted; other keys and HS256 are 401', async () => {
    const rsa = await generateKeyPair('RS256');
    const ec = await generateKeyPair('ES256');
    const stranger = await generateKeyPair('RS256');
    const keys = [
      { ...(await exportJWK(rsa.publicKey)), kid: 'rsa-1', alg: 'RS256', use: 'sig' },
      { ...(await exportJWK(ec.publicKey)), kid: 'ec-1', alg: 'ES256', use: 'sig' },
    ];
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-jwks-'));
    const file = join(dir, 'jwks.json');
    writeFileSync(file, JSON.stringify({ keys }));
    const app = await sandbox({ SANDBOX_AUTH: 'jwks', SANDBOX_JWKS: file });

    await expectStatus(app, await token({ key: ec.privateKey, alg: 'ES256', kid: 'ec-1' }), 200, 'ES256');
    await expectStatus(
      app,
      await token({ key: stranger.privateKey, alg: 'RS256', kid: 'nope' }),
      401,
      'unknown kid',
    );
    await expectStatus(app, await token(), 401, 'HS256 on a JWKS sandbox');
    await app.close();
  });
});

test.describe('sandbox auth: disabled', () => {
  test('SANDBOX_AUTH=none gives wildcard claims: no token needed, any token ignored', async () => {
    const app = await sandbox({ SANDBOX_AUTH: 'none' });
    expect((await listWith(app, {})).status).toBe(200);
    expect((await listWith(app, bearer('garbage'))).status).toBe(200);
    await app.close();
  });
});

test.describe('sandbox auth: the verified-token cache', () => {
  const payload = (exp: number) => ({ sub: 'u', exp });

  test('a token that verified is not verified again until its exp; then it is, and fails as expired', async () => {
    let clock = 1_000_000_000_000;
    let calls = 0;
    const verify = cachedVerifier(
      async () => {
        calls += 1;
        if (clock >= 1_000_000_060_000) throw new Error('"exp" claim timestamp check failed');
        return payload(1_000_000_060);
      },
      () => clock,
    );
    await verify('t');
    await verify('t');
    expect(calls).toBe(1);
    clock = 1_000_000_060_000;
    await expect(verify('t')).rejects.toThrow(/exp/);
    expect(calls).toBe(2);
  });

  test('a refused token is checked again on every call (failures are never remembered)', async () => {
    let calls = 0;
    const verify = cachedVerifier(async () => {
      calls += 1;
      throw new Error('signature verification failed');
    });
    await expect(verify('bad')).rejects.toThrow();
    await expect(verify('bad')).rejects.toThrow();
    expect(calls).toBe(2);
  });

  test('the cache is bounded: the oldest token is verified again after 1024 others', async () => {
    const seen: string[] = [];
    const verify = cachedVerifier(async (t) => {
      seen.push(t);
      return payload(Math.floor(Date.now() / 1000) + 60);
    });
    for (let i = 0; i <= 1024; i++) await verify(`t${i}`);
    await verify('t1024');
    await verify('t0');
    expect(seen.filter((t) => t === 't1024')).toHaveLength(1);
    expect(seen.filter((t) => t === 't0')).toHaveLength(2);
  });
});
