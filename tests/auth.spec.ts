// Authentication and authorization (interface document §5): every operation takes `Authorization: Bearer
// <JWT>`, and the token must authorize acting and reading as the command's parties. The document leaves the
// answers to a missing or bad token unshown; Canton's are the reference (docs/canton-behaviour.md §1.7, §5): 401 or
// 403 with a redacted body. Canton's version operation needs no token (VER-AUTH-REQUIRED), so the
// operations judged here are the two that require one: the vetting list and the submission.
//
// Every request is valid apart from the one property under test, so that the participant's earlier stages
// (body decoding, the JSON layer's checks of the first actAs party and the package references) pass and
// the answer is the authentication's. Every submission is inert (core/inert.ts): its commands lead with an
// exercise of a contract that cannot exist, which only interpretation — after authorization — finds. So no
// participant commits anything here, not even one that skips the check under test: that one answers the
// exercise's refusal instead of the credentials', and the test fails on it. A rejection is therefore judged by
// what refused: only 401 or 403, the refusal of the credentials, passes.
import { forRule } from '../fixtures';
import {
  test,
  expect,
  PATHS,
  type LedgerClient,
  type LedgerResponse,
  type SubmitRequest,
  type Tokens,
} from '../fixtures';
import {
  MALFORMED_TOKEN,
  PERMISSION_DENIED,
  UNAUTHENTICATED,
  UNKNOWN_USER,
  unsignedToken,
} from '../fixtures';

interface Operation {
  name: string;
  path: string;
  /** The operation's valid request body (a fresh command for the submission). */
  body(valid: SubmitRequest): unknown;
}

const OPERATIONS: Operation[] = [
  { name: 'vetting list', path: PATHS.vettingList, body: () => ({}) },
  { name: 'submit', path: PATHS.submitTree, body: (valid) => valid },
];

/** Sends the operation's valid request with the given token (null: no Authorization header). */
function call(
  ledger: LedgerClient,
  op: Operation,
  valid: SubmitRequest,
  token: string | null,
  label: string,
  headers?: Record<string, string>,
): Promise<LedgerResponse> {
  return ledger.send({ method: 'POST', path: op.path, body: op.body(valid), token, label, headers });
}

/**
 * A refusal of the credentials, 401 or 403, whatever its body: the interface document says the header and the
 * rights are required, not how a refusal looks. Any other answer — an interpretation error above all — means the
 * participant went past the check.
 */
const expectRefused = (res: LedgerResponse, what: string): void =>
  expect(res, `${what}: a refusal of the credentials`).toHaveStatus([401, 403]);

/** The harness settings (the type the auth helpers take). */
type AuthSettings = Parameters<typeof unsignedToken>[0];

/**
 * One way a request's credentials are wrong, judged on every operation: the token (null: no Authorization
 * header) and headers it is sent with, and what the answer must be. `send` may skip the test (negative tokens
 * the provider cannot mint, a gate on the settings).
 */
interface TokenCase {
  rule: string;
  /** The rule in the interface's words; the test title is `${rule} ${title} — ${operation}`. */
  label: string;
  send(f: {
    tokens: Tokens;
    settings: AuthSettings;
  }): Promise<{ token: string | null; headers?: Record<string, string> }>;
  expect(res: LedgerResponse, op: Operation): void;
}

