// Id grammars on the submit route, both ways: boundary values accepted, each violation rejected with
// Canton's code and exact text. Parties and userId are checked with auth off (wildcard claims), where
// Canton's validation is visible; with a user token the Authorizer answers 403 first (see the order tests).
import { expect, test } from '../support/test';
import { claim } from '../support/claim';
import type { FastifyInstance } from 'fastify';
import {
  accepted,
  ALICE,
  ASSET_BY_ID,
  createAndTransfer,
  created,
  decodeFailed,
  invalidArgument,
  invalidField,
  missingField,
  redactedError,
  rejected,
  request,
  sandbox,
  withSandbox,
  submit,
  SYNCHRONIZER,
} from './submit-kit';
import { list, PARTICIPANT } from '../support/sandbox-kit';

let app: FastifyInstance; // user tokens (hs256)
let open: FastifyInstance; // SANDBOX_AUTH=none: wildcard claims, userId in the body
test.beforeAll(async () => {
  app = await sandbox();
  open = await sandbox({ SANDBOX_AUTH: 'none' });
});
test.afterAll(async () => {
  await app.close();
  await open.close();
});

const LETTERS = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789';
/** Exactly `n` characters cycling through `alphabet`. */
const fill = (alphabet: string, n: number): string =>
  alphabet.repeat(Math.ceil(n / alphabet.length)).slice(0, n);
const hex = (c: string): string => `0x${c.charCodeAt(0).toString(16)}`;

// Printable ASCII outside each grammar, plus control and non-ASCII characters.
const NOT_LEDGER_STRING = [...'!"$%&\'()*+,;<=>?@[\\]^`{|}~'.split(''), '\t', '\n', 'é', '€'];
const NOT_PARTY = [...'!"#$%&\'()*+,./;<=>?@[\\]^`{|}~'.split(''), '\t', 'é'];
const NOT_USER_ID = [...' "%&*,/;<=>?[\\]{}'.split(''), '\t', 'é'];

const openRequest = (overrides: Record<string, unknown> = {}) => request({ userId: 'alice', ...overrides });

test.describe('submit ids: LedgerString (commandId, workflowId, submissionId)', () => {
  test('a one-character id is accepted; an empty workflowId or submissionId counts as absent', async () => {
    const tree = accepted(await submit(app, request({ commandId: 'z', workflowId: '', submissionId: '' })));
    expect(tree.workflowId).toBe('');
  });

  test('256 characters are too long: commandId INVALID_FIELD, workflowId INVALID_ARGUMENT, submissionId INVALID_FIELD', async () => {
    const long = fill(LETTERS, 256);
    const tooLong = 'Daml-LF Ledger String is too long (max: 255)';
    rejected(
      await submit(app, request({ commandId: long })),
      invalidField('command_id', `Invalid field command_id: ${tooLong}`),
    );
    rejected(
      await submit(app, request({ workflowId: long })),
      invalidArgument(`The submitted request has invalid arguments: ${tooLong}`),
    );
    rejected(
      await submit(app, request({ submissionId: long })),
      invalidField('submission_id', `Invalid field submission_id: ${tooLong}`),
    );
  });

  test('each forbidden character is rejected with its code point, as Canton words it', async () => {
    for (const c of NOT_LEDGER_STRING) {
      const id = `a${c}b`;
      const text = `non expected character ${hex(c)} in Daml-LF Ledger String "${id}"`;
      const cmd = rejected(await submit(app, request({ commandId: id })), invalidField('command_id'));
      claim(cmd.cause).toBe(
        `The submitted command has a field with invalid value: Invalid field command_id: ${text}`,
      );
      const wf = rejected(await submit(app, request({ workflowId: id })), invalidArgument());
      claim(wf.cause).toBe(`The submitted request has invalid arguments: ${text}`);
      rejected(await submit(app, request({ submissionId: id })), invalidField('submission_id', text));
    }
  });
});

