// core/discovery.ts: its pure functions, and `discover` over HTTP against the sandbox (127.0.0.1, port 0)
// with only a URL and a token — what a staging participant gives.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import {
  discover,
  DiscoveryError,
  httpFetcher,
  packageRefsOf,
  partiesFromRights,
  synchronizersVetting,
  unauthorizedPartyFor,
  type Fetcher,
} from '../../core/discovery';
import { DEV_DEFAULTS, devParty } from '../../sandbox/config';
import { listen, rejectionOf } from '../support/harness-kit';
import { sandbox, token } from '../support/sandbox-kit';

const template = (name: string): unknown =>
  JSON.parse(readFileSync(resolve(__dirname, `../../core/templates/${name}.json`), 'utf8'));
const PING = template('canton-ping');
const ASSET = template('sandbox-asset-transfer');
const NS = DEV_DEFAULTS.participantId.split('::')[1]!;

test.describe('discovery: pure functions', () => {
  test('partiesFromRights keeps CanActAs and CanReadAs parties, ignores other rights and repeats', () => {
    const right = (kind: string, party?: string) => ({ kind: { [kind]: { value: party ? { party } : {} } } });
    expect(
      partiesFromRights({
        rights: [
          right('ParticipantAdmin'),
          right('CanActAs', 'A::1'),
          right('CanReadAs', 'B::1'),
          right('CanReadAs', 'A::1'),
          right('CanActAs', 'A::1'),
          right('CanExecuteAs', 'C::1'),
        ],
      }),
    ).toEqual({ actAs: ['A::1'], readAs: ['B::1'] });
    expect(partiesFromRights(null)).toEqual({ actAs: [], readAs: [] });
  });

  test('packageRefsOf names the packages of the shipped templates', () => {
    expect(packageRefsOf(PING)).toEqual({ names: ['canton-builtin-admin-workflow-ping'], ids: [] });
    expect(packageRefsOf(ASSET)).toEqual({ names: ['conformance-sandbox'], ids: [] });
    expect(packageRefsOf({ commands: [{ CreateCommand: { templateId: 'abc123:M:T' } }] })).toEqual({
      names: [],
      ids: ['abc123'],
    });
  });

  test('synchronizersVetting keeps the entries of the participant holding every referenced package', () => {
    const entry = (synchronizerId: string, participantId: string, ...names: string[]) => ({
      synchronizerId,
      participantId,
      packages: names.map((packageName) => ({ packageId: `id-${packageName}`, packageName })),
    });
    const entries = [
      entry('s1::1', 'p::1', 'a'),
      entry('s2::1', 'p::1', 'a', 'b'),
      entry('s3::1', 'q::1', 'a', 'b'),
    ];
    expect(synchronizersVetting(entries, 'p::1', { names: ['a', 'b'], ids: [] })).toEqual(['s2::1']);
    expect(synchronizersVetting(entries, 'p::1', { names: [], ids: ['id-a'] })).toEqual(['s1::1', 's2::1']);
  });

  test("unauthorizedPartyFor is a party in the participant's namespace that no right names", () => {
    expect(unauthorizedPartyFor('p1::1220ab', [])).toBe('conformance-unauthorized::1220ab');
    expect(unauthorizedPartyFor('p1::1220ab', ['conformance-unauthorized::1220ab'])).toBe(
      'conformance-unauthorized-2::1220ab',
    );
  });
});

