// Canton's check order on submit: decode → claims → JSON layer (actAs, package refs, transcoding) →
// authorization → field validation in CommandsValidator's order → interpretation → deduplication. Each test
// sends two faults and expects the one checked first; every other field stays valid.
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import {
  accepted,
  ALICE,
  ASSET_BY_ID,
  BOB,
  CHARLIE,
  createAndTransfer,
  createAsset,
  created,
  decodeFailed,
  exercise,
  invalidArgument,
  invalidField,
  missingField,
  redactedError,
  rejected,
  request,
  sandbox,
  submit,
  TAPS_RELEASE,
  userToken,
} from './submit-kit';

let app: FastifyInstance;
let open: FastifyInstance;
test.beforeAll(async () => {
  // 3.4.12: the first release that knows tapsMaxPasses, so its checks take part in the order.
  app = await sandbox(TAPS_RELEASE);
  open = await sandbox({ SANDBOX_AUTH: 'none', ...TAPS_RELEASE });
});
test.afterAll(async () => {
  await app.close();
  await open.close();
});

const BOTH_TIMES = { minLedgerTimeAbs: '2030-01-01T00:00:00Z', minLedgerTimeRel: { seconds: 1, nanos: 0 } };
const NEGATIVE_DEDUP = {
  deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -1, nanos: 0 } } },
};

test.describe('submit order: before authorization', () => {
  test('an undecodable body is 400 text/plain even without a token', async () => {
    decodeFailed(await submit(app, '{"commands": [', { token: null }));
    decodeFailed(
      await submit(app, { commandId: 'x' }, { token: null }),
      "Missing required field at 'commands'",
    );
  });

  test('missing required keys are all reported, in declaration order', async () => {
    const res = await submit(app, {});
    decodeFailed(res);
    expect(res.body).toBe(
      "Invalid value for: body (Missing required field at 'commands', Missing required field at 'commandId', Missing required field at 'actAs')",
    );
  });

  test('wrong JSON types fail decoding with circe’s wording and path', async () => {
    const cases: [Record<string, unknown>, string][] = [
      [{ commandId: 7 }, "Got value '7' with wrong type, expecting string at 'commandId'"],
      [{ actAs: ALICE }, `Got value '"${ALICE}"' with wrong type, expecting array at 'actAs'`],
      [{ commands: {} }, "Got value '{}' with wrong type, expecting array at 'commands'"],
      [{ readAs: [1] }, "Got value '1' with wrong type, expecting string at 'readAs[0]'"],
      [{ workflowId: true }, "Got value 'true' with wrong type, expecting string at 'workflowId'"],
      [
        { deduplicationPeriod: 7 },
        "Got value '7' with wrong type, expecting object at 'deduplicationPeriod'",
      ],
      [{ tapsMaxPasses: 'many' }, "Int at 'tapsMaxPasses'"],
      [{ tapsMaxPasses: 1.5 }, "Int at 'tapsMaxPasses'"],
      [{ tapsMaxPasses: 2 ** 31 }, "Int at 'tapsMaxPasses'"],
      [{ minLedgerTimeAbs: 'yesterday' }, "at 'minLedgerTimeAbs'"],
      [{ minLedgerTimeRel: { seconds: 1 } }, "Missing required field at 'minLedgerTimeRel.nanos'"],
      [{ deduplicationPeriod: { Forever: {} } }, "at 'deduplicationPeriod'"],
      [{ commands: [{ Unknown: {} }] }, "at 'commands[0]'"],
      [
        { commands: [{ CreateCommand: { templateId: ASSET_BY_ID } }] },
        "Missing required field at 'commands[0].CreateCommand.createArguments'",
      ],
      [
        { disclosedContracts: [{ createdEventBlob: '%%%' }] },
        "The string is not a valid Base64: %%% at 'disclosedContracts[0].createdEventBlob'",
      ],
    ];
    for (const [override, detail] of cases)
      decodeFailed(await submit(app, request(override), { token: null }), detail);
  });

  test('circe numbers: a numeric string or a whole 3.0 is an Int', async () => {
    accepted(await submit(app, request({ tapsMaxPasses: '2' })));
    accepted(await submit(app, request({ tapsMaxPasses: 3.0 })));
  });

  test('an empty actAs is MISSING_FIELD act_as/actAs before authentication, and before an empty commands list', async () => {
    rejected(
      await submit(app, request({ actAs: [], commands: [] }), { token: null }),
      missingField('act_as/actAs'),
    );
  });

  test('template resolution and argument transcoding run before authentication', async () => {
    rejected(
      await submit(app, request({ commands: [createAndTransfer(ALICE, BOB, `${'a'.repeat(64)}:M:T`)] }), {
        token: null,
      }),
      {
        status: 404,
        code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND',
        category: 11,
        grpc: 5,
      },
    );
  });

  test('a valid token of an unknown user is 403 with ledger_api_error, before the JSON layer', async () => {
    const body = redactedError(
      await submit(app, request({ actAs: [] }), { token: await userToken('nobody') }),
      403,
    );
    expect(body.context).toEqual({ ledger_api_error: 'invalid token' });
  });
});