test.describe('submit ids: PartyIdString (actAs, readAs)', () => {
  const longParty = fill(`${LETTERS}:_ -`, 255);

  test('a 255-character party of every allowed character is accepted (actAs and in the arguments)', async () => {
    expect(longParty).toHaveLength(255);
    const body = openRequest({ actAs: [longParty], commands: [createAndTransfer(longParty, ALICE)] });
    const tree = accepted(await submit(open, body));
    expect(created(tree, 0).signatories).toEqual([longParty]);
    // One character, and a party without a ::namespace (LF syntax only; see README).
    accepted(await submit(open, openRequest({ actAs: ['P'], commands: [createAndTransfer('P', ALICE)] })));
  });

  test('actAs[0]: 256 characters or a forbidden character is INVALID_ARGUMENT "Invalid party in actAs/act_as", even without a token', async () => {
    const long = fill(LETTERS, 256);
    rejected(
      await submit(app, request({ actAs: [long] }), { token: null }),
      invalidArgument('Invalid party in actAs/act_as: Daml-LF Party is too long (max: 255)'),
    );
    for (const c of NOT_PARTY) {
      const party = `Al${c}ice`;
      const body = rejected(
        await submit(app, request({ actAs: [party] }), { token: null }),
        invalidArgument(),
      );
      claim(body.cause).toBe(
        `The submitted request has invalid arguments: Invalid party in actAs/act_as: non expected character ${hex(c)} in Daml-LF Party "${party}"`,
      );
    }
    rejected(
      await submit(app, request({ actAs: [''] })),
      invalidArgument('Invalid party in actAs/act_as: Daml-LF Party is empty'),
    );
  });

  test('actAs[1..] and readAs: INVALID_ARGUMENT with auth off, 403 for a user token without rights', async () => {
    for (const field of ['actAs', 'readAs'] as const) {
      const bad = field === 'actAs' ? { actAs: [ALICE, 'Bad!'] } : { readAs: ['Bad!'] };
      const body = rejected(await submit(open, openRequest(bad)), invalidArgument());
      claim(body.cause).toBe(
        'The submitted request has invalid arguments: non expected character 0x21 in Daml-LF Party "Bad!"',
      );
      redactedError(await submit(app, request(bad)), 403);
    }
  });
});

test.describe('submit ids: UserIdString', () => {
  const symbols = "@^$.!`-#+'~_|:()";
  const max = fill(`${LETTERS}${symbols}`, 128);

  test('128 characters with every allowed symbol, () included (3.4.11+), are accepted', async () => {
    expect(max).toHaveLength(128);
    for (const s of symbols) expect(max).toContain(s);
    accepted(await submit(open, openRequest({ userId: max })));
    accepted(await submit(open, openRequest({ userId: 'u' })));
  });

  test('129 characters or a forbidden character is INVALID_FIELD user_id with the grammar’s regex', async () => {
    const regex = "[a-zA-Z0-9@^$.!`\\-#+'~_|:\\(\\)]{1,128}";
    const long = fill(LETTERS, 129);
    const body = rejected(await submit(open, openRequest({ userId: long })), invalidField('user_id'));
    claim(body.cause).toBe(
      `The submitted command has a field with invalid value: Invalid field user_id: User ID "${long}" does not match regex "${regex}"`,
    );
    for (const c of NOT_USER_ID) {
      const userId = `us${c}er`;
      rejected(
        await submit(open, openRequest({ userId })),
        invalidField('user_id', `User ID "${userId}" does not match regex`),
      );
    }
  });

  test('before 3.4.11 the grammar has no parentheses', async () => {
    await withSandbox({ SANDBOX_AUTH: 'none', SANDBOX_VERSION: '3.4.10' }, async (old) => {
      rejected(
        await submit(old, openRequest({ userId: 'a(b)' })),
        invalidField('user_id', 'does not match regex "[a-zA-Z0-9@^$.!`\\-#+\'~_|:]{1,128}"'),
      );
      accepted(await submit(old, openRequest({ userId: 'a.b' })));
    });
  });

  test('with a user token a userId other than the token’s — valid or not — is 403', async () => {
    redactedError(await submit(app, request({ userId: 'someone-else' })), 403);
    redactedError(await submit(app, request({ userId: 'not valid!' })), 403);
    accepted(await submit(app, request({ userId: 'conformance' })));
  });
});

