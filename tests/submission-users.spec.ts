// Submitting a command: userId and the user token (§5.3), and what bodies the operation accepts.
import { forRule, test, PATHS, expect, newTraceparent, submitAccepted, GRPC, statusOf } from '../fixtures';
import type { JsTransactionTree, LedgerResponse, SubmitRequest } from '../fixtures';
import { skipWhereTreeRemoved } from './submission.cases';

test.describe('POST /v2/commands/submit-and-wait-for-transaction-tree', () => {
  skipWhereTreeRemoved();

  // ─── userId and the user token (§5.3) ───────────────────────────────────────────────────────────────────────

  test(...forRule('SUB-USERID-FROM-TOKEN'), async ({ ledger, commands, tokens }) => {
    const user = await tokens.userId();
    test.skip(user === undefined, 'the token is opaque and LEDGER_USER is unset: its user is unknown');
    const req = commands.submitRequest({ userId: undefined });
    await submitAccepted(ledger, req, 'a submission without userId');
    // The change ID holds the userId: naming the token's user now must find the first submission.
    const again = await ledger.submitAndWaitForTransactionTree({
      ...req,
      userId: user,
      submissionId: commands.ids.submissionId(),
    });
    expect(again).toBeRejected('the same command with the token user named (a duplicate of the first)');
  });

  test(...forRule('SUB-USERID-MISMATCH'), async ({ ledger, commands, tokens }) => {
    const user = await tokens.userId();
    test.skip(user === undefined, 'the token is opaque and LEDGER_USER is unset: its user is unknown');
    const other = `not-${user}`.slice(0, 128);
    const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ userId: other }));
    expect(res).toBeCantonError({
      of: 'a userId other than the token user',
      status: statusOf(GRPC.PERMISSION_DENIED),
      grpcCodeValue: GRPC.PERMISSION_DENIED,
    });
  });

  // ─── Bodies ───────────────────────────────────────────────────────────────────────────────────────────────

  test(...forRule('SUB-UNKNOWN-FIELDS'), async ({ ledger, commands }) => {
    const req = commands.submitRequest();
    const res = await ledger.submitAndWaitForTransactionTree({
      ...req,
      conformanceUnknownString: 'ignored',
      conformanceUnknownObject: { nested: [1, 2, 3] },
      conformanceUnknownNull: null,
    } as SubmitRequest);
    expect(res).toBeAccepted('a request with unknown fields');
    expect(res.body.transactionTree?.commandId, 'the command ran').toBe(req.commandId);
  });

  test(...forRule('SUB-EMPTY-LISTS'), async ({ ledger, commands }) => {
    // §2.1: each is optional and "May be empty": an explicit [] is a valid value, one list at a time.
    for (const field of [
      'readAs',
      'disclosedContracts',
      'packageIdSelectionPreference',
      'prefetchContractKeys',
    ] as const) {
      const req: SubmitRequest = { ...commands.submitRequest(), [field]: [] };
      const res = await ledger.submitAndWaitForTransactionTree(req, { label: `${field}: []` });
      expect.soft(res).toBeAccepted(`an empty ${field} list`);
      if (res.status === 200) {
        expect
          .soft(res.body.transactionTree?.commandId, `${field}: [] — the command ran`)
          .toBe(req.commandId);
      }
    }
  });

  /** Canton's undecodable-body answer: 400 text/plain `Invalid value for: body (…)` (§1.4 g). */
  const expectBodyDecodeFailure = (res: LedgerResponse, what: string, path?: string) => {
    expect.soft(res, what).toHaveStatus(400);
    expect.soft(res.contentType, `${what}: text/plain`).toMatch(/^text\/plain\b/);
    expect
      .soft(res.text, `${what}: Invalid value for: body (…)`)
      .toMatch(/^Invalid value for: body \(.*\)$/s);
    if (path !== undefined) expect.soft(res.text, `${what}: names '${path}'`).toContain(`'${path}'`);
  };

  test(...forRule('SUB-MALFORMED-JSON'), async ({ ledger, commands }) => {
    const valid = JSON.stringify(commands.submitRequest());
    const bodies = [
      { what: 'a truncated JSON document', body: valid.slice(0, Math.floor(valid.length / 2)) },
      { what: 'text that is not JSON', body: 'this is not json' },
      { what: 'JSON with a trailing comma', body: valid.replace(/}$/, ',}') },
    ];
    for (const b of bodies) {
      const res = await ledger.send({
        method: 'POST',
        path: PATHS.submitTree,
        body: b.body,
        label: b.what,
      });
      expectBodyDecodeFailure(res, b.what);
    }
  });

  test(...forRule('SUB-WRONG-TYPES'), async ({ ledger, commands }) => {
    const cases: { what: string; path: string; mutate: (r: Record<string, unknown>) => unknown }[] = [
      { what: 'commandId a number', path: 'commandId', mutate: (r) => ({ ...r, commandId: 42 }) },
      { what: 'actAs a string', path: 'actAs', mutate: (r) => ({ ...r, actAs: (r.actAs as string[])[0] }) },
      { what: 'commands an object', path: 'commands', mutate: (r) => ({ ...r, commands: {} }) },
      { what: 'readAs a number', path: 'readAs', mutate: (r) => ({ ...r, readAs: 7 }) },
      { what: 'commands missing', path: 'commands', mutate: ({ commands: _c, ...r }) => r },
      { what: 'actAs missing', path: 'actAs', mutate: ({ actAs: _a, ...r }) => r },
    ];
    for (const c of cases) {
      const body = c.mutate(commands.submitRequest() as unknown as Record<string, unknown>);
      const res = await ledger.send({ method: 'POST', path: PATHS.submitTree, body, label: c.what });
      expectBodyDecodeFailure(res, c.what, c.path);
    }
    const array = await ledger.send({
      method: 'POST',
      path: PATHS.submitTree,
      body: [],
      label: 'a JSON array',
    });
    expectBodyDecodeFailure(array, 'a JSON array as the body');
  });

  test(...forRule('SUB-TRACEPARENT'), async ({ ledger, commands }) => {
    const { header, traceId } = newTraceparent();
    const tree: JsTransactionTree = await submitAccepted(
      ledger,
      commands.submitRequest(),
      'a traced submission',
      {
        headers: { traceparent: header },
      },
    );
    // Canton's own test asserts the trace id; the span id is the participant's.
    expect(tree.traceContext?.traceparent, 'traceContext.traceparent carries the trace id').toMatch(
      new RegExp(`^00-${traceId}-[0-9a-f]{16}-[0-9a-f]{2}$`),
    );
  });
});
