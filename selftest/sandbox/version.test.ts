// GET /v2/version of the sandbox: Canton's FeaturesDescriptor defaults, the configurable parts, and the
// auth deviation (canton: no token needed; strict-interface: the header is required).
import { expect, test } from '../support/test';
import { bearer, redacted, sandbox, token } from '../support/sandbox-kit';
import { versionDefaults } from '../schemas/schema-examples';

// Canton's own check of the version string (JsonV2Tests "version service / get version"): SemVer 2.0.
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

/** Canton's defaults (schemas/schema-examples.ts) as this sandbox reports them: its version, its page size. */
const cantonDefaults = (version: string, maxVettedPackagesPageSize: number): unknown => {
  const { features } = versionDefaults();
  return { version, features: { ...features, packageFeature: { maxVettedPackagesPageSize } } };
};

test.describe('sandbox GET /v2/version', () => {
  test('answers Canton 3.4 defaults as application/json with a SemVer version', async () => {
    const app = await sandbox();
    const res = await app.inject({ method: 'GET', url: '/v2/version' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    const body = res.json<{ version: string }>();
    expect(body).toEqual(cantonDefaults('3.4.11', 100));
    expect(body.version).toMatch(SEMVER);
    // The exact bytes of the duration object, unknownFields included, as Canton serialises it.
    expect(res.body).toContain(
      '"maxOffsetCheckpointEmissionDelay":{"seconds":75,"nanos":0,"unknownFields":{"fields":{}}}',
    );
    await app.close();
  });

  test('serves the configured version (pre-release too) and page-size maximum', async () => {
    for (const [version, size] of [
      ['3.5.10', 7],
      ['3.4.12-SNAPSHOT', 250],
    ] as const) {
      const app = await sandbox({ SANDBOX_VERSION: version, SANDBOX_MAX_VETTED_PAGE_SIZE: String(size) });
      const res = await app.inject({ method: 'GET', url: '/v2/version' });
      expect(res.json()).toEqual(cantonDefaults(version, size));
      await app.close();
    }
  });

  test('canton mode: answers without a token and with an invalid one, as Canton does', async () => {
    const app = await sandbox();
    expect((await app.inject({ method: 'GET', url: '/v2/version' })).statusCode).toBe(200);
    const bad = await app.inject({ method: 'GET', url: '/v2/version', headers: bearer('not.a.jwt') });
    expect(bad.statusCode).toBe(200);
    await app.close();
  });

  test('strict-interface mode: the Authorization header is required (401 redacted without it)', async () => {
    const app = await sandbox({ SANDBOX_MODE: 'strict-interface' });
    const none = await app.inject({ method: 'GET', url: '/v2/version' });
    expect(none.statusCode).toBe(401);
    expect(none.headers['content-type']).toBe('application/json');
    expect(none.json()).toEqual(redacted(16));

    const expired = await token({ claims: { exp: Math.floor(Date.now() / 1000) - 10 } });
    expect(
      (await app.inject({ method: 'GET', url: '/v2/version', headers: bearer(expired) })).statusCode,
    ).toBe(401);
    const ok = await app.inject({ method: 'GET', url: '/v2/version', headers: bearer(await token()) });
    expect(ok.statusCode).toBe(200);
    expect(ok.json()).toEqual(cantonDefaults('3.4.11', 100));
    await app.close();
  });

  test('an empty bearer fails header decoding with 400 text/plain, in either mode', async () => {
    for (const mode of ['canton', 'strict-interface']) {
      const app = await sandbox({ SANDBOX_MODE: mode });
      const res = await app.inject({
        method: 'GET',
        url: '/v2/version',
        headers: { authorization: 'Bearer ' },
      });
      expect(res.statusCode).toBe(400);
      expect(res.headers['content-type']).toMatch(/^text\/plain/);
      expect(res.body).toBe('Invalid value for: header Authorization');
      await app.close();
    }
  });

  test('other methods are 405 and other paths 404 (as tapir and Canton answer), not a 5xx', async () => {
    const app = await sandbox();
    for (const [method, url, status] of [
      ['POST', '/v2/version', 405],
      ['DELETE', '/v2/version', 405],
      ['GET', '/v2/versions', 404],
      ['GET', '/', 404],
    ] as const) {
      const res = await app.inject({ method, url, payload: method === 'GET' ? undefined : '{not json' });
      expect(res.statusCode, `${method} ${url}`).toBe(status);
    }
    await app.close();
  });
});
