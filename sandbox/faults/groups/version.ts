// Faults that break the version rules (VER-*, tests/version.spec.ts): at least one per rule. Most rewrite the
// version document; ver-auth-flipped is switched by name where it deviates (sandbox/routes/version.ts).
// `rules` lists every rule the fault makes fail.
import { fault, type ResponseView } from '../types';

/** The parts of the version document the faults change (the sandbox always sends them). */
interface VersionDoc {
  version: string;
  features: {
    experimental: { staticTime: { supported: unknown } };
    userManagement: { maxUsersPageSize: unknown };
    partyManagement?: { maxPartiesPageSize: unknown };
    offsetCheckpoint: { maxOffsetCheckpointEmissionDelay: { seconds: number; nanos: number } };
  };
}

/** A copy of the version document with one change. */
const versionDoc =
  (change: (doc: VersionDoc) => void) =>
  (res: ResponseView): ResponseView | undefined => {
    if (res.status !== 200) return undefined;
    const doc = structuredClone(res.body) as VersionDoc;
    change(doc);
    return { ...res, body: doc };
  };

let versionReads = 0;

export const versionFaults = [
  fault({
    name: 'ver-features-missing',
    breaks: 'the version response omits features.partyManagement',
    rules: ['VER-SHAPE', 'VER-FEATURES'],
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        delete doc.features.partyManagement;
      }),
    },
  }),
  fault({
    name: 'ver-feature-wrong-type',
    breaks: 'features.userManagement.maxUsersPageSize is the string "1000", not an integer',
    rules: ['VER-SHAPE', 'VER-FEATURES'],
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.features.userManagement.maxUsersPageSize = String(doc.features.userManagement.maxUsersPageSize);
      }),
    },
  }),
  fault({
    name: 'ver-feature-boolean-as-string',
    breaks: 'features.experimental.staticTime.supported is the string "false", not a boolean',
    rules: ['VER-SHAPE', 'VER-FEATURES'],
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.features.experimental.staticTime.supported = 'false';
      }),
    },
  }),
  fault({
    name: 'ver-feature-zero-page-size',
    breaks: 'features.partyManagement.maxPartiesPageSize is 0, a page size that allows nothing',
    rules: ['VER-FEATURES'],
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.features.partyManagement!.maxPartiesPageSize = 0;
      }),
    },
  }),
  fault({
    name: 'ver-duration-nanos-overflow',
    breaks:
      'maxOffsetCheckpointEmissionDelay is {seconds 74, nanos 1 000 000 000}: nanos out of 0…999 999 999',
    rules: ['VER-FEATURES'],
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        const d = doc.features.offsetCheckpoint.maxOffsetCheckpointEmissionDelay;
        d.seconds -= 1;
        d.nanos = 1_000_000_000;
      }),
    },
  }),
  fault({
    name: 'ver-not-semver',
    breaks: 'the version string has four numbers (3.4.11.2), which is not SemVer',
    rules: ['VER-SHAPE', 'VER-SEMVER'],
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.version = `${doc.version.split(/[-+]/)[0]}.2`;
      }),
    },
  }),
  fault({
    name: 'ver-unstable',
    breaks: 'every read of the version reports another build (3.4.11-r1, 3.4.11-r2, …)',
    rules: ['VER-STABLE'],
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        versionReads += 1;
        doc.version = `${doc.version.split(/[-+]/)[0]}-r${versionReads}`;
      }),
    },
  }),
  fault({
    name: 'ver-auth-flipped',
    breaks:
      "GET /v2/version inverts its mode's Authorization behaviour: strict-interface answers without a token " +
      "(the document's rule broken), canton mode demands one (Canton's known deviation no longer holds)",
    rules: ['VER-AUTH-REQUIRED'],
  }),
];
