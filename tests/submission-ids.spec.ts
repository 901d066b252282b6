// Submitting a command: required fields and the id grammars (interface document §2.1; Canton's grammars,
// docs/canton-behaviour.md §1.5). Every negative case changes one field of an otherwise valid request.
import {
  forRule,
  test,
  GRPC,
  invalidRequest,
  statusOf,
  invalidSynchronizerIds,
  invalidValues,
  validBoundaries,
  expect,
  unknownUid,
} from '../fixtures';
import type { IdCase } from '../fixtures';
import {
  skipWhereTreeRemoved,
  submitEach,
  namespaceOf,
  expectRejected,
  expectCode,
  REQUIRED_FIELDS,
  SYNCHRONIZER_INVALID,
} from './submission.cases';

test.describe('POST /v2/commands/submit-and-wait-for-transaction-tree', () => {
  skipWhereTreeRemoved();

  // ─── Required fields ──────────────────────────────────────────────────────────────────────────────────────

  for (const row of REQUIRED_FIELDS) {
    test(...forRule(row.rule), ({ ledger, commands }) => expectRejected(row, ledger, commands));
    test(...forRule(`${row.rule}-CODE`), ({ ledger, commands }) => expectCode(row, ledger, commands));
  }

  test(...forRule('SUB-COMMANDID-MISSING'), async ({ ledger, commands }) => {
    const absent = await ledger.submitAndWaitForTransactionTree(
      commands.submitRequest({ commandId: undefined }),
    );
    expect.soft(absent).toBeRejected('a request without commandId');
    const empty = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ commandId: '' }));
    expect.soft(empty).toBeRejected('an empty commandId');
  });

  test(...forRule('SUB-COMMANDID-MISSING-CODE'), async ({ ledger, commands }) => {
    const empty = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ commandId: '' }));
    expect.soft(empty).toBeCantonError({
      ...invalidRequest('MISSING_FIELD', 'an empty commandId'),
      context: { field_name: 'command_id' },
    });
    const absent = await ledger.submitAndWaitForTransactionTree(
      commands.submitRequest({ commandId: undefined }),
    );
    expect.soft(absent).toHaveStatus(400);
    expect.soft(absent.contentType, 'a decoding failure is text/plain').toMatch(/^text\/plain\b/);
    expect
      .soft(
        absent.text,
        "the decoding failure names the missing commandId (Invalid value for: body (… 'commandId' …))",
      )
      .toMatch(/^Invalid value for: body \(.*'commandId'.*\)$/s);
  });

  // ─── Id grammars (docs/canton-behaviour.md §1.5) ───────────────────────────────────────────────────────────────────

  // proto3 reads an empty optional string as "not set": Canton accepts workflowId "" and submissionId "".
  const nonEmpty = (cases: IdCase[]): IdCase[] => cases.filter((c) => c.value !== '');

  for (const field of ['commandId', 'workflowId', 'submissionId'] as const) {
    test(...forRule('SUB-LEDGERSTRING-INVALID', `: ${field}`), async ({ ledger, commands, ids }) => {
      const cases = invalidValues('LedgerString', { prefix: `${ids.next('bad')}-` });
      await submitEach(
        ledger,
        field === 'commandId' ? cases : nonEmpty(cases),
        (c) => commands.submitRequest({ [field]: c.value }),
        (res, c) => expect.soft(res).toBeRejected(`${field}: ${c.description}`),
      );
    });

    test(...forRule('SUB-LEDGERSTRING-INVALID-CODE', `: ${field}`), async ({ ledger, commands, ids }) => {
      // Canton: commandId → INVALID_FIELD command_id, submissionId → INVALID_FIELD submission_id,
      // workflowId → INVALID_ARGUMENT (validateWorkflowId), all INVALID_ARGUMENT / category 8 / 400.
      const code = field === 'workflowId' ? 'INVALID_ARGUMENT' : 'INVALID_FIELD';
      await submitEach(
        ledger,
        nonEmpty(invalidValues('LedgerString', { prefix: `${ids.next('bad')}-` })),
        (c) => commands.submitRequest({ [field]: c.value }),
        (res, c) => expect.soft(res).toBeCantonError(invalidRequest(code, `${field}: ${c.description}`)),
      );
    });

    test(...forRule('SUB-LEDGERSTRING-BOUNDARY', `: ${field}`), async ({ ledger, commands, ids }) => {
      // Run-unique prefix (commandIds never repeat across runs); counted in the 255.
      await submitEach(
        ledger,
        validBoundaries('LedgerString', { prefix: `${ids.next('ok')}-` }),
        (c) => commands.submitRequest({ [field]: c.value }),
        (res, c) => {
          expect.soft(res).toBeAccepted(`${field}: ${c.description}`);
          if (res.status === 200 && field !== 'submissionId') {
            expect.soft(res.body.transactionTree?.[field], `${field} echoed unchanged`).toBe(c.value);
          }
        },
      );
    });
  }

  /** Parties placed where Canton checks them (actAs[0] before authorization, the others after it). */
  const partyPlaces = (
    bad: string,
    actAs: string[],
    readAs: string[],
  ): { where: string; over: { actAs?: string[]; readAs?: string[] } }[] => [
    { where: 'actAs[0]', over: { actAs: [bad, ...actAs] } },
    { where: 'actAs[1]', over: { actAs: [actAs[0]!, bad, ...actAs.slice(1)] } },
    { where: 'readAs', over: { readAs: [...readAs, bad] } },
  ];

  test(...forRule('SUB-PARTY-INVALID'), async ({ ledger, commands, settings }) => {
    const suffix = `::${namespaceOf(settings.actAs[0])}`;
    for (const c of invalidValues('PartyIdString', { suffix })) {
      for (const p of partyPlaces(c.value, settings.actAs, settings.readAs)) {
        // The commands stay those of the configured parties: only the party list changes.
        const req = commands.submitRequest({ ...p.over, commands: commands.commands() });
        const res = await ledger.submitAndWaitForTransactionTree(req, {
          label: `${p.where}: ${c.description}`,
        });
        expect.soft(res).toBeRejected(`a party in ${p.where}: ${c.description}`);
      }
    }
  });

  test(...forRule('SUB-PARTY-INVALID-CODE'), async ({ ledger, commands, settings }) => {
    // actAs[0] is syntax-checked in the JSON layer, before authorization, for every caller (§1.3 stage 3).
    const suffix = `::${namespaceOf(settings.actAs[0])}`;
    await submitEach(
      ledger,
      invalidValues('PartyIdString', { suffix }),
      (c) => commands.submitRequest({ actAs: [c.value, ...settings.actAs], commands: commands.commands() }),
      (res, c) =>
        expect.soft(res).toBeCantonError(invalidRequest('INVALID_ARGUMENT', `actAs[0]: ${c.description}`)),
    );
  });

  test(...forRule('SUB-PARTY-BOUNDARY'), async ({ ledger, commands, settings, tokens }) => {
    test.skip(
      (await tokens.userId()) === undefined,
      'the token is opaque and LEDGER_USER is unset: no user token',
    );
    // A valid party the user has no right for passes the JSON layer's syntax check and is refused by
    // authorization: 403, never a 400 for its syntax.
    const suffix = `::${namespaceOf(settings.actAs[0])}`;
    await submitEach(
      ledger,
      validBoundaries('PartyIdString', { prefix: 'cf', suffix }),
      (c) => commands.submitRequest({ actAs: [c.value, ...settings.actAs], commands: commands.commands() }),
      (res, c) =>
        expect.soft(res).toBeCantonError({
          of: `a valid party without rights: ${c.description}`,
          status: statusOf(GRPC.PERMISSION_DENIED),
          grpcCodeValue: GRPC.PERMISSION_DENIED,
        }),
    );
  });

  test(...forRule('SUB-USERID-INVALID'), async ({ ledger, commands }) => {
    // "" is an absent userId (proto3), which a user token fills in: not an invalid one.
    await submitEach(
      ledger,
      nonEmpty(invalidValues('UserIdString')),
      (c) => commands.submitRequest({ userId: c.value }),
      (res, c) => expect.soft(res).toBeRejected(`userId: ${c.description}`),
    );
  });

  test(...forRule('SUB-USERID-BOUNDARY'), async ({ ledger, commands, target, ids }) => {
    const prefix = ids.runId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40);
    await submitEach(
      ledger,
      validBoundaries('UserIdString', { prefix }, target.version),
      (c) => commands.submitRequest({ userId: c.value }),
      (res, c) => expect.soft(res).toBeAccepted(`userId: ${c.description}`),
    );
  });

  for (const c of SYNCHRONIZER_INVALID) {
    test(...forRule(c.rule), async ({ ledger, commands, settings }) => {
      // "" is an absent synchronizerId (proto3: the participant routes), not an invalid one.
      await submitEach(
        ledger,
        nonEmpty(invalidSynchronizerIds(namespaceOf(settings.synchronizerId))),
        (id) => commands.submitRequest({ synchronizerId: id.value }),
        (res, id) => c.expect(res, `synchronizerId: ${id.description}`),
      );
    });
  }

  test(...forRule('SUB-SYNCHRONIZER-UNKNOWN'), async ({ ledger, commands }) => {
    const res = await ledger.submitAndWaitForTransactionTree(
      commands.submitRequest({ synchronizerId: unknownUid('conformance-unknown') }),
    );
    // Canton's code for it is not confirmed (INVALID_PRESCRIBED_SYNCHRONIZER_ID or, for #name template
    // references, JSON_API_PACKAGE_SELECTION_FAILED): a Canton error with a client status.
    expect(res).toBeRejected('an unknown synchronizerId');
    expect(res).toBeCantonError({ of: 'an unknown synchronizerId' });
  });
});
