// The sandbox's identity endpoints (sandbox/routes/identity.ts) and Canton's built-in Ping template: what a
// harness given only a URL and credentials can learn and use. Not conformance rules (the interface document
// does not describe these endpoints): the sandbox is held to Canton 3.4's shapes, errors and authorization.
import { expect, test } from '../support/test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEV_DEFAULTS, devParty } from '../../sandbox/config';
import { PING_PACKAGE } from '../../sandbox/vetting/builtin-package';
import {
  accepted,
  ALICE,
  BOB,
  CHARLIE,
  created,
  exercised,
  invalidArgument,
  invalidField,
  rejected,
  request,
  submit,
  uid,
} from './submit-kit';
import { bearer, PARTICIPANT, redacted, sandbox, token, type ListResponse } from '../support/sandbox-kit';

const DAVE = devParty('Dave');
const PING_BY_NAME = '#canton-builtin-admin-workflow-ping:Canton.Internal.Ping:Ping';
const PING_ID = `${PING_PACKAGE.packageId}:Canton.Internal.Ping:Ping`;

let app: FastifyInstance;
test.beforeAll(async () => {
  app = await sandbox();
});
test.afterAll(async () => {
  await app.close();
});

/** GET as the given user (a fresh dev token), with no Authorization header for null. */
async function get(
  url: string,
  sub: string | null = 'conformance',
  on = app,
): Promise<LightMyRequestResponse> {
  const headers = sub === null ? {} : bearer(await token({ claims: { sub } }));
  return on.inject({ method: 'GET', url, headers });
}

const ok = (res: LightMyRequestResponse): unknown => {
  expect(res.statusCode, res.body).toBe(200);
  expect(res.headers['content-type']).toBe('application/json');
  return res.json();
};

const rights = (url: string) => `/v2/users/${encodeURIComponent(url)}/rights`;
const SYNCS = '/v2/state/connected-synchronizers';

test.describe('sandbox GET /v2/authenticated-user', () => {
  test("answers the token's user as Canton's User message, every field present", async () => {
    expect(ok(await get('/v2/authenticated-user'))).toEqual({
      user: {
        id: 'conformance',
        primaryParty: '',
        isDeactivated: false,
        metadata: { resourceVersion: '0', annotations: {} },
        identityProviderId: '',
      },
    });
  });

  test('needs a token (401), refuses an unknown user (403 invalid token), and without auth has no user', async () => {
    expect((await get('/v2/authenticated-user', null)).json()).toEqual(redacted(16));
    const unknown = await get('/v2/authenticated-user', 'nobody');
    expect(unknown.statusCode).toBe(403);
    expect(unknown.json()).toEqual(redacted(7, { ledger_api_error: 'invalid token' }));
    const open = await sandbox({ SANDBOX_AUTH: 'none' });
    rejected(await get('/v2/authenticated-user', null, open), {
      status: 400,
      code: 'INVALID_TOKEN',
      category: 8,
      grpc: 3,
      cause:
        'The submitted request is missing a user-id: requests with an empty user-id are only supported if there is an authenticated user',
    });
    await open.close();
  });
});

test.describe('sandbox GET /v2/users/{user-id}/rights', () => {
  test("another user's rights are a redacted 403 (MatchUserIdForUserManagement), an admin reads anyone's", async () => {
    const denied = await get(rights('conformance2'));
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(redacted(7));
    expect((await get(rights('admin'), 'reader')).statusCode).toBe(403);
    expect(ok(await get(rights('reader'), 'admin'))).toEqual({
      rights: [{ kind: { CanReadAs: { value: { party: ALICE } } } }],
    });
    expect(ok(await get(rights('admin'), 'admin'))).toEqual({
      rights: [{ kind: { ParticipantAdmin: { value: {} } } }],
    });
  });

  test('an unknown user is USER_NOT_FOUND (404) for an admin, a 403 for anyone else', async () => {
    const body = rejected(await get(rights('ghost'), 'admin'), {
      status: 404,
      code: 'USER_NOT_FOUND',
      category: 11,
      grpc: 5,
      cause: 'list user rights failed for unknown user "ghost"',
    });
    expect(body.resources).toEqual([['USER', 'ghost']]);
    expect((await get(rights('ghost'))).statusCode).toBe(403);
  });

  test('a malformed user id is INVALID_ARGUMENT from the JSON layer, before authentication', async () => {
    for (const sub of ['conformance', null]) {
      rejected(await get(rights('bad user'), sub), invalidArgument('Malformed user-id: User ID "bad user"'));
    }
    rejected(await get(rights('x'.repeat(129))), invalidArgument('Malformed user-id'));
  });

  test('needs a token (401); without auth (admin claims) anyone is readable', async () => {
    expect((await get(rights('conformance'), null)).json()).toEqual(redacted(16));
    const open = await sandbox({ SANDBOX_AUTH: 'none' });
    expect((ok(await get(rights('conformance2'), null, open)) as { rights: unknown[] }).rights).toHaveLength(
      3,
    );
    await open.close();
  });
});

