// Inert submissions (core/inert.ts): led by an exercise of a contract that cannot exist, on the command template's
// own template and choice (or Archive), they pass every check before interpretation — a bad credential still gets
// the credentials' refusal — and fail where the contract is looked up; the check the ledger fixture makes tells
// them from submissions that could commit.
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { CommandFactory, RunIds, seededFaker } from '../../core/command-factory';
import { isInertSubmission, NO_SUCH_CONTRACT_ID } from '../../core/inert';
import { PATHS } from '../../core/ledger-client';
import { settingsFor } from '../support/harness-kit';
import { bearer, token, withSandbox } from '../support/sandbox-kit';

const factory = (env: Record<string, string> = {}): CommandFactory => {
  const s = settingsFor(env);
  return new CommandFactory(seededFaker(7), new RunIds('inert', 'SELFTEST', 0), s, s.user);
};

/** A template of one CreateCommand: the lead exercises the Archive every Daml template has. */
function createOnlyTemplate(): string {
  const file = join(mkdtempSync(join(tmpdir(), 'inert-')), 'create-only.json');
  writeFileSync(
    file,
    JSON.stringify({
      commands: [
        {
          CreateCommand: {
            templateId: '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping',
            createArguments: { id: '{{uuid}}', initiator: '{{actAs0}}', responder: '{{actAs0}}' },
          },
        },
      ],
    }),
  );
  return file;
}

test('the inert lead exercises the template’s own choice, or Archive; the template’s commands follow', () => {
  const asset = factory().inertCommands();
  expect(asset[0]).toMatchObject({
    ExerciseCommand: { contractId: NO_SUCH_CONTRACT_ID, choice: 'Transfer', templateId: expect.any(String) },
  });
  expect(asset.slice(1)).toHaveLength(1);
  const created = factory({ LEDGER_COMMAND_TEMPLATE: createOnlyTemplate() }).inertCommands();
  expect(created[0]).toMatchObject({ ExerciseCommand: { choice: 'Archive', choiceArgument: {} } });
});

test('what can commit is told from what cannot, as objects, text and bytes', () => {
  const f = factory();
  const inert = f.inertSubmitRequest();
  const live = f.submitRequest();
  expect(isInertSubmission(inert)).toBe(true);
  expect(isInertSubmission(JSON.stringify(inert))).toBe(true);
  expect(isInertSubmission(Buffer.from(JSON.stringify({ ...inert, commandId: '' })))).toBe(true);
  expect(isInertSubmission(live)).toBe(false);
  expect(isInertSubmission(JSON.stringify(live))).toBe(false);
  expect(isInertSubmission(`${JSON.stringify(live)} trailing`)).toBe(false); // a lenient parser would run it
  // Nothing to run at all: no commands, none listed, no JSON naming any.
  for (const body of [undefined, '{', '{}', 'null', { ...live, commands: [] }, { ...live, commands: 'x' }])
    expect(isInertSubmission(body), JSON.stringify(body)).toBe(true);
});

for (const [name, env] of [
  ['sandbox-asset-transfer', {}],
  ['canton-ping', { LEDGER_COMMAND_TEMPLATE: 'canton-ping' }],
  ['a CreateCommand only', { LEDGER_COMMAND_TEMPLATE: createOnlyTemplate() }],
] as const) {
  test(`${name}: with a valid token CONTRACT_NOT_FOUND, without one 401, and nothing committed`, async () => {
    await withSandbox({}, async (app) => {
      const send = async (headers: Record<string, string>) =>
        app.inject({
          method: 'POST',
          url: PATHS.submitTree,
          headers: { 'content-type': 'application/json', ...headers },
          payload: JSON.stringify(factory(env).inertSubmitRequest()),
        });
      const found = await send(bearer(await token()));
      expect(found.statusCode, found.body).toBe(404);
      expect(found.json()).toMatchObject({ code: 'CONTRACT_NOT_FOUND' });
      const refused = await send({});
      expect(refused.statusCode, refused.body).toBe(401);
      // The template's own command alone is accepted: the lead is what keeps the submission from committing.
      const live = await app.inject({
        method: 'POST',
        url: PATHS.submitTree,
        headers: { 'content-type': 'application/json', ...bearer(await token()) },
        payload: JSON.stringify(factory(env).submitRequest()),
      });
      expect(live.statusCode, live.body).toBe(200);
      expect(live.json<{ transactionTree: { offset: number } }>().transactionTree.offset).toBe(1);
    });
  });
}
