// Authentication and authorization (interface document §5): every operation takes `Authorization: Bearer
// <JWT>`, and the token must authorize acting and reading as the command's parties. The document leaves the
// answers to a missing or bad token unshown; Canton's are the reference (canton-behaviour §1.7, §5): 401 or
// 403 with a redacted body. Canton's version operation needs no token (VER-AUTH-REQUIRED), so the
// operations judged here are the two that require one: the vetting list and the submission.
//
// Every request is valid apart from the one property under test, so that the participant's earlier stages
// (body decoding, the JSON layer's checks of the first actAs party and the package references) pass and
// the answer is the authentication's. A conformant participant therefore commits nothing here; only one that
// breaks the rule would accept the submission (and the test then fails).
import { test, expect, PATHS, type LedgerClient, type LedgerResponse, type SubmitRequest } from '../fixtures';
import {
  MALFORMED_TOKEN,
  noAuthReason,
  otherParticipantGate,
  PERMISSION_DENIED,
  UNAUTHENTICATED,
  UNKNOWN_USER,
  unsignedToken,
} from '../fixtures/auth-helpers';

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

/** A rejection, whatever its code: the interface document says the header is required, not how it fails. */
function expectRejected(res: LedgerResponse, what: string): void {
  expect(
    res.status >= 400 && res.status < 500,
    `${what} must be rejected with a 4xx, got ${res.status} ${res.text.slice(0, 300)}`,
  ).toBe(true);
}

