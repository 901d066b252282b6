// Faults that break the version, auth and general rules (tests/version.spec.ts, tests/auth.spec.ts,
// tests/general.spec.ts): at least one per VER-*, AUTH-* and GEN-* rule. Output-level faults rewrite the
// response here; behavioural ones are switched by name at the one place they deviate: sandbox/auth.ts
// (token reading and the empty-bearer hook) and sandbox/routes/version.ts (ver-auth-flipped).
// `rules` lists every rule of those three specs the fault makes fail.
import type { FastifyRequest } from 'fastify';
import type { Fault, ResponseView } from '../types';

interface ErrorBody {
  code?: string;
  grpcCodeValue?: number | null;
  context?: Record<string, string>;
}

const TEXT = 'text/plain; charset=UTF-8';

/** Only successful answers (status 200). */
const on200 =
  (apply: (res: ResponseView) => ResponseView) =>
  (res: ResponseView): ResponseView | undefined =>
    res.status === 200 ? apply(res) : undefined;

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

/** Canton's LEDGER_API_INTERNAL_ERROR body (category 4, INTERNAL → 500). */
const internalError = (res: ResponseView): ResponseView => ({
  ...res,
  status: 500,
  body: {
    code: 'LEDGER_API_INTERNAL_ERROR',
    cause: 'An internal error occurred',
    correlationId: null,
    traceId: null,
    context: { category: '4', definite_answer: 'false' },
    resources: [],
    errorCategory: 4,
    grpcCodeValue: 13,
    retryInfo: null,
    definiteAnswer: null,
  },
});

/** How deep a parsed JSON value nests (iteratively: the value may be deeper than the stack). */
function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    max = Math.max(max, depth + 1);
    if (max > limit) return max;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

/** An unredacted auth error, as a participant that forgot Canton's redaction would send it. */
const unredacted = (res: ResponseView, grpc: 16 | 7): ResponseView | undefined => {
  const body = res.body as ErrorBody;
  if (body?.code !== 'NA' || body.grpcCodeValue !== grpc) return undefined;
  const [code, category, cause] =
    grpc === 16
      ? ['UNAUTHENTICATED', 6, 'The command is missing a (valid) JWT token']
      : ['PERMISSION_DENIED', 7, 'Claims do not authorize the request'];
  return {
    ...res,
    body: {
      ...(res.body as object),
      code,
      cause,
      errorCategory: category,
      context: { ...body.context, category: String(category), definite_answer: 'false' },
    },
  };
};

/** Per-process read counter of ver-unstable (only an app with that fault ever counts). */
let versionReads = 0;

const AUTH_401 = [
  'AUTH-NO-HEADER-CODE',
  'AUTH-MALFORMED-TOKEN',
  'AUTH-UNSIGNED-TOKEN',
  'AUTH-EXPIRED-TOKEN',
  'AUTH-NOT-YET-VALID',
  'AUTH-WRONG-KEY',
  'AUTH-WRONG-AUDIENCE',
];
const AUTH_403 = [
  'AUTH-OTHER-PARTICIPANT',
  'AUTH-UNKNOWN-USER',
  'AUTH-ACTAS-NO-RIGHT-CODE',
  'AUTH-READAS-NO-RIGHT-CODE',
];

