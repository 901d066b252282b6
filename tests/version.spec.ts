// Version discovery (interface document §2.9, §9): what GET /v2/version returns, and that it needs the
// Authorization header (§4, §5.1 — Canton answers without one: a known deviation of its baseline).
import { forRule, test, expect, versionDocument } from '../fixtures';

/** Semantic Versioning 2.0.0, the regular expression semver.org suggests (Canton's own test checks it). */
const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;

const INT32_MAX = 2 ** 31 - 1;
const NANOS_MAX = 999_999_999;

type Json = Record<string, unknown>;

/** The value at a dotted path, and whether every step on the way existed. */
function at(doc: unknown, path: string): { present: boolean; value: unknown } {
  let node: unknown = doc;
  for (const key of path.split('.')) {
    if (node === null || typeof node !== 'object' || !(key in node))
      return { present: false, value: undefined };
    node = (node as Json)[key];
  }
  return { present: true, value: node };
}

const isInt = (v: unknown): v is number => typeof v === 'number' && Number.isInteger(v);

/**
 * Each feature path of §2.9 with what makes its value sane. The limits are int32 page sizes and counts;
 * Canton reports 0 for the user-management limits only when user management is switched off.
 */
const FEATURES: { path: string; check: (value: unknown, doc: unknown) => void }[] = [
  ...[
    'features.experimental.staticTime.supported',
    'features.experimental.commandInspectionService.supported',
    'features.userManagement.supported',
  ].map((path) => ({
    path,
    check: (v: unknown) => expect(typeof v, `${path} is a boolean, got ${JSON.stringify(v)}`).toBe('boolean'),
  })),
  ...['features.userManagement.maxRightsPerUser', 'features.userManagement.maxUsersPageSize'].map((path) => ({
    path,
    check: (v: unknown, doc: unknown) => {
      const enabled = at(doc, 'features.userManagement.supported').value !== false;
      expect(isInt(v), `${path} is an integer, got ${JSON.stringify(v)}`).toBe(true);
      expect(v as number, `${path} fits an int32`).toBeLessThanOrEqual(INT32_MAX);
      if (enabled) expect(v as number, `${path} with user management supported`).toBeGreaterThan(0);
      else expect(v as number, `${path} with user management off`).toBeGreaterThanOrEqual(0);
    },
  })),
  ...['features.partyManagement.maxPartiesPageSize', 'features.packageFeature.maxVettedPackagesPageSize'].map(
    (path) => ({
      path,
      check: (v: unknown) => {
        expect(isInt(v), `${path} is an integer, got ${JSON.stringify(v)}`).toBe(true);
        expect(v as number, `${path} is a page size`).toBeGreaterThan(0);
        expect(v as number, `${path} fits an int32`).toBeLessThanOrEqual(INT32_MAX);
      },
    }),
  ),
  {
    path: 'features.offsetCheckpoint.maxOffsetCheckpointEmissionDelay',
    check: (v: unknown) => {
      const path = 'maxOffsetCheckpointEmissionDelay';
      expect(
        v !== null && typeof v === 'object' && !Array.isArray(v),
        `${path} is a Duration object, got ${JSON.stringify(v)}`,
      ).toBe(true);
      const d = v as Json;
      expect(isInt(d.seconds), `${path}.seconds is an integer, got ${JSON.stringify(d.seconds)}`).toBe(true);
      expect(d.seconds as number, `${path}.seconds is not negative`).toBeGreaterThanOrEqual(0);
      expect(isInt(d.nanos), `${path}.nanos is an integer, got ${JSON.stringify(d.nanos)}`).toBe(true);
      expect(d.nanos as number, `${path}.nanos is within 0…${NANOS_MAX}`).toBeGreaterThanOrEqual(0);
      expect(d.nanos as number, `${path}.nanos is within 0…${NANOS_MAX}`).toBeLessThanOrEqual(NANOS_MAX);
      // §2.9 lists unknownFields (an object whose key `fields` holds an object); Canton always sends it.
      if ('unknownFields' in d) {
        const u = d.unknownFields as Json | null;
        expect(
          u !== null && typeof u === 'object' && typeof u.fields === 'object' && u.fields !== null,
          `${path}.unknownFields is an object holding the object "fields", got ${JSON.stringify(u)}`,
        ).toBe(true);
      }
    },
  },
];

test.describe('GET /v2/version', () => {
  test(...forRule('VER-SHAPE'), async ({ ledger }) => {
    const res = await ledger.version();
    expect(res).toHaveStatus(200);
    expect(res.json).toMatchSchema('version-response');
  });

  test(...forRule('VER-SEMVER'), async ({ ledger }) => {
    const res = await ledger.version();
    expect(res).toHaveStatus(200);
    const version = (res.json as Json | undefined)?.version;
    expect(typeof version, `version is a string, got ${JSON.stringify(version)}`).toBe('string');
    expect(version as string, 'version follows Semantic Versioning 2.0.0').toMatch(SEMVER);
  });

  for (const feature of FEATURES) {
    test(...forRule('VER-FEATURES', ` — ${feature.path}`), async ({ ledger }) => {
      const res = await ledger.version();
      expect(res).toHaveStatus(200);
      const { present, value } = at(res.json, feature.path);
      expect(present, `${feature.path} is present`).toBe(true);
      feature.check(value, res.json);
    });
  }

  test(...forRule('VER-STABLE'), async ({ ledger, target }) => {
    const first = await ledger.version();
    const second = await ledger.version();
    expect(first).toHaveStatus(200);
    expect(second).toHaveStatus(200);
    expect(second.json, 'the second read equals the first').toEqual(first.json);
    // The read this run started with (the worker's target probe) is one more read of the same document.
    if (target.versionDocument !== undefined) {
      expect(first.json, 'the read equals the one this run started with').toEqual(target.versionDocument);
    }
  });

  test(...forRule('VER-AUTH-REQUIRED'), async ({ ledger, deviation }) => {
    const res = await ledger.version({ token: null, label: 'no Authorization header' });
    await deviation.judge(
      () => expect(res).toBeRejected('GET /v2/version without the Authorization header'),
      { 'version-document': () => versionDocument(res) },
    );
  });
});
