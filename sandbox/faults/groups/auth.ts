// Faults that break the authentication and authorization rules (AUTH-*, tests/auth.spec.ts): at least one
// per rule. The verifier's are switched by name where they deviate (sandbox/auth.ts: token reading and the
// empty-bearer hook); the unredacted errors rewrite the answer. `rules` lists every rule the fault makes fail.
import { fault, type ResponseView } from '../types';

export interface ErrorBody {
  code?: string;
  grpcCodeValue?: number | null;
  context?: Record<string, string>;
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

/** The rules that assert a redacted 401 (UNAUTHENTICATED) or 403 (PERMISSION_DENIED) body. */
export const AUTH_401 = [
  'AUTH-NO-HEADER-CODE',
  'AUTH-MALFORMED-TOKEN',
  'AUTH-UNSIGNED-TOKEN',
  'AUTH-EXPIRED-TOKEN',
  'AUTH-NOT-YET-VALID',
  'AUTH-WRONG-KEY',
  'AUTH-WRONG-AUDIENCE',
] as const;
export const AUTH_403 = [
  'AUTH-OTHER-PARTICIPANT',
  'AUTH-UNKNOWN-USER',
  'AUTH-ACTAS-NO-RIGHT-CODE',
  'AUTH-READAS-NO-RIGHT-CODE',
] as const;

export const authFaults = [
  fault({
    name: 'auth-no-header-accepted',
    breaks: 'a request without the Authorization header is served as the first configured user',
    rules: ['AUTH-NO-HEADER', 'AUTH-NO-HEADER-CODE'],
  }),
  fault({
    name: 'auth-empty-bearer-as-missing',
    breaks:
      '"Authorization: Bearer " with no token is read as no header (401) instead of failing decoding (400)',
    rules: ['AUTH-EMPTY-BEARER'],
  }),
  fault({
    name: 'auth-malformed-400',
    breaks: 'a token that is not a JWT is answered 400 INVALID_ARGUMENT instead of 401',
    rules: ['AUTH-MALFORMED-TOKEN'],
  }),
  fault({
    name: 'auth-unsigned-accepted',
    breaks: 'a token with alg "none" and no signature is accepted',
    rules: ['AUTH-UNSIGNED-TOKEN'],
  }),
  fault({
    name: 'auth-expired-accepted',
    breaks: 'an expired token is accepted (exp not checked)',
    rules: ['AUTH-EXPIRED-TOKEN'],
  }),
  fault({
    name: 'auth-nbf-ignored',
    breaks: 'a token is accepted before its nbf',
    rules: ['AUTH-NOT-YET-VALID'],
  }),
  fault({
    name: 'auth-any-signature',
    breaks: 'a token signed with an untrusted key is accepted (signature failures ignored)',
    rules: ['AUTH-WRONG-KEY'],
  }),
  fault({
    name: 'auth-audience-ignored',
    breaks: 'a token for another audience or scope is accepted as a user token',
    rules: ['AUTH-WRONG-AUDIENCE'],
  }),
  fault({
    name: 'auth-other-participant-accepted',
    breaks: "a token restricted to another participant is accepted (the audience's participant not compared)",
    rules: ['AUTH-OTHER-PARTICIPANT'],
  }),
  fault({
    name: 'auth-unknown-user-accepted',
    breaks: 'a valid token of an unknown user is accepted as a user without rights',
    rules: ['AUTH-UNKNOWN-USER'],
  }),
  fault({
    name: 'auth-unredacted-401',
    breaks:
      'authentication failures are not redacted: code UNAUTHENTICATED, category 6 and the reason as cause',
    rules: AUTH_401,
    rewrite: { route: 'any', apply: (res) => (res.status === 401 ? unredacted(res, 16) : undefined) },
  }),
  fault({
    name: 'auth-unredacted-403',
    breaks:
      'permission failures are not redacted: code PERMISSION_DENIED, category 7 and the reason as cause',
    rules: AUTH_403,
    rewrite: { route: 'any', apply: (res) => (res.status === 403 ? unredacted(res, 7) : undefined) },
  }),
  fault({
    name: 'auth-actas-unchecked',
    breaks:
      "the user's act-as rights are not checked: any party may be acted as (and so read as, as Canton's act-as right implies)",
    rules: [
      'AUTH-ACTAS-NO-RIGHT',
      'AUTH-ACTAS-NO-RIGHT-CODE',
      'AUTH-READAS-NO-RIGHT',
      'AUTH-READAS-NO-RIGHT-CODE',
    ],
  }),
  fault({
    name: 'auth-readas-unchecked',
    breaks: "the user's read-as rights are not checked: any party may be read as",
    rules: ['AUTH-READAS-NO-RIGHT', 'AUTH-READAS-NO-RIGHT-CODE'],
  }),
];