test.describe('Authentication and authorization', () => {
  test.beforeEach(({ settings }) => {
    const why = noAuthReason(settings);
    test.skip(why !== undefined, why);
  });

  for (const op of OPERATIONS) {
    test(`AUTH-NO-HEADER a request without the Authorization header is rejected — ${op.name}`, async ({
      ledger,
      commands,
    }) => {
      const res = await call(ledger, op, commands.submitRequest(), null, 'no Authorization header');
      expectRejected(res, `${op.name} without the Authorization header`);
    });

    test(`AUTH-NO-HEADER-CODE a request without the Authorization header is rejected with 401 — ${op.name}`, async ({
      ledger,
      commands,
    }) => {
      const res = await call(ledger, op, commands.submitRequest(), null, 'no Authorization header');
      expect(res).toBeCantonError({ of: 'a request without a token', ...UNAUTHENTICATED });
    });

    test(`AUTH-EMPTY-BEARER an Authorization header with an empty bearer token is rejected with 400 — ${op.name}`, async ({
      ledger,
      commands,
    }) => {
      const res = await call(ledger, op, commands.submitRequest(), null, 'empty bearer', {
        authorization: 'Bearer ',
      });
      expect(res).toHaveStatus(400);
    });

    test(`AUTH-MALFORMED-TOKEN a malformed token is rejected with 401 — ${op.name}`, async ({
      ledger,
      commands,
    }) => {
      const res = await call(ledger, op, commands.submitRequest(), MALFORMED_TOKEN, 'malformed token');
      expect(res).toBeCantonError({ of: 'a malformed token', ...UNAUTHENTICATED });
    });

    test(`AUTH-UNSIGNED-TOKEN an unsigned token (alg none) is rejected with 401 — ${op.name}`, async ({
      ledger,
      commands,
      settings,
    }) => {
      const res = await call(ledger, op, commands.submitRequest(), unsignedToken(settings), 'unsigned token');
      expect(res).toBeCantonError({ of: 'an unsigned token', ...UNAUTHENTICATED });
    });

    test(`AUTH-EXPIRED-TOKEN an expired token is rejected with 401 — ${op.name}`, async ({
      ledger,
      commands,
      tokens,
    }) => {
      const token = await tokens.negativeOrSkip().expired();
      const res = await call(ledger, op, commands.submitRequest(), token, 'expired token');
      expect(res).toBeCantonError({ of: 'an expired token', ...UNAUTHENTICATED });
    });

    test(`AUTH-NOT-YET-VALID a token that is not valid yet (nbf in the future) is rejected with 401 — ${op.name}`, async ({
      ledger,
      commands,
      tokens,
    }) => {
      const token = await tokens.negativeOrSkip().notYetValid();
      const res = await call(ledger, op, commands.submitRequest(), token, 'token not valid yet');
      expect(res).toBeCantonError({ of: 'a token before its nbf', ...UNAUTHENTICATED });
    });

    test(`AUTH-WRONG-KEY a token signed with another key is rejected with 401 — ${op.name}`, async ({
      ledger,
      commands,
      tokens,
    }) => {
      const token = await tokens.negativeOrSkip().otherKey();
      const res = await call(ledger, op, commands.submitRequest(), token, 'token signed with another key');
      expect(res).toBeCantonError({ of: 'a token signed with an untrusted key', ...UNAUTHENTICATED });
    });

    test(`AUTH-WRONG-AUDIENCE a token for another audience or scope is rejected with 401 — ${op.name}`, async ({
      ledger,
      commands,
      tokens,
    }) => {
      const token = await tokens.negativeOrSkip().wrongAudience();
      const res = await call(ledger, op, commands.submitRequest(), token, 'token for another audience');
      expect(res).toBeCantonError({ of: 'a token for another audience', ...UNAUTHENTICATED });
    });

    test(`AUTH-OTHER-PARTICIPANT a token for another participant is rejected with 403 — ${op.name}`, async ({
      ledger,
      commands,
      tokens,
      settings,
    }) => {
      const why = otherParticipantGate(settings);
      test.skip(why !== undefined, why);
      const token = await tokens.negativeOrSkip().otherParticipant();
      const res = await call(ledger, op, commands.submitRequest(), token, 'token for another participant');
      expect(res).toBeCantonError({ of: 'a token for another participant', ...PERMISSION_DENIED });
    });

    test(`AUTH-UNKNOWN-USER a token of an unknown user is rejected with 403 — ${op.name}`, async ({
      ledger,
      commands,
      tokens,
    }) => {
      const token = await tokens.negativeOrSkip().unknownUser();
      // The body names the harness's user, as a client would: the token's user is what is unknown.
      const res = await call(ledger, op, commands.submitRequest(), token, 'token of an unknown user');
      expect(res).toBeCantonError({ of: 'a token of an unknown user', ...UNKNOWN_USER });
    });
  }

  // Rights (§5.2). The first actAs party stays one the user may act as — Canton's JSON layer resolves the
  // command's packages through it before authorization — and the commands are built for the user's own
  // parties, so the only thing wrong is the extra party.

  test('AUTH-ACTAS-NO-RIGHT acting as a party the user has no right for is rejected', async ({
    ledger,
    commands,
    settings,
  }) => {
    const req = commands.submitRequest({
      actAs: [...settings.actAs, settings.unauthorizedParty],
      commands: commands.commands(),
    });
    const res = await ledger.submitAndWaitForTransactionTree(req, { label: 'actAs without a right' });
    expectRejected(res, 'a submission acting as a party the user has no right for');
  });

  test('AUTH-ACTAS-NO-RIGHT-CODE acting as a party the user has no right for is rejected with 403', async ({
    ledger,
    commands,
    settings,
  }) => {
    const req = commands.submitRequest({
      actAs: [...settings.actAs, settings.unauthorizedParty],
      commands: commands.commands(),
    });
    const res = await ledger.submitAndWaitForTransactionTree(req, { label: 'actAs without a right' });
    expect(res).toBeCantonError({ of: 'acting as a party without the right', ...PERMISSION_DENIED });
  });

  test('AUTH-READAS-NO-RIGHT reading as a party the user has no right for is rejected', async ({
    ledger,
    commands,
    settings,
  }) => {
    const req = commands.submitRequest({
      readAs: [...settings.readAs, settings.unauthorizedParty],
      commands: commands.commands(),
    });
    const res = await ledger.submitAndWaitForTransactionTree(req, { label: 'readAs without a right' });
    expectRejected(res, 'a submission reading as a party the user has no right for');
  });

  test('AUTH-READAS-NO-RIGHT-CODE reading as a party the user has no right for is rejected with 403', async ({
    ledger,
    commands,
    settings,
  }) => {
    const req = commands.submitRequest({
      readAs: [...settings.readAs, settings.unauthorizedParty],
      commands: commands.commands(),
    });
    const res = await ledger.submitAndWaitForTransactionTree(req, { label: 'readAs without a right' });
    expect(res).toBeCantonError({ of: 'reading as a party without the right', ...PERMISSION_DENIED });
  });
});