test.describe('submit order: authorization', () => {
  test('authorization comes before field validation: no token and an empty commands list is 401', async () => {
    redactedError(await submit(app, request({ commands: [] }), { token: null }), 401);
  });

  test('actAs needs CanActAs; readAs needs CanReadAs or CanActAs; userId must be the token’s', async () => {
    redactedError(
      await submit(app, request({ actAs: [CHARLIE], commands: [createAndTransfer(CHARLIE)] })),
      403,
    );
    redactedError(await submit(app, request({ readAs: ['Zed::1220ab'] })), 403);
    accepted(await submit(app, request({ readAs: [CHARLIE, BOB] })));
    redactedError(await submit(app, request({ actAs: [ALICE] }), { token: await userToken('reader') }), 403);
    redactedError(await submit(app, request({ userId: 'reader', commandId: 'bad!' })), 403);
  });

  test('auth off: no userId is INVALID_TOKEN (400), a userId is enough', async () => {
    rejected(await submit(open, request()), {
      status: 400,
      code: 'INVALID_TOKEN',
      category: 8,
      grpc: 3,
      cause:
        'The submitted request is missing a user-id: Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?',
    });
    accepted(await submit(open, request({ userId: 'anyone' })));
  });
});

test.describe('submit order: field validation (auth off, so every check is visible)', () => {
  const body = (o: Record<string, unknown>) => request({ userId: 'alice', ...o });
  const cases: [string, Record<string, unknown>, ReturnType<typeof invalidArgument>][] = [
    [
      'actAs parties (the tree’s transaction format) before workflowId',
      { actAs: [ALICE, 'B!'], workflowId: 'w!' },
      invalidArgument('Daml-LF Party "B!"'),
    ],
    [
      'workflowId before userId',
      { workflowId: 'w!', userId: 'u u' },
      invalidArgument('Daml-LF Ledger String "w!"'),
    ],
    ['userId before commandId', { userId: 'u u', commandId: '' }, invalidField('user_id')],
    ['commandId before submissionId', { commandId: 'c!', submissionId: 's!' }, invalidField('command_id')],
    ['submissionId before readAs', { submissionId: 's!', readAs: ['R!'] }, invalidField('submission_id')],
    // With a #package-name template id the JSON layer would check synchronizerId first (next test).
    [
      'readAs before synchronizerId',
      { readAs: ['R!'], synchronizerId: 'nope', commands: [createAndTransfer(ALICE, BOB, ASSET_BY_ID)] },
      invalidArgument('Daml-LF Party "R!"'),
    ],
    [
      'synchronizerId before commands',
      { synchronizerId: 'nope', commands: [] },
      invalidField('synchronizer_id'),
    ],
    ['commands before min ledger time', { commands: [], ...BOTH_TIMES }, missingField('commands')],
    [
      'inner commands before min ledger time',
      { commands: [exercise('', 'Inspect', {}, ASSET_BY_ID)], ...BOTH_TIMES },
      missingField('contract_id'),
    ],
    [
      'min ledger time before dedup period',
      { ...BOTH_TIMES, ...NEGATIVE_DEDUP },
      invalidArgument('min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel'),
    ],
    [
      'dedup period before disclosed contracts',
      { ...NEGATIVE_DEDUP, disclosedContracts: [{ createdEventBlob: '' }] },
      invalidField('deduplication_period'),
    ],
    [
      'disclosed contracts before tapsMaxPasses',
      { disclosedContracts: [{ createdEventBlob: '' }], tapsMaxPasses: 0 },
      missingField('DisclosedContract.createdEventBlob'),
    ],
    [
      'tapsMaxPasses last',
      { tapsMaxPasses: 0 },
      invalidArgument('taps_max_passes must be strictly positive, but got 0.'),
    ],
  ];
  for (const [name, overrides, expected] of cases) {
    test(name, async () => {
      rejected(await submit(open, body(overrides)), expected);
    });
  }

  test('with a #package-name template id, synchronizerId is checked in the JSON layer, before authorization', async () => {
    rejected(
      await submit(app, request({ synchronizerId: 'nope' }), { token: null }),
      invalidField('synchronizer_id'),
    );
    redactedError(
      await submit(
        app,
        request({ synchronizerId: 'nope', commands: [createAndTransfer(ALICE, BOB, ASSET_BY_ID)] }),
        { token: null },
      ),
      401,
    );
  });

  test('with a user token the same order holds for the fields the Authorizer does not see', async () => {
    rejected(
      await submit(app, request({ workflowId: 'w!', commandId: '' })),
      invalidArgument('Daml-LF Ledger String "w!"'),
    );
    rejected(await submit(app, request({ commandId: '', commands: [] })), missingField('command_id'));
    rejected(await submit(app, request({ commands: [], tapsMaxPasses: 0 })), missingField('commands'));
  });
});

test.describe('submit order: validation and interpretation before deduplication', () => {
  test('a duplicate change ID with an invalid field is rejected for the field, not as a duplicate', async () => {
    const body = request();
    accepted(await submit(app, body));
    rejected(await submit(app, { ...body, tapsMaxPasses: 0 }), invalidArgument('taps_max_passes'));
    rejected(await submit(app, body), { status: 409, code: 'DUPLICATE_COMMAND', category: 10, grpc: 6 });
  });

  test('a duplicate whose contract is gone fails interpretation first (CONTRACT_NOT_FOUND)', async () => {
    const cid = created(accepted(await submit(app, request({ commands: [createAsset()] }))), 0)
      .contractId as string;
    const archive = request({ commands: [exercise(cid, 'Archive')] });
    accepted(await submit(app, archive));
    rejected(await submit(app, archive), { status: 404, code: 'CONTRACT_NOT_FOUND', category: 11, grpc: 5 });
  });
});