const TOKEN_CASES: TokenCase[] = [
  {
    rule: 'AUTH-NO-HEADER',
    label: 'no Authorization header',
    send: async () => ({ token: null }),
    expect: (res, op) => expectRefused(res, `${op.name} without the Authorization header`),
  },
  {
    rule: 'AUTH-NO-HEADER-CODE',
    label: 'no Authorization header',
    send: async () => ({ token: null }),
    expect: (res) => expect(res).toBeCantonError({ of: 'a request without a token', ...UNAUTHENTICATED }),
  },
  {
    rule: 'AUTH-EMPTY-BEARER',
    label: 'empty bearer',
    send: async () => ({ token: null, headers: { authorization: 'Bearer ' } }),
    expect: (res) => expect(res).toHaveStatus(400),
  },
  {
    rule: 'AUTH-MALFORMED-TOKEN',
    label: 'malformed token',
    send: async () => ({ token: MALFORMED_TOKEN }),
    expect: (res) => expect(res).toBeCantonError({ of: 'a malformed token', ...UNAUTHENTICATED }),
  },
  {
    rule: 'AUTH-UNSIGNED-TOKEN',
    label: 'unsigned token',
    send: async ({ settings }) => ({ token: unsignedToken(settings) }),
    expect: (res) => expect(res).toBeCantonError({ of: 'an unsigned token', ...UNAUTHENTICATED }),
  },
  {
    rule: 'AUTH-EXPIRED-TOKEN',
    label: 'expired token',
    send: async ({ tokens }) => ({ token: await tokens.negativeOrSkip().expired() }),
    expect: (res) => expect(res).toBeCantonError({ of: 'an expired token', ...UNAUTHENTICATED }),
  },
  {
    rule: 'AUTH-NOT-YET-VALID',
    label: 'token not valid yet',
    send: async ({ tokens }) => ({ token: await tokens.negativeOrSkip().notYetValid() }),
    expect: (res) => expect(res).toBeCantonError({ of: 'a token before its nbf', ...UNAUTHENTICATED }),
  },
  {
    rule: 'AUTH-WRONG-KEY',
    label: 'token signed with another key',
    send: async ({ tokens }) => ({ token: await tokens.negativeOrSkip().otherKey() }),
    expect: (res) =>
      expect(res).toBeCantonError({ of: 'a token signed with an untrusted key', ...UNAUTHENTICATED }),
  },
  {
    rule: 'AUTH-WRONG-AUDIENCE',
    label: 'token for another audience',
    send: async ({ tokens }) => ({ token: await tokens.negativeOrSkip().wrongAudience() }),
    expect: (res) => expect(res).toBeCantonError({ of: 'a token for another audience', ...UNAUTHENTICATED }),
  },
  {
    rule: 'AUTH-OTHER-PARTICIPANT',
    label: 'token for another participant',
    send: async ({ tokens }) => ({ token: await tokens.negativeOrSkip().otherParticipant() }),
    expect: (res) =>
      expect(res).toBeCantonError({ of: 'a token for another participant', ...PERMISSION_DENIED }),
  },
  {
    rule: 'AUTH-UNKNOWN-USER',
    label: 'token of an unknown user',
    // The body names the harness's user, as a client would: the token's user is what is unknown.
    send: async ({ tokens }) => ({ token: await tokens.negativeOrSkip().unknownUser() }),
    expect: (res) => expect(res).toBeCantonError({ of: 'a token of an unknown user', ...UNKNOWN_USER }),
  },
];

/**
 * Rights (§5.2): one party the user has no right for, added to actAs or readAs. The first actAs party stays
 * one the user may act as — Canton's JSON layer resolves the command's packages through it before
 * authorization — and the commands are built for the user's own parties, so the only thing wrong is the
 * extra party. Inert like every submission here: judged without writing, these rules are @readonly.
 */
const RIGHTS_CASES: {
  rule: string;
  field: 'actAs' | 'readAs';
  label: string;
  expect(res: LedgerResponse): void;
}[] = [
  {
    rule: 'AUTH-ACTAS-NO-RIGHT',
    field: 'actAs',
    label: 'actAs without a right',
    expect: (res) => expectRefused(res, 'a submission acting as a party the user has no right for'),
  },
  {
    rule: 'AUTH-ACTAS-NO-RIGHT-CODE',
    field: 'actAs',
    label: 'actAs without a right',
    expect: (res) =>
      expect(res).toBeCantonError({ of: 'acting as a party without the right', ...PERMISSION_DENIED }),
  },
  {
    rule: 'AUTH-READAS-NO-RIGHT',
    field: 'readAs',
    label: 'readAs without a right',
    expect: (res) => expectRefused(res, 'a submission reading as a party the user has no right for'),
  },
  {
    rule: 'AUTH-READAS-NO-RIGHT-CODE',
    field: 'readAs',
    label: 'readAs without a right',
    expect: (res) =>
      expect(res).toBeCantonError({ of: 'reading as a party without the right', ...PERMISSION_DENIED }),
  },
];

test.describe('Authentication and authorization', () => {
  for (const op of OPERATIONS) {
    for (const c of TOKEN_CASES) {
      test(...forRule(c.rule, ` — ${op.name}`), async ({ ledger, commands, tokens, settings }) => {
        // The token first, then the request: the order every one of these tests has drawn them in.
        const { token, headers } = await c.send({ tokens, settings });
        const res = await call(ledger, op, commands.inertSubmitRequest(), token, c.label, headers);
        c.expect(res, op);
      });
    }
  }

  // Rights (§5.2): the cases and why the first actAs party stays valid are beside RIGHTS_CASES.
  for (const c of RIGHTS_CASES) {
    test(...forRule(c.rule), async ({ ledger, commands, settings }) => {
      const req = commands.inertSubmitRequest({
        [c.field]: [...settings[c.field], settings.unauthorizedParty],
        commands: commands.inertCommands(),
      });
      const res = await ledger.submitAndWaitForTransactionTree(req, { label: c.label });
      c.expect(res);
    });
  }
});