test.describe('sandbox GET /v2/parties/participant-id', () => {
  test('any valid token reads the participant id; none is a 401', async () => {
    expect(ok(await get('/v2/parties/participant-id', 'reader'))).toEqual({ participantId: PARTICIPANT });
    expect((await get('/v2/parties/participant-id', null)).json()).toEqual(redacted(16));
    // A configured id (SANDBOX_PARTICIPANT_ID) is what discovery reads from the staging participant of
    // selftest/run/discovery-run.test.ts.
  });
});

test.describe('sandbox GET /v2/state/connected-synchronizers', () => {
  test('without a party: every synchronizer the participant is connected to, permission unspecified', async () => {
    const body = ok(await get(SYNCS)) as { connectedSynchronizers: Record<string, string>[] };
    const ids = body.connectedSynchronizers.map((s) => s.synchronizerId);
    expect(ids).toContain(DEV_DEFAULTS.synchronizerId);
    expect(ids.length).toBe(2); // SANDBOX_SYNCHRONIZERS' default
    for (const s of body.connectedSynchronizers) {
      expect(Object.keys(s)).toEqual(['synchronizerAlias', 'synchronizerId', 'permission']);
      expect(s.permission).toBe('PARTICIPANT_PERMISSION_UNSPECIFIED');
      expect(String(s.synchronizerId).startsWith(`${s.synchronizerAlias}::`)).toBe(true);
    }
  });

  test('with a party the user acts or reads as: the synchronizers hosting it, with its permission', async () => {
    for (const [party, sub] of [
      [ALICE, 'conformance'],
      [CHARLIE, 'conformance'],
      [ALICE, 'reader'],
    ] as const) {
      const body = ok(await get(`${SYNCS}?party=${encodeURIComponent(party)}`, sub)) as {
        connectedSynchronizers: Record<string, string>[];
      };
      expect(body.connectedSynchronizers).toHaveLength(2);
      expect(
        body.connectedSynchronizers.every((s) => s.permission === 'PARTICIPANT_PERMISSION_SUBMISSION'),
      ).toBe(true);
    }
  });

  test('a party without a right is a redacted 403; an admin sees it hosted nowhere; bad ids are INVALID_FIELD', async () => {
    const denied = await get(`${SYNCS}?party=${encodeURIComponent(DAVE)}`);
    expect(denied.statusCode).toBe(403);
    expect(denied.json()).toEqual(redacted(7));
    expect(ok(await get(`${SYNCS}?party=${encodeURIComponent(DAVE)}`, 'admin'))).toEqual({
      connectedSynchronizers: [],
    });
    // Another participant hosts none of the sandbox's parties.
    const elsewhere = `${SYNCS}?party=${encodeURIComponent(ALICE)}&participantId=${encodeURIComponent('p2::1220ab')}`;
    expect(ok(await get(elsewhere))).toEqual({ connectedSynchronizers: [] });
    rejected(await get(`${SYNCS}?party=bad%21party`, 'admin'), invalidField('party'));
    // Authorization comes first: without admin, a malformed party is a party without a right.
    expect((await get(`${SYNCS}?party=bad%21party`)).statusCode).toBe(403);
    rejected(await get(`${SYNCS}?participantId=nonamespace`), invalidField('participant_id'));
    expect((await get(SYNCS, null)).json()).toEqual(redacted(16));
  });
});

