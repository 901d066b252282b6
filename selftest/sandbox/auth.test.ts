// Canton user-token authentication in the sandbox, every case both ways, on POST /v2/package-vetting/list
// (any authenticated user may list) and GET /v2/version (no token needed in canton mode).
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import { exportJWK, generateKeyPair } from 'jose';
import { cachedVerifier, requireAuthenticated } from '../../sandbox/auth';
import { CantonError } from '../../sandbox/errors';
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

test.describe('sandbox auth: HS256 user tokens (the dev default)', () => {
  let app: FastifyInstance;
  test.beforeAll(async () => {
    app = await sandbox();
  });
  test.afterAll(async () => app.close());

  test('the audience form is accepted; extra audiences alongside it too', async () => {
    await expectStatus(app, await token(), 200, 'audience form');
    await expectStatus(
      app,
      await token({ claims: { aud: ['https://other.example', AUD_PREFIX + PARTICIPANT] } }),
      200,
      'extra aud',
    );
  });

  test('the scope form is accepted: scope string, scp array, with or without our participant as aud', async () => {
    const scope = { aud: undefined, scope: 'openid daml_ledger_api profile' };
    await expectStatus(app, await token({ claims: scope }), 200, 'scope string');
    await expectStatus(
      app,
      await token({ claims: { aud: undefined, scp: ['daml_ledger_api'] } }),
      200,
      'scp array',
    );
    await expectStatus(
      app,
      await token({ claims: { ...scope, aud: PARTICIPANT } }),
      200,
      'scope + our participant',
    );
  });

  test('a missing Authorization header, another scheme, or a malformed token is 401 (redacted)', async () => {
    for (const headers of [
      {},
      { authorization: 'Basic Y29uZm9ybWFuY2U6eA==' },
      bearer('abc'),
      bearer('a.b.c'),
    ]) {
      const res = await listWith(app, headers);
      expect(res.status, JSON.stringify(headers)).toBe(401);
      expect(res.type).toBe('application/json');
      expect(JSON.parse(res.body)).toEqual(redacted(16));
    }
  });

  test('time claims: expired, not yet valid, no exp, issued in the future, longer than the max lifetime → 401', async () => {
    await expectStatus(app, await token({ claims: { exp: now() - 5 } }), 401, 'expired');
    await expectStatus(app, await token({ claims: { nbf: now() + 60 } }), 401, 'nbf in the future');
    await expectStatus(app, await token({ claims: { exp: undefined } }), 401, 'no exp');
    await expectStatus(app, await token({ claims: { iat: now() + 60 } }), 401, 'iat in the future');
    // Beyond by half a minute, not by one second: the token is signed and sent before the sandbox reads its
    // clock, and on a loaded machine that can take more than a second.
    await expectStatus(app, await token({ claims: { exp: now() + 330 } }), 401, 'exp beyond 5 minutes');
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

  test('a token signed with another secret or another algorithm is 401', async () => {
    await expectStatus(
      app,
      await token({ key: new TextEncoder().encode('not-the-secret') }),
      401,
      'wrong secret',
    );
    const { privateKey } = await generateKeyPair('RS256');
    await expectStatus(app, await token({ key: privateKey, alg: 'RS256' }), 401, 'RS256 on an HS256 sandbox');
    const unsigned = `${Buffer.from('{"alg":"none"}').toString('base64url')}.${Buffer.from(
      JSON.stringify({ sub: 'conformance', aud: AUD_PREFIX + PARTICIPANT, exp: now() + 60 }),
    ).toString('base64url')}.`;
    await expectStatus(app, unsigned, 401, 'alg none');
  });

  test('wrong audience or scope, or a payload that is not a Canton user token, is 401', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ aud: 'https://example.com/api' }, 'foreign audience, no scope'],
      [{ aud: AUD_PREFIX }, 'participant audience with an empty id'],
      [{ aud: [AUD_PREFIX + PARTICIPANT, AUD_PREFIX + OTHER_PARTICIPANT] }, 'two participant audiences'],
      [{ aud: undefined }, 'neither audience nor scope'],
      [{ aud: undefined, scope: 'openid profile' }, 'other scopes only'],
      [{ aud: ['a', 'b'], scope: 'daml_ledger_api' }, 'scope form with two audiences'],
      [{ sub: undefined }, 'no sub'],
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

  test('a token for another participant is 403 (redacted, no ledger_api_error)', async () => {
    for (const claims of [
      { aud: AUD_PREFIX + OTHER_PARTICIPANT },
      { aud: OTHER_PARTICIPANT, scope: 'daml_ledger_api' },
    ]) {
      const res = await listWith(app, bearer(await token({ claims })));
      expect(res.status).toBe(403);
      expect(JSON.parse(res.body)).toEqual(redacted(7));
    }
  });

  test('a valid token of an unknown user is 403 with ledger_api_error "invalid token"', async () => {
    const res = await listWith(app, bearer(await token({ claims: { sub: 'mallory' } })));
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual(redacted(7, { ledger_api_error: 'invalid token' }));
    // The other dev user is known: same token shape, accepted.
    await expectStatus(app, await token({ claims: { sub: 'reader' } }), 200, 'known user reader');
  });

  test('an empty bearer fails header decoding: 400 text/plain', async () => {
    for (const authorization of ['Bearer ', 'Bearer', 'bearer   ']) {
      const res = await listWith(app, { authorization });
      expect(res.status, JSON.stringify(authorization)).toBe(400);
      expect(res.type).toMatch(/^text\/plain/);
      expect(res.body).toBe('Invalid value for: header Authorization');
    }
  });

  test('version: 200 without a token in canton mode, 401 without one in strict-interface mode', async () => {
    expect((await app.inject({ method: 'GET', url: '/v2/version' })).statusCode).toBe(200);
    const strict = await sandbox({ SANDBOX_MODE: 'strict-interface' });
    const res = await strict.inject({ method: 'GET', url: '/v2/version' });
    expect(res.statusCode).toBe(401);
    expect(res.json()).toEqual(redacted(16));
    const unknown = await strict.inject({
      method: 'GET',
      url: '/v2/version',
      headers: bearer(await token({ claims: { sub: 'mallory' } })),
    });
    expect(unknown.statusCode).toBe(403);
    await strict.close();
  });
});

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

    await expectStatus(app, await token({ key: rsa.privateKey, alg: 'RS256', kid: 'rsa-1' }), 200, 'RS256');
    await expectStatus(app, await token({ key: ec.privateKey, alg: 'ES256', kid: 'ec-1' }), 200, 'ES256');
    await expectStatus(
      app,
      await token({ key: stranger.privateKey, alg: 'RS256', kid: 'rsa-1' }),
      401,
      'key not in JWKS',
    );
    await expectStatus(
      app,
      await token({ key: stranger.privateKey, alg: 'RS256', kid: 'nope' }),
      401,
      'unknown kid',
    );
    await expectStatus(app, await token(), 401, 'HS256 on a JWKS sandbox');
    await expectStatus(
      app,
      await token({ key: rsa.privateKey, alg: 'RS256', kid: 'rsa-1', claims: { exp: now() - 1 } }),
      401,
      'expired RS256',
    );
    const res = await listWith(
      app,
      bearer(await token({ key: ec.privateKey, alg: 'ES256', kid: 'ec-1', claims: { sub: 'mallory' } })),
    );
    expect(res.status).toBe(403);
    expect(JSON.parse(res.body)).toEqual(redacted(7, { ledger_api_error: 'invalid token' }));
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

  test('requireAuthenticated: 401 for unauthenticated, 403 for another participant, claims otherwise', () => {
    const thrown = (f: () => unknown): CantonError | undefined => {
      try {
        f();
      } catch (e) {
        return e as CantonError;
      }
      return undefined;
    };
    expect(thrown(() => requireAuthenticated({ kind: 'unauthenticated', reason: 'x' }))?.status).toBe(401);
    const user = { kind: 'user', userId: 'u', actAs: new Set<string>(), readAs: new Set<string>() } as const;
    expect(
      thrown(() => requireAuthenticated({ ...user, foreignParticipant: OTHER_PARTICIPANT }))?.status,
    ).toBe(403);
    expect(requireAuthenticated(user)).toBe(user);
    expect(requireAuthenticated({ kind: 'wildcard' })).toEqual({ kind: 'wildcard' });
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