test.describe('submit ids: synchronizerId', () => {
  const cases: [string, string][] = [
    ['invalidSynchronizerId', 'Invalid unique identifier `invalidSynchronizerId` with missing namespace.'],
    ['::1220ab', 'Invalid unique identifier `::1220ab` with empty identifier.'],
    [
      'da::1220ab::34-0',
      'Fingerprint decoding of `da::1220ab::34-0` failed with: String contains reserved delimiter `::`.',
    ],
    [
      'd!a::1220ab',
      'Identifier decoding of `d!a::1220ab` failed with: non expected character 0x21 in Daml-LF Party "d!a"',
    ],
  ];

  test('malformed ids are INVALID_FIELD synchronizer_id with the UID parser’s text, for both template id forms', async () => {
    for (const templateId of [undefined, ASSET_BY_ID]) {
      for (const [synchronizerId, text] of cases) {
        const body = request({ synchronizerId, commands: [createAndTransfer(ALICE, undefined, templateId)] });
        const err = rejected(await submit(app, body), invalidField('synchronizer_id'));
        claim(err.cause).toBe(
          `The submitted command has a field with invalid value: Invalid field synchronizer_id: ${text}`,
        );
      }
    }
  });

  test('a well-formed id of no connected synchronizer is rejected (FAILED_PRECONDITION, 400)', async () => {
    const unknown = `other::${SYNCHRONIZER.split('::')[1] ?? ''}`;
    rejected(
      await submit(
        app,
        request({ synchronizerId: unknown, commands: [createAndTransfer(ALICE, undefined, ASSET_BY_ID)] }),
      ),
      {
        status: 400,
        code: 'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
        category: 9,
        grpc: 9,
        cause: `Cannot submit transaction to prescribed synchronizer \`${unknown}\``,
      },
    );
    // With a #package-name template id the JSON layer's package selection fails first (a code not confirmed from Canton's source; the harness does not assert it).
    rejected(await submit(app, request({ synchronizerId: unknown })), {
      status: 400,
      code: 'JSON_API_PACKAGE_SELECTION_FAILED',
      category: 9,
      grpc: 9,
    });
  });
});

test.describe('submit ids: synchronizers of the topology', () => {
  test('any synchronizer the participant is connected to (vetting topology) is accepted and echoed', async () => {
    const filter = { topologyStateFilter: { participantIds: [PARTICIPANT] } };
    const listed = (await list(app, filter)).vettedPackages;
    const others = listed.map((e) => e.synchronizerId).filter((id) => id !== SYNCHRONIZER);
    expect(others.length, 'the dev topology has more than one synchronizer').toBeGreaterThan(0);
    for (const synchronizerId of others) {
      for (const templateId of [undefined, ASSET_BY_ID]) {
        const body = request({ synchronizerId, commands: [createAndTransfer(ALICE, undefined, templateId)] });
        claim(accepted(await submit(app, body)).synchronizerId).toBe(synchronizerId);
      }
    }
  });
});

test.describe('submit ids: template ids', () => {
  test('a template id that is not <package>:<module>:<entity> fails decoding (400 text/plain)', async () => {
    for (const templateId of ['Conformance:Asset', 'a:b:c:d', '']) {
      const res = await submit(app, request({ commands: [createAndTransfer(ALICE, undefined, templateId)] }));
      decodeFailed(
        res,
        `Invalid identifier format (${templateId}) not matching the expected format (<package>:<moduleName>:<entityName>) at 'commands[0].CreateAndExerciseCommand.templateId'`,
      );
    }
  });

  test('a bad package reference is INVALID_ARGUMENT, before authorization', async () => {
    for (const ref of ['#bad name', '#', 'not a package!', 'x'.repeat(65)]) {
      rejected(
        await submit(
          app,
          request({ commands: [createAndTransfer(ALICE, undefined, `${ref}:Conformance:Asset`)] }),
          { token: null },
        ),
        invalidArgument('Value does not match the package-id or package-name formats'),
      );
    }
  });

  test('a bad module or entity name of an unknown template is INVALID_ARGUMENT', async () => {
    rejected(
      await submit(
        app,
        request({ commands: [createAndTransfer(ALICE, undefined, `${'a'.repeat(64)}:1Bad:Asset`)] }),
      ),
      invalidArgument('non expected first character 0x31 in Daml-LF Name "1Bad"'),
    );
  });

  test('a malformed contract id in an ExerciseCommand is INVALID_FIELD contract_id; an empty one MISSING_FIELD', async () => {
    const ex = (contractId: string) =>
      request({
        commands: [
          { ExerciseCommand: { templateId: ASSET_BY_ID, contractId, choice: 'Inspect', choiceArgument: {} } },
        ],
      });
    rejected(
      await submit(app, ex('not-a-contract')),
      invalidField('contract_id', 'cannot parse ContractId "not-a-contract"'),
    );
    rejected(await submit(app, ex('')), missingField('contract_id'));
  });
});
