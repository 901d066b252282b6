// The submit route's successes: Canton's tree shape for the harness's default command, the other command
// kinds, contracts that are created and archived, atomicity, trace context, and the 3.5 question.
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import {
  accepted,
  ALICE,
  ASSET_BY_ID,
  BOB,
  createAndTransfer,
  createAsset,
  created,
  exercise,
  exercised,
  INSTANT,
  invalidArgument,
  micros,
  PACKAGE_ID,
  rejected,
  request,
  sandbox,
  withSandbox,
  submit,
  SYNCHRONIZER,
} from './submit-kit';

let app: FastifyInstance;
test.beforeAll(async () => {
  app = await sandbox();
});
test.afterAll(async () => {
  await app.close();
});

const CONTRACT_ID = /^00[0-9a-f]{64}ca101220[0-9a-f]{64}$/;

/** Creates an Asset (issuer, owner) and returns its contract id. */
async function createContract(issuer = ALICE, owner = ALICE, label = 'label'): Promise<string> {
  const tree = accepted(
    await submit(app, request({ commands: [createAsset(issuer, owner, undefined, label)], actAs: [issuer] })),
  );
  return created(tree, 0).contractId as string;
}

test.describe('submit-and-wait-for-transaction-tree: accepted commands', () => {
  test('the default CreateAndExercise returns Canton’s tree: Created 0, consuming Exercised 1, Created 2', async () => {
    const body = request();
    const tree = accepted(await submit(app, body));
    expect(Object.keys(tree)).toEqual([
      'updateId',
      'commandId',
      'workflowId',
      'effectiveAt',
      'offset',
      'eventsById',
      'synchronizerId',
      'traceContext',
      'recordTime',
    ]);
    expect(tree.updateId).toMatch(/^1220[0-9a-f]{64}$/);
    expect(tree.commandId).toBe(body.commandId);
    expect(tree.workflowId).toBe('');
    expect(Number.isInteger(tree.offset) && tree.offset > 0).toBe(true);
    expect(tree.synchronizerId).toBe(SYNCHRONIZER);
    expect(tree.effectiveAt).toMatch(INSTANT);
    expect(tree.recordTime).toMatch(INSTANT);
    expect(micros(tree.recordTime)).toBeGreaterThanOrEqual(micros(tree.effectiveAt));
    expect(tree.traceContext.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
    expect(tree.traceContext.tracestate).toBeNull();
    expect(Object.keys(tree.eventsById)).toEqual(['0', '1', '2']);

    const first = created(tree, 0);
    expect(Object.keys(first)).toEqual([
      'offset',
      'nodeId',
      'contractId',
      'templateId',
      'contractKey',
      'createArgument',
      'createdEventBlob',
      'interfaceViews',
      'witnessParties',
      'signatories',
      'observers',
      'createdAt',
      'packageName',
      'representativePackageId',
      'acsDelta',
    ]);
    expect(first).toMatchObject({
      offset: tree.offset,
      nodeId: 0,
      templateId: ASSET_BY_ID,
      contractKey: null,
      createArgument: { issuer: ALICE, owner: ALICE, amount: '10.5000000000', label: 'label' },
      createdEventBlob: '',
      interfaceViews: [],
      witnessParties: [ALICE],
      signatories: [ALICE],
      observers: [],
      createdAt: tree.effectiveAt,
      packageName: 'conformance-sandbox',
      representativePackageId: PACKAGE_ID,
      acsDelta: false, // created and archived in the same transaction
    });
    expect(first.contractId).toMatch(CONTRACT_ID);

    const transfer = exercised(tree, 1);
    expect(Object.keys(transfer)).toEqual([
      'offset',
      'nodeId',
      'contractId',
      'templateId',
      'interfaceId',
      'choice',
      'choiceArgument',
      'actingParties',
      'consuming',
      'witnessParties',
      'lastDescendantNodeId',
      'exerciseResult',
      'packageName',
      'implementedInterfaces',
      'acsDelta',
    ]);
    const second = created(tree, 2);
    expect(transfer).toMatchObject({
      offset: tree.offset,
      nodeId: 1,
      contractId: first.contractId,
      templateId: ASSET_BY_ID,
      interfaceId: null,
      choice: 'Transfer',
      choiceArgument: { newOwner: BOB },
      actingParties: [ALICE],
      consuming: true,
      witnessParties: [ALICE],
      lastDescendantNodeId: 2,
      exerciseResult: second.contractId,
      packageName: 'conformance-sandbox',
      implementedInterfaces: [],
      acsDelta: false,
    });
    expect(second).toMatchObject({
      nodeId: 2,
      createArgument: { issuer: ALICE, owner: BOB, amount: '10.5000000000', label: 'label' },
      witnessParties: [ALICE], // only actAs parties are requested, not Bob
      signatories: [ALICE],
      observers: [BOB],
      acsDelta: true,
    });
    expect(second.contractId).toMatch(CONTRACT_ID);
    expect(second.contractId).not.toBe(first.contractId);
  });

  test('offsets increase strictly across submissions; record times follow them', async () => {
    const trees = [];
    for (let i = 0; i < 5; i++) trees.push(accepted(await submit(app, request())));
    for (let i = 1; i < trees.length; i++) {
      expect(trees[i]!.offset).toBeGreaterThan(trees[i - 1]!.offset);
      expect(micros(trees[i]!.recordTime)).toBeGreaterThan(micros(trees[i - 1]!.recordTime));
    }
  });

  test('CreateCommand creates an active contract (observer = owner, acsDelta true)', async () => {
    const tree = accepted(await submit(app, request({ commands: [createAsset(ALICE, BOB)] })));
    expect(Object.keys(tree.eventsById)).toEqual(['0']);
    expect(created(tree, 0)).toMatchObject({
      signatories: [ALICE],
      observers: [BOB],
      acsDelta: true,
      witnessParties: [ALICE],
    });
  });

  test('ExerciseCommand: Inspect is non-consuming and returns the label; Archive consumes; then CONTRACT_NOT_FOUND', async () => {
    const cid = await createContract(ALICE, ALICE, 'my label');
    const inspect = accepted(await submit(app, request({ commands: [exercise(cid, 'Inspect')] })));
    expect(Object.keys(inspect.eventsById)).toEqual(['0']);
    expect(exercised(inspect, 0)).toMatchObject({
      contractId: cid,
      choice: 'Inspect',
      consuming: false,
      exerciseResult: 'my label',
      lastDescendantNodeId: 0,
      acsDelta: false,
    });
    const archive = accepted(
      await submit(app, request({ commands: [exercise(cid, 'Archive', null, ASSET_BY_ID)] })),
    );
    expect(exercised(archive, 0)).toMatchObject({
      choice: 'Archive',
      consuming: true,
      exerciseResult: {},
      choiceArgument: {},
      acsDelta: true,
    });

    const again = rejected(await submit(app, request({ commands: [exercise(cid, 'Inspect')] })), {
      status: 404,
      code: 'CONTRACT_NOT_FOUND',
      category: 11,
      grpc: 5,
      cause: `Contract could not be found with id ${cid}`,
    });
    expect(again.resources).toEqual([['ErrorResource(CONTRACT_ID)', cid]]);
  });

  test('a contract the submitters cannot see is CONTRACT_NOT_FOUND; seen but not controlled is DAML_AUTHORIZATION_ERROR', async () => {
    const cid = await createContract(ALICE, ALICE);
    rejected(await submit(app, request({ commands: [exercise(cid, 'Inspect')], actAs: [BOB] })), {
      status: 404,
      code: 'CONTRACT_NOT_FOUND',
      category: 11,
      grpc: 5,
    });
    // readAs makes it visible (act-as rights include reading); the controller (owner Alice) is still missing.
    rejected(
      await submit(app, request({ commands: [exercise(cid, 'Inspect')], actAs: [BOB], readAs: [ALICE] })),
      {
        status: 400,
        code: 'DAML_AUTHORIZATION_ERROR',
        category: 8,
        grpc: 3,
      },
    );
  });

  test('the new owner of a transferred asset can exercise it; the tree is filtered to the actAs witnesses', async () => {
    const tree = accepted(await submit(app, request()));
    const cid = created(tree, 2).contractId as string;
    const inspect = accepted(
      await submit(app, request({ commands: [exercise(cid, 'Inspect')], actAs: [BOB] })),
    );
    expect(exercised(inspect, 0)).toMatchObject({
      actingParties: [BOB],
      witnessParties: [BOB],
      exerciseResult: 'label',
    });
    const transfer = accepted(
      await submit(
        app,
        request({ commands: [exercise(cid, 'Transfer', { newOwner: ALICE })], actAs: [BOB] }),
      ),
    );
    expect(exercised(transfer, 0)).toMatchObject({
      consuming: true,
      lastDescendantNodeId: 1,
      acsDelta: true,
    });
    expect(created(transfer, 1).createArgument).toMatchObject({ issuer: ALICE, owner: ALICE });
  });

  test('a create whose signatory is not in actAs is DAML_AUTHORIZATION_ERROR', async () => {
    rejected(await submit(app, request({ commands: [createAsset(BOB, BOB)], actAs: [ALICE] })), {
      status: 400,
      code: 'DAML_AUTHORIZATION_ERROR',
      category: 8,
      grpc: 3,
      cause: 'requires authorizers',
    });
  });

  test('atomic: a failure in command 2 leaves no trace of command 1', async () => {
    const cid = await createContract();
    const before = accepted(await submit(app, request())).offset;
    const unknown = `00${'ee'.repeat(32)}`;
    // Command 1 archives a live contract, command 2 fails: the contract must still be there.
    rejected(
      await submit(app, request({ commands: [exercise(cid, 'Archive'), exercise(unknown, 'Inspect')] })),
      {
        status: 404,
        code: 'CONTRACT_NOT_FOUND',
        category: 11,
        grpc: 5,
      },
    );
    accepted(await submit(app, request({ commands: [exercise(cid, 'Inspect')] })));
    // No offset was used by the rejected transaction.
    const after = accepted(await submit(app, request())).offset;
    expect(after).toBe(before + 2);
  });

  test('consuming the same contract twice in one transaction is CONTRACT_NOT_ACTIVE, and nothing changes', async () => {
    const cid = await createContract();
    rejected(await submit(app, request({ commands: [exercise(cid, 'Archive'), exercise(cid, 'Archive')] })), {
      status: 404,
      code: 'CONTRACT_NOT_ACTIVE',
      category: 11,
      grpc: 5,
    });
    accepted(await submit(app, request({ commands: [exercise(cid, 'Inspect')] })));
  });

  test('several commands in one transaction number their nodes in order', async () => {
    const tree = accepted(
      await submit(app, request({ commands: [createAsset(), createAndTransfer(), createAsset()] })),
    );
    expect(Object.keys(tree.eventsById)).toEqual(['0', '1', '2', '3', '4']);
    expect(exercised(tree, 2).lastDescendantNodeId).toBe(3);
    expect(created(tree, 4).nodeId).toBe(4);
  });

  test('a traceparent header comes back in traceContext, with its tracestate; its trace id is in errors', async () => {
    const traceId = '4bf92f3577b34da6a3ce929d0e0e4736';
    const traceparent = `00-${traceId}-00f067aa0ba902b7-01`;
    const tree = accepted(
      await submit(app, request(), { headers: { traceparent, tracestate: 'congo=t61rcWkgMzE' } }),
    );
    expect(tree.traceContext).toEqual({ traceparent, tracestate: 'congo=t61rcWkgMzE' });

    const err = rejected(await submit(app, request({ commands: [] }), { headers: { traceparent } }), {
      status: 400,
      code: 'MISSING_FIELD',
      category: 8,
      grpc: 3,
    });
    expect(err.traceId).toBe(traceId);
    expect((err.context as Record<string, string>).tid).toBe(traceId);
  });

  test('an invalid traceparent is ignored: a new trace is started', async () => {
    for (const traceparent of [
      'garbage',
      `00-${'0'.repeat(32)}-00f067aa0ba902b7-01`,
      'ff-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01',
    ]) {
      const tree = accepted(await submit(app, request(), { headers: { traceparent, tracestate: 'a=b' } }));
      expect(tree.traceContext.traceparent).not.toBe(traceparent);
      expect(tree.traceContext.traceparent).toMatch(/^00-[0-9a-f]{32}-[0-9a-f]{16}-01$/);
      expect(tree.traceContext.tracestate).toBeNull();
    }
  });

  test('unknown request fields are ignored, at the top and inside a command', async () => {
    const body = request({ somethingNew: { nested: [1, 2] }, tapsMaxPasses: 2, extra: null });
    const cmd = createAndTransfer() as Record<string, Record<string, unknown>>;
    cmd.CreateAndExerciseCommand!.futureField = 'x';
    body.commands = [cmd];
    accepted(await submit(app, body));
  });

  test('createArguments: numerics at full scale; missing, extra or ill-typed fields rejected as Canton', async () => {
    const args = (createArguments: unknown) =>
      request({ commands: [{ CreateCommand: { templateId: ASSET_BY_ID, createArguments } }] });
    const ok = accepted(await submit(app, args({ issuer: ALICE, owner: ALICE, amount: 7, label: '' })));
    expect(created(ok, 0).createArgument).toEqual({
      issuer: ALICE,
      owner: ALICE,
      amount: '7.0000000000',
      label: '',
    });

    // Raised in the JSON layer (JsCantonError.fromErrorCode): definiteAnswer false, not null.
    const missing = rejected(await submit(app, args({ issuer: ALICE, owner: ALICE, label: 'x' })), {
      status: 400,
      code: 'COMMAND_PREPROCESSING_FAILED',
      category: 8,
      grpc: 3,
      cause: 'Missing non-optional field: amount',
    });
    expect(missing.definiteAnswer).toBe(false);
    const extra = rejected(
      await submit(app, args({ issuer: ALICE, owner: ALICE, amount: '1', label: 'x', colour: 'red' })),
      invalidArgument('Unexpected fields: colour'),
    );
    expect(extra.definiteAnswer).toBe(false);
    rejected(
      await submit(app, args({ issuer: ALICE, owner: ALICE, amount: '1.00000000001', label: 'x' })),
      invalidArgument(),
    );
    rejected(
      await submit(app, args({ issuer: ALICE, owner: 'Bad!', amount: '1', label: 'x' })),
      invalidArgument('Daml-LF Party'),
    );
    rejected(await submit(app, args([1, 2])), invalidArgument());
  });

  test('an unknown choice, template or package is rejected as Canton', async () => {
    const cmd = (templateId: string, choice = 'Transfer') =>
      request({
        commands: [
          {
            CreateAndExerciseCommand: { ...createAndTransfer().CreateAndExerciseCommand, templateId, choice },
          },
        ],
      });
    rejected(
      await submit(
        app,
        request({
          commands: [createAndTransfer()].map((c) => ({
            CreateAndExerciseCommand: { ...c.CreateAndExerciseCommand, choice: 'Sell' },
          })),
        }),
      ),
      invalidArgument(`Invalid template:${ASSET_BY_ID} or choice:Sell`),
    );
    rejected(await submit(app, cmd(`${PACKAGE_ID}:Conformance:Bond`)), {
      status: 404,
      code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND',
      category: 11,
      grpc: 5,
      cause: `Templates do not exist: [${PACKAGE_ID}:Conformance:Bond].`,
    });
    rejected(await submit(app, cmd('Bad:Template:Id')), {
      status: 404,
      code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND',
      category: 11,
      grpc: 5,
    });
    rejected(await submit(app, cmd('#other-package:Conformance:Asset')), {
      status: 400,
      code: 'JSON_API_PACKAGE_SELECTION_FAILED',
      category: 9,
      grpc: 9,
    });
  });

  test('ExerciseByKeyCommand and prefetch keys: no built-in template has a key', async () => {
    const byKey = {
      ExerciseByKeyCommand: {
        templateId: ASSET_BY_ID,
        contractKey: ALICE,
        choice: 'Inspect',
        choiceArgument: {},
      },
    };
    rejected(await submit(app, request({ commands: [byKey] })), {
      status: 404,
      code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND',
      category: 11,
      grpc: 5,
    });
    rejected(
      await submit(app, request({ prefetchContractKeys: [{ templateId: ASSET_BY_ID, contractKey: ALICE }] })),
      {
        status: 404,
        code: 'TEMPLATES_OR_INTERFACES_NOT_FOUND',
        category: 11,
        grpc: 5,
      },
    );
  });
});

test.describe('submit-and-wait-for-transaction-tree: the 3.5 question', () => {
  test('3.5.x still serves the tree (Canton), unless SANDBOX_REMOVE_TREE_IN_35 asks for the removal (404)', async () => {
    for (const [env, status] of [
      [{ SANDBOX_VERSION: '3.5.10' }, 200],
      [{ SANDBOX_VERSION: '3.5.0-SNAPSHOT', SANDBOX_REMOVE_TREE_IN_35: 'true' }, 404],
      [{ SANDBOX_VERSION: '3.6.0', SANDBOX_REMOVE_TREE_IN_35: 'true' }, 404],
      [{ SANDBOX_VERSION: '3.4.11', SANDBOX_REMOVE_TREE_IN_35: 'true' }, 200],
    ] as const) {
      await withSandbox(env, async (other) => {
        const res = await submit(other, request());
        expect(res.statusCode, `${JSON.stringify(env)}: ${res.body}`).toBe(status);
      });
    }
  });
});