test.describe("sandbox: Canton's built-in Ping template", () => {
  const ping = (initiator: string, responder: string, choice = 'Respond', choiceArgument: unknown = {}) => ({
    CreateAndExerciseCommand: {
      templateId: PING_BY_NAME,
      createArguments: { id: uid('ping'), initiator, responder },
      choice,
      choiceArgument,
    },
  });

  test('its package is vetted by the participant on every synchronizer it is connected to', async () => {
    const res = await app.inject({
      method: 'POST',
      url: '/v2/package-vetting/list',
      headers: { ...bearer(await token()), 'content-type': 'application/json' },
      payload: JSON.stringify({
        packageMetadataFilter: { packageNamePrefixes: ['canton-builtin-admin-workflow-ping'] },
        topologyStateFilter: { participantIds: [PARTICIPANT] },
      }),
    });
    const page = ok(res) as ListResponse;
    expect(page.vettedPackages).toHaveLength(2);
    for (const e of page.vettedPackages) {
      expect(e.packages).toEqual([
        {
          packageId: PING_PACKAGE.packageId,
          validFromInclusive: null,
          validUntilExclusive: null,
          packageName: 'canton-builtin-admin-workflow-ping',
          packageVersion: '3.4.0',
        },
      ]);
    }
  });

  test('CreateAndExercise Ping/Respond by one party that is initiator and responder leaves no contract', async () => {
    const tree = accepted(await submit(app, request({ commands: [ping(ALICE, ALICE)] })));
    expect(Object.keys(tree.eventsById)).toEqual(['0', '1']);
    const c = created(tree, 0);
    expect(c).toMatchObject({
      templateId: PING_ID,
      packageName: 'canton-builtin-admin-workflow-ping',
      representativePackageId: PING_PACKAGE.packageId,
      signatories: [ALICE],
      observers: [],
      acsDelta: false,
    });
    expect(exercised(tree, 1)).toMatchObject({
      templateId: PING_ID,
      choice: 'Respond',
      consuming: true,
      actingParties: [ALICE],
      exerciseResult: {},
      lastDescendantNodeId: 1,
      acsDelta: false,
    });
  });

  test('Respond needs the responder: another responder is a Daml authorization error unless it acts too', async () => {
    const res = await submit(app, request({ commands: [ping(ALICE, BOB)] }));
    rejected(res, {
      status: 400,
      code: 'DAML_AUTHORIZATION_ERROR',
      category: 8,
      grpc: 3,
      cause: `requires controllers ${BOB}`,
    });
    const tree = accepted(await submit(app, request({ commands: [ping(ALICE, BOB)], actAs: [ALICE, BOB] })));
    expect(created(tree, 0).observers).toEqual([BOB]);
    // The initiator must act: a submitter who is only the responder cannot create the ping.
    rejected(await submit(app, request({ commands: [ping(ALICE, BOB)], actAs: [BOB] })), {
      status: 400,
      code: 'DAML_AUTHORIZATION_ERROR',
      category: 8,
      grpc: 3,
      cause: `requires authorizers ${ALICE}`,
    });
  });

  test('AbortPing is controlled by its `anyone` argument; the template id by package id works too', async () => {
    const tree = accepted(
      await submit(app, request({ commands: [ping(ALICE, BOB, 'AbortPing', { anyone: ALICE })] })),
    );
    expect(exercised(tree, 1)).toMatchObject({
      choice: 'AbortPing',
      actingParties: [ALICE],
      choiceArgument: { anyone: ALICE },
    });
    rejected(await submit(app, request({ commands: [ping(ALICE, BOB, 'AbortPing', { anyone: BOB })] })), {
      status: 400,
      code: 'DAML_AUTHORIZATION_ERROR',
      category: 8,
      grpc: 3,
    });
    const byId = ping(ALICE, ALICE);
    byId.CreateAndExerciseCommand.templateId = PING_ID;
    accepted(await submit(app, request({ commands: [byId] })));
    rejected(
      await submit(app, request({ commands: [ping(ALICE, ALICE, 'Respond', { extra: ALICE })] })),
      invalidArgument('Unexpected fields: extra'),
    );
  });
});