test.describe('discovery against the sandbox', () => {
  let app: FastifyInstance;
  let url: string;
  test.beforeAll(async () => {
    const users = [...DEV_DEFAULTS.users, { id: 'solo', actAs: [devParty('Alice')], readAs: [] }];
    app = await sandbox({ SANDBOX_USERS: JSON.stringify(users) });
    url = await listen(app);
  });
  test.afterAll(async () => {
    await app.close();
  });

  /** Counts the requests, so a test can show which calls discovery made. */
  const counting =
    (inner: Fetcher, paths: string[]): Fetcher =>
    (req) => {
      paths.push(`${req.method} ${req.path.split('?')[0]}`);
      return inner(req);
    };

  test('from a user token alone: every identity setting, each with its source', async () => {
    const t = await token();
    const paths: string[] = [];
    const found = await discover(
      { token: t, commandTemplate: { document: PING } },
      counting(httpFetcher(url, t), paths),
    );
    expect(found.user).toEqual({ value: 'conformance', source: "the token's sub claim" });
    expect(found.actAs).toEqual({
      value: [devParty('Alice'), devParty('Bob')],
      source: 'discovered via GET /v2/users/conformance/rights',
    });
    expect(found.readAs.value).toEqual([devParty('Charlie')]);
    expect(found.participantId).toEqual({
      value: DEV_DEFAULTS.participantId,
      source: 'discovered via GET /v2/parties/participant-id',
    });
    // Both synchronizers vet the Ping package; the first hosting Alice in Canton's order is taken.
    expect(found.synchronizerId.value).toMatch(new RegExp(`^(da|sandbox)::`));
    expect(found.synchronizerId.source).toContain('GET /v2/state/connected-synchronizers');
    expect(found.unauthorizedParty.value).toBe(`conformance-unauthorized::${NS}`);
    expect(paths).toEqual([
      'GET /v2/users/conformance/rights',
      'GET /v2/parties/participant-id',
      'GET /v2/state/connected-synchronizers',
      // Canton's walk: the non-empty page still carries a token, the following empty page ends it.
      'POST /v2/package-vetting/list',
      'POST /v2/package-vetting/list',
    ]);
  });

  test('an opaque token: the user comes from GET /v2/authenticated-user', async () => {
    const t = await token({ claims: { sub: 'solo' } });
    const found = await discover(
      { token: 'opaque', commandTemplate: { document: ASSET } },
      httpFetcher(url, t),
    );
    expect(found.user).toEqual({ value: 'solo', source: 'discovered via GET /v2/authenticated-user' });
    expect(found.actAs.value).toEqual([devParty('Alice')]);
    expect(found.readAs.value).toEqual([]);
  });

  test('explicit settings win: known values are used as given and not asked for', async () => {
    const t = await token();
    const paths: string[] = [];
    const known = {
      user: 'conformance',
      actAs: [devParty('Bob')],
      readAs: [],
      participantId: DEV_DEFAULTS.participantId,
      synchronizerId: null,
      unauthorizedParty: devParty('Dave'),
    };
    const found = await discover(
      { token: t, commandTemplate: { document: PING }, known },
      counting(httpFetcher(url, t), paths),
    );
    expect(paths).toEqual([]);
    expect(found.actAs).toEqual({ value: [devParty('Bob')], source: 'LEDGER_ACT_AS' });
    expect(found.synchronizerId).toEqual({ value: undefined, source: 'LEDGER_SYNCHRONIZER_ID' });
    expect(found.unauthorizedParty.source).toBe('LEDGER_UNAUTHORIZED_PARTY');
  });

  // A user without CanActAs, and a template vetted nowhere, as the preflight words them:
  // selftest/preflight/preflight.test.ts 'a user without rights' and selftest/run/broken-listing.test.ts's run.
  test('a failing call names the setting to give instead, and never the token', async () => {
    const fails = async (
      settings: Parameters<typeof discover>[0],
      fetcher: Fetcher,
      setting: string,
      text: string,
    ) => {
      const error = await rejectionOf(discover(settings, fetcher));
      expect(error).toBeInstanceOf(DiscoveryError);
      expect((error as DiscoveryError).setting).toBe(setting);
      expect((error as DiscoveryError).message).toContain(text);
      if (settings.token) expect((error as DiscoveryError).message).not.toContain(settings.token);
      return error as DiscoveryError;
    };
    // No credentials: the participant refuses (401) the user lookup.
    await fails(
      { token: undefined, commandTemplate: { document: PING } },
      httpFetcher(url, undefined),
      'LEDGER_USER',
      'GET /v2/authenticated-user answered 401 NA: set LEDGER_USER instead',
    );
    // Another user's rights are refused (403): the user named by LEDGER_USER is not the token's.
    const t = await token();
    await fails(
      { token: t, commandTemplate: { document: PING }, known: { user: 'conformance2' } },
      httpFetcher(url, t),
      'LEDGER_ACT_AS and LEDGER_READ_AS',
      'GET /v2/users/conformance2/rights answered 403 NA',
    );
    // An unreachable participant.
    await fails(
      { token: t, commandTemplate: { document: PING } },
      httpFetcher('http://127.0.0.1:9', t, 2000),
      'LEDGER_ACT_AS and LEDGER_READ_AS',
      'failed',
    );
  });
});