export const versionAuthGeneralFaults: Fault[] = [
  // ── Version ───────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'ver-features-missing',
    breaks: 'the version response omits features.partyManagement',
    rules: ['VER-SHAPE', 'VER-FEATURES'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        delete doc.features.partyManagement;
      }),
    },
  },
  {
    name: 'ver-feature-wrong-type',
    breaks: 'features.userManagement.maxUsersPageSize is the string "1000", not an integer',
    rules: ['VER-SHAPE', 'VER-FEATURES'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.features.userManagement.maxUsersPageSize = String(doc.features.userManagement.maxUsersPageSize);
      }),
    },
  },
  {
    name: 'ver-feature-boolean-as-string',
    breaks: 'features.experimental.staticTime.supported is the string "false", not a boolean',
    rules: ['VER-SHAPE', 'VER-FEATURES'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.features.experimental.staticTime.supported = 'false';
      }),
    },
  },
  {
    name: 'ver-feature-zero-page-size',
    breaks: 'features.partyManagement.maxPartiesPageSize is 0, a page size that allows nothing',
    rules: ['VER-FEATURES'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.features.partyManagement!.maxPartiesPageSize = 0;
      }),
    },
  },
  {
    name: 'ver-duration-nanos-overflow',
    breaks:
      'maxOffsetCheckpointEmissionDelay is {seconds 74, nanos 1 000 000 000}: nanos out of 0…999 999 999',
    rules: ['VER-FEATURES'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        const d = doc.features.offsetCheckpoint.maxOffsetCheckpointEmissionDelay;
        d.seconds -= 1;
        d.nanos = 1_000_000_000;
      }),
    },
  },
  {
    name: 'ver-not-semver',
    breaks: 'the version string has four numbers (3.4.11.2), which is not SemVer',
    rules: ['VER-SHAPE', 'VER-SEMVER'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        doc.version = `${doc.version.split(/[-+]/)[0]}.2`;
      }),
    },
  },
  {
    name: 'ver-unstable',
    breaks: 'every read of the version reports another build (3.4.11-r1, 3.4.11-r2, …)',
    rules: ['VER-STABLE'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: versionDoc((doc) => {
        versionReads += 1;
        doc.version = `${doc.version.split(/[-+]/)[0]}-r${versionReads}`;
      }),
    },
  },
  {
    name: 'ver-auth-flipped',
    breaks:
      "GET /v2/version inverts its mode's Authorization behaviour: strict-interface answers without a token " +
      "(the document's rule broken), canton mode demands one (Canton's known deviation no longer holds)",
    rules: ['VER-AUTH-REQUIRED'],
    kind: 'conformance',
  },

  // ── Authentication ────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'auth-no-header-accepted',
    breaks: 'a request without the Authorization header is served as the first configured user',
    rules: ['AUTH-NO-HEADER', 'AUTH-NO-HEADER-CODE'],
    kind: 'conformance',
  },
  {
    name: 'auth-empty-bearer-as-missing',
    breaks:
      '"Authorization: Bearer " with no token is read as no header (401) instead of failing decoding (400)',
    rules: ['AUTH-EMPTY-BEARER'],
    kind: 'conformance',
  },
  {
    name: 'auth-malformed-400',
    breaks: 'a token that is not a JWT is answered 400 INVALID_ARGUMENT instead of 401',
    rules: ['AUTH-MALFORMED-TOKEN'],
    kind: 'conformance',
  },
  {
    name: 'auth-unsigned-accepted',
    breaks: 'a token with alg "none" and no signature is accepted',
    rules: ['AUTH-UNSIGNED-TOKEN'],
    kind: 'conformance',
  },
  {
    name: 'auth-expired-accepted',
    breaks: 'an expired token is accepted (exp not checked)',
    rules: ['AUTH-EXPIRED-TOKEN'],
    kind: 'conformance',
  },
  {
    name: 'auth-nbf-ignored',
    breaks: 'a token is accepted before its nbf',
    rules: ['AUTH-NOT-YET-VALID'],
    kind: 'conformance',
  },
  {
    name: 'auth-any-signature',
    breaks: 'a token signed with an untrusted key is accepted (signature failures ignored)',
    rules: ['AUTH-WRONG-KEY'],
    kind: 'conformance',
  },
  {
    name: 'auth-audience-ignored',
    breaks: 'a token for another audience or scope is accepted as a user token',
    rules: ['AUTH-WRONG-AUDIENCE'],
    kind: 'conformance',
  },
  {
    name: 'auth-other-participant-accepted',
    breaks: "a token restricted to another participant is accepted (the audience's participant not compared)",
    rules: ['AUTH-OTHER-PARTICIPANT'],
    kind: 'conformance',
  },
  {
    name: 'auth-unknown-user-accepted',
    breaks: 'a valid token of an unknown user is accepted as a user without rights',
    rules: ['AUTH-UNKNOWN-USER'],
    kind: 'conformance',
  },
  {
    name: 'auth-unredacted-401',
    breaks:
      'authentication failures are not redacted: code UNAUTHENTICATED, category 6 and the reason as cause',
    rules: AUTH_401,
    kind: 'conformance',
    rewrite: { route: 'any', apply: (res) => (res.status === 401 ? unredacted(res, 16) : undefined) },
  },
  {
    name: 'auth-unredacted-403',
    breaks:
      'permission failures are not redacted: code PERMISSION_DENIED, category 7 and the reason as cause',
    rules: AUTH_403,
    kind: 'conformance',
    rewrite: { route: 'any', apply: (res) => (res.status === 403 ? unredacted(res, 7) : undefined) },
  },
  {
    name: 'auth-actas-unchecked',
    breaks:
      "the user's act-as rights are not checked: any party may be acted as (and so read as, as Canton's act-as right implies)",
    rules: [
      'AUTH-ACTAS-NO-RIGHT',
      'AUTH-ACTAS-NO-RIGHT-CODE',
      'AUTH-READAS-NO-RIGHT',
      'AUTH-READAS-NO-RIGHT-CODE',
    ],
    kind: 'conformance',
  },
  {
    name: 'auth-readas-unchecked',
    breaks: "the user's read-as rights are not checked: any party may be read as",
    rules: ['AUTH-READAS-NO-RIGHT', 'AUTH-READAS-NO-RIGHT-CODE'],
    kind: 'conformance',
  },

  // ── General ───────────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'gen-version-as-text',
    breaks: 'GET /v2/version serves its JSON as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE'],
    kind: 'conformance',
    rewrite: { route: 'version', apply: on200((res) => ({ ...res, contentType: TEXT })) },
  },
  {
    name: 'gen-vetting-as-text',
    breaks: 'a vetting page is served as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE'],
    kind: 'conformance',
    rewrite: { route: 'vetting-list', apply: on200((res) => ({ ...res, contentType: TEXT })) },
  },
  {
    name: 'gen-submit-as-text',
    breaks: 'an accepted submission is served as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE-SUBMIT'],
    kind: 'conformance',
    rewrite: { route: 'submit-tree', apply: on200((res) => ({ ...res, contentType: TEXT })) },
  },
  {
    name: 'gen-errors-as-text',
    breaks: 'JsCantonError bodies of 400 answers are served as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE', 'GEN-ERROR-BODY'],
    kind: 'conformance',
    rewrite: {
      route: 'any',
      apply: (res) => (res.status === 400 ? { ...res, contentType: TEXT } : undefined),
    },
  },
  {
    name: 'gen-status-disagrees',
    breaks: 'INVALID_ARGUMENT errors (grpcCodeValue 3) are answered 422 instead of 400',
    rules: ['GEN-ERROR-BODY'],
    kind: 'conformance',
    rewrite: {
      route: 'any',
      apply: (res) =>
        res.status === 400 && (res.body as ErrorBody)?.grpcCodeValue === 3
          ? { ...res, status: 422 }
          : undefined,
    },
  },
  {
    name: 'gen-grpc-code-null',
    breaks: 'error bodies carry grpcCodeValue null while the status says otherwise',
    rules: ['GEN-ERROR-BODY', ...AUTH_401, ...AUTH_403],
    kind: 'conformance',
    rewrite: {
      route: 'any',
      apply: (res) =>
        res.status >= 400 && typeof (res.body as ErrorBody)?.grpcCodeValue === 'number'
          ? { ...res, body: { ...(res.body as object), grpcCodeValue: null } }
          : undefined,
    },
  },
  {
    name: 'gen-5xx-deep-nesting',
    breaks: 'a request body nested deeper than 1000 levels crashes the request (500)',
    rules: ['GEN-NO-5XX'],
    kind: 'conformance',
    rewrite: {
      route: 'any',
      apply: (res, req: FastifyRequest) => (depthOf(req.body, 1000) > 1000 ? internalError(res) : undefined),
    },
  },
  {
    name: 'gen-5xx-odd-accept',
    breaks: 'GET /v2/version answers 500 when the client accepts only XML',
    rules: ['GEN-NO-5XX'],
    kind: 'conformance',
    rewrite: {
      route: 'version',
      apply: (res, req: FastifyRequest) =>
        /xml/i.test(req.headers.accept ?? '') && !/json|\*\/\*/i.test(req.headers.accept ?? '')
          ? internalError(res)
          : undefined,
    },
  },
];
