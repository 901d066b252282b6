// GET /v2/version of the sandbox: Canton's FeaturesDescriptor defaults and the configurable parts. Its auth
// (canton: no token needed, any token ignored, an empty bearer 400; strict-interface: the token decides) is
// held token kind by token kind in both modes by selftest/sandbox/fuzz.test.ts; other methods (405) and paths
// (404) by selftest/sandbox/http-errors.test.ts.
import { expect, test } from '../support/test';
import { sandbox } from '../support/sandbox-kit';
import { versionDefaults } from '../schemas/schema-examples';

/** Canton's defaults (schemas/schema-examples.ts) as this sandbox reports them: its version, its page size. */
const cantonDefaults = (version: string, maxVettedPackagesPageSize: number): unknown => {
  const { features } = versionDefaults();
  return { version, features: { ...features, packageFeature: { maxVettedPackagesPageSize } } };
};

test.describe('sandbox GET /v2/version', () => {
  // That the version string is SemVer is VER-SEMVER's (tests/version.spec.ts), on the fault run's clean sandbox.
  test('answers Canton 3.4 defaults as application/json', async () => {
    const app = await sandbox();
    const res = await app.inject({ method: 'GET', url: '/v2/version' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.json()).toEqual(cantonDefaults('3.4.11', 100));
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
});
