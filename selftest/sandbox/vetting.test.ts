// POST /v2/package-vetting/list of the sandbox: Canton's ordering, stateless tokens and errors, each shown both
// ways; the control route; a 10⁵-entry topology. Walks to their end, page sizes and the final token (Canton's
// extra empty page; the document's "" in strict-interface mode) are the VET-PAGE- rules', judged on the fault
// run's clean sandboxes (selftest/mutation/mutation.test.ts).
import { createHash } from 'node:crypto';
import { expect, test } from '../support/test';
import { claim } from '../support/claim';
import type { FastifyInstance } from 'fastify';
import { loadConfig } from '../../sandbox/config';
import { BUILTIN_PACKAGE } from '../../sandbox/vetting/builtin-package';
import { generateTopology } from '../../sandbox/vetting/generate';
import { listVettedPackages } from '../../sandbox/vetting/list';
import { encodePageToken } from '../../sandbox/vetting/page-token';
import { parseListRequest } from '../../sandbox/vetting/request';
import {
  adminToken,
  bearer,
  compareUid,
  control,
  entryKey,
  list,
  listRaw,
  PARTICIPANT,
  redacted,
  sandbox,
  SYNCHRONIZER,
  token,
  walk,
  withSandbox,
  type ListResponse,
  type VettedPackages,
} from '../support/sandbox-kit';

const CANTON_ID = /^[A-Za-z0-9_-]+::1220[0-9a-f]{64}$/;
const NS = (c: string): string => `1220${c.repeat(64)}`;

/** The page token as Canton builds it, written independently of the sandbox: protobuf, then URL-safe base64. */
function cantonToken(synchronizerId: string, participantId: string): string {
  const field = (tag: number, s: string): Buffer => {
    const bytes = Buffer.from(s, 'utf8');
    expect(bytes.length).toBeLessThan(128); // one-byte length varint in these tests
    return Buffer.concat([Buffer.from([tag, bytes.length]), bytes]);
  };
  // Java's Base64.getUrlEncoder: the URL alphabet, with padding.
  const bytes = Buffer.concat([field(0x0a, synchronizerId), field(0x12, participantId)]);
  return bytes.toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

function expectCantonOrder(entries: VettedPackages[]): void {
  for (let i = 1; i < entries.length; i++) {
    const [a, b] = [entries[i - 1] as VettedPackages, entries[i] as VettedPackages];
    const c = compareUid(a.synchronizerId, b.synchronizerId) || compareUid(a.participantId, b.participantId);
    claim(c, `${entryKey(a)} must sort before ${entryKey(b)}`).toBeLessThan(0);
  }
}

async function protoFailure(app: FastifyInstance, body: unknown): Promise<string> {
  const res = await listRaw(app, body);
  expect(res.status).toBe(400);
  expect(res.type).toBe('application/json');
  const err = res.json() as {
    code: string;
    errorCategory: number;
    grpcCodeValue: number;
    context: { reason: string };
  };
  expect(err).toMatchObject({
    code: 'PROTO_DESERIALIZATION_FAILURE',
    cause: 'Deserialization of protobuf message failed',
    errorCategory: 8,
    grpcCodeValue: 3,
  });
  return err.context.reason;
}

test.describe('sandbox vetting list: shape, order, built-in package', () => {
  test('an empty request lists every participant × synchronizer entry in Canton shapes', async () => {
    const app = await sandbox({
      SANDBOX_SYNCHRONIZERS: '3',
      SANDBOX_PARTICIPANTS: '12',
      SANDBOX_PACKAGES: '9',
    });
    const page = await list(app, {});
    expect(Object.keys(page)).toEqual(['vettedPackages', 'nextPageToken']);
    expect(page.vettedPackages).toHaveLength(36);
    for (const e of page.vettedPackages) {
      claim(Object.keys(e)).toEqual(['packages', 'participantId', 'synchronizerId', 'topologySerial']);
      claim(e.participantId).toMatch(CANTON_ID);
      claim(e.synchronizerId).toMatch(CANTON_ID);
      claim(Number.isInteger(e.topologySerial) && e.topologySerial > 0).toBe(true);
      claim(e.packages.length).toBeGreaterThan(0);
      for (const p of e.packages) {
        claim(Object.keys(p)).toEqual([
          'packageId',
          'validFromInclusive',
          'validUntilExclusive',
          'packageName',
          'packageVersion',
        ]);
        claim(p.packageId).toMatch(/^[0-9a-f]{64}$/);
        if (p.validFromInclusive !== null)
          claim(p.validFromInclusive).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ$/);
        claim(p.packageVersion).toMatch(/^\d+(\.\d+)*$/);
      }
    }
    expect(new Set(page.vettedPackages.map(entryKey)).size).toBe(36);
    await app.close();
  });

  test('order is synchronizer then participant, identifier before namespace (da:: before da1::)', async () => {
    const app = await sandbox({ SANDBOX_SYNCHRONIZERS: '3', SANDBOX_PARTICIPANTS: '12' });
    const entries = (await list(app, {})).vettedPackages;
    expectCantonOrder(entries);
    const syncs = [...new Set(entries.map((e) => e.synchronizerId))];
    expect(syncs.map((s) => s.split('::')[0])).toEqual(['da', 'da1', 'sandbox']);
    // The edge case is live: plain string order would put da1:: first ('1' < ':').
    expect([...syncs].sort()[0]?.startsWith('da1::')).toBe(true);
    const parts = entries
      .filter((e) => e.synchronizerId === syncs[0])
      .map((e) => e.participantId.split('::')[0]);
    expect(parts.slice(0, 5)).toEqual([
      'participant1',
      'participant10',
      'participant11',
      'participant12',
      'participant2',
    ]);
    await app.close();
  });

  test('the participant vets the built-in package conformance-sandbox 1.0.0 on its synchronizer', async () => {
    const app = await sandbox();
    const id = createHash('sha256').update('conformance-sandbox-1.0.0').digest('hex');
    const page = await list(app, { packageMetadataFilter: { packageIds: [id] } });
    const own = page.vettedPackages.find(
      (e) => e.participantId === PARTICIPANT && e.synchronizerId === SYNCHRONIZER,
    );
    expect(own?.packages).toEqual([
      {
        packageId: id,
        validFromInclusive: null,
        validUntilExclusive: null,
        packageName: 'conformance-sandbox',
        packageVersion: '1.0.0',
      },
    ]);
    expect(page.vettedPackages.every((e) => e.participantId === PARTICIPANT)).toBe(true);
    await app.close();
  });

  test('the topology is a function of the seed', async () => {
    const [a, b, c] = await Promise.all([
      sandbox({ SANDBOX_SEED: '7' }),
      sandbox({ SANDBOX_SEED: '7' }),
      sandbox({ SANDBOX_SEED: '8' }),
    ]);
    const [la, lb, lc] = await Promise.all([list(a), list(b), list(c)]);
    expect(la).toEqual(lb);
    expect(lc).not.toEqual(la);
    await Promise.all([a.close(), b.close(), c.close()]);
  });
});

// The filters' semantics (package ids, name prefixes, either of them, participants, synchronizers, both of
// them, empty lists, no match, no entry without a match) are the VET-FILTER- rules', judged on the clean
// sandbox by the fault run (selftest/mutation/mutation.test.ts: no rule may fail there), where the faults of
// sandbox/faults/groups/vetting.ts show each rule failing. Here: Canton's words for a malformed id.
test.describe('sandbox vetting list: filters', () => {
  let app: FastifyInstance;
  test.beforeAll(async () => {
    app = await sandbox();
  });
  test.afterAll(async () => app.close());

  test('unknown but well-formed synchronizer or participant ids match nothing; malformed ones are refused', async () => {
    const nothing = { vettedPackages: [], nextPageToken: '' };
    expect(await list(app, { topologyStateFilter: { synchronizerIds: [`unknown::${NS('a')}`] } })).toEqual(
      nothing,
    );
    expect(await list(app, { topologyStateFilter: { participantIds: [`unknown::${NS('a')}`] } })).toEqual(
      nothing,
    );
    expect(await protoFailure(app, { topologyStateFilter: { synchronizerIds: ['nope'] } })).toBe(
      'ValueConversionError(synchronizer_ids,Invalid unique identifier `nope` with missing namespace.)',
    );
    expect(await protoFailure(app, { topologyStateFilter: { participantIds: ['::x'] } })).toBe(
      'ValueConversionError(participant_ids,Invalid unique identifier `::x` with empty identifier.)',
    );
    expect(await protoFailure(app, { packageMetadataFilter: { packageIds: ['bad!'] } })).toBe(
      'ValueConversionError(package_ids,non expected character 0x21 in Daml-LF Package ID "bad!")',
    );
  });
});

test.describe('sandbox vetting list: pagination', () => {
  let app: FastifyInstance;
  let everything: VettedPackages[];
  test.beforeAll(async () => {
    app = await sandbox({ SANDBOX_SYNCHRONIZERS: '3', SANDBOX_PARTICIPANTS: '7' });
    everything = (await list(app, {})).vettedPackages;
    expect(everything).toHaveLength(21);
  });
  test.afterAll(async () => app.close());

  test('walks with filters equal the filtered listing', async () => {
    const s = everything[10]?.synchronizerId ?? '';
    const p = [everything[0]?.participantId ?? '', everything[3]?.participantId ?? ''];
    for (const body of [
      { topologyStateFilter: { synchronizerIds: [s] } },
      { topologyStateFilter: { participantIds: p } },
      { topologyStateFilter: { participantIds: p, synchronizerIds: [s] } },
      { packageMetadataFilter: { packageNamePrefixes: ['vetting-'] } },
    ]) {
      const whole = (await list(app, body)).vettedPackages;
      expect(whole.length).toBeGreaterThan(0);
      expect((await walk(app, body, 2)).flatMap((pg) => pg.vettedPackages)).toEqual(whole);
    }
  });

  test('a package-filtered page is Canton\'s: a window of pageSize entries filtered afterwards, "" when empty', async () => {
    // PackageOpsImpl.getVettedPackages takes pageSize entries after the token, PackageService.filterAndEnrich
    // drops the ones without a match, ApiPackageService builds the token from the last returned entry.
    const filter = { packageMetadataFilter: { packageIds: [BUILTIN_PACKAGE.packageId] } };
    const keep = (e: VettedPackages) =>
      (e.packages ?? []).some((p) => p.packageId === BUILTIN_PACKAGE.packageId);
    const matches = everything.filter(keep);
    expect(matches).toHaveLength(3); // the configured participant, once per synchronizer
    let endedEarly = 0;
    for (const size of [1, 2, 5, 7, 21]) {
      const expected: ListResponse[] = [];
      let from = 0;
      for (;;) {
        const window = everything.slice(from, from + size).filter(keep);
        const last = window.at(-1);
        expected.push({
          vettedPackages: window.map((e) => ({
            ...e,
            packages: (e.packages ?? []).filter((p) => p.packageId === BUILTIN_PACKAGE.packageId),
          })),
          nextPageToken: last ? cantonToken(last.synchronizerId, last.participantId) : '',
        });
        if (!last) break;
        from = everything.indexOf(last) + 1;
      }
      expect(await walk(app, filter, size), `page size ${size}`).toEqual(expected);
      if (expected.flatMap((pg) => pg.vettedPackages).length < matches.length) endedEarly += 1;
    }
    expect(endedEarly, 'walks that end before the last match').toBeGreaterThan(0);
    // The document's reading (strict-interface mode) fills the pages from the matches: the walk lists all.
    await withSandbox(
      {
        SANDBOX_SYNCHRONIZERS: '3',
        SANDBOX_PARTICIPANTS: '7',
        SANDBOX_MODE: 'strict-interface',
      },
      async (strict) => {
        const pages = await walk(strict, filter, 1);
        expect(pages.flatMap((pg) => pg.vettedPackages.map(entryKey))).toEqual(matches.map(entryKey));
        expect(pages).toHaveLength(3);
      },
    );
  });

  test("the token is Canton's: URL-safe base64 (padded) of the protobuf (synchronizer, participant) of the last entry", async () => {
    const page = await list(app, { pageSize: 4 });
    const last = page.vettedPackages[3] as VettedPackages;
    expect(page.nextPageToken).toBe(cantonToken(last.synchronizerId, last.participantId));
    expect(page.nextPageToken).toMatch(/^[A-Za-z0-9_-]+=*$/);
  });

  test('tokens are stateless: the same token twice, from another instance, or built by the client', async () => {
    const first = await list(app, { pageSize: 5 });
    const second = await list(app, { pageSize: 5, pageToken: first.nextPageToken });
    expect(await list(app, { pageSize: 5, pageToken: first.nextPageToken })).toEqual(second);
    const other = await sandbox({ SANDBOX_SYNCHRONIZERS: '3', SANDBOX_PARTICIPANTS: '7' });
    expect(await list(other, { pageSize: 5, pageToken: first.nextPageToken })).toEqual(second);
    await other.close();
    // An exclusive lower bound that names no entry: the page starts at the next entry in Canton's order.
    const s = everything[7]?.synchronizerId ?? '';
    const crafted = cantonToken(s, `participant1::${NS('0')}`);
    const fromCrafted = await list(app, { pageSize: 1, pageToken: crafted });
    expect(fromCrafted.vettedPackages[0]).toEqual(everything.find((e) => e.synchronizerId === s));
  });

  test('pageSize 0 or absent means the server maximum; the maximum itself is accepted', async () => {
    const big = await sandbox({ SANDBOX_SYNCHRONIZERS: '2', SANDBOX_PARTICIPANTS: '60' });
    expect((await list(big, {})).vettedPackages).toHaveLength(100);
    expect((await list(big, { pageSize: 0 })).vettedPackages).toHaveLength(100);
    expect((await list(big, { pageSize: 100 })).vettedPackages).toHaveLength(100);
    await big.close();
    const small = await sandbox({ SANDBOX_MAX_VETTED_PAGE_SIZE: '4' });
    expect((await list(small, {})).vettedPackages).toHaveLength(4);
    await small.close();
  });

  test("pageSize above the maximum or negative is PROTO_DESERIALIZATION_FAILURE with Canton's reason", async () => {
    expect(await protoFailure(app, { pageSize: 101 })).toBe(
      "InvariantViolation(Some(page_size),Page size must not exceed the server's maximum of 100)",
    );
    expect(await protoFailure(app, { pageSize: -1 })).toBe(
      'InvariantViolation(Some(page_size),Received the negative -1 as argument, but we require a non-negative value here.)',
    );
    // Not an int32 at all: circe cannot decode it, so it is tapir's 400 text/plain.
    for (const pageSize of ['4294967295', '1.5']) {
      const overflow = await listRaw(app, `{"pageSize": ${pageSize}}`);
      expect(overflow.status).toBe(400);
      expect(overflow.text).toBe("Invalid value for: body (Int at 'pageSize')");
    }
  });

  test('a token the server did not issue is PROTO_DESERIALIZATION_FAILURE, whatever is wrong with it', async () => {
    const prefix = 'ValueConversionError(page_token,Invalid page token for ListVettedPackagesRequest: ';
    expect(await protoFailure(app, { pageToken: 'INVALID_PAGE_TOKEN' })).toMatch(
      new RegExp(`^${prefix.replace(/[()]/g, '\\$&')}`),
    );
    expect(await protoFailure(app, { pageToken: 'a+b/' })).toBe(`${prefix}Failed base64 decoding)`);
    expect(await protoFailure(app, { pageToken: 'abcde' })).toBe(`${prefix}Failed base64 decoding)`);
    expect(
      await protoFailure(app, { pageToken: Buffer.from([0x0a, 0x05, 0x61]).toString('base64url') }),
    ).toBe(`${prefix}Failed proto decoding)`);
    const truncated = Buffer.concat([Buffer.from([0x12, 3]), Buffer.from('a::b')]).toString('base64url');
    expect(await protoFailure(app, { pageToken: truncated })).toBe(`${prefix}Failed proto decoding)`);
    const noSync = Buffer.concat([Buffer.from([0x12, 4]), Buffer.from('a::b')]).toString('base64url');
    expect(await protoFailure(app, { pageToken: noSync })).toBe(
      `${prefix}Couldn't extract token's synchronizer ID: Empty string is not a valid unique identifier.)`,
    );
  });
});

test.describe('sandbox vetting list: the control route', () => {
  test("asks what Canton's vetting update asks: no token 401, a user without ParticipantAdmin 403, an admin 200", async () => {
    const app = await sandbox({ SANDBOX_CONTROL: 'true' });
    const body = {
      synchronizerId: SYNCHRONIZER,
      participantId: PARTICIPANT,
      packages: [{ packageId: 'e'.repeat(64), packageName: 'vetting-late', packageVersion: '1.0.0' }],
    };
    const as = async (headers: Record<string, string>, payload: unknown = body) =>
      app.inject({
        method: 'POST',
        url: '/sandbox/control/vet',
        headers: { ...headers, 'content-type': 'application/json' },
        payload: JSON.stringify(payload),
      });
    for (const [who, headers, status, error] of [
      ['no token', {}, 401, redacted(16)],
      ['a token of the plain user conformance', bearer(await token()), 403, redacted(7)],
    ] as const) {
      const res = await as(headers);
      expect(res.statusCode, who).toBe(status);
      expect(res.json(), who).toEqual(error);
    }
    expect(
      (await list(app, {})).vettedPackages.flatMap((e) => e.packages.map((p) => p.packageId)),
    ).not.toContain('e'.repeat(64));
    // The body is decoded before the caller is asked for (tapir, then the Authorizer), as on Canton's endpoints.
    const undecodable = await as({}, { synchronizerId: SYNCHRONIZER });
    expect([undecodable.statusCode, undecodable.body]).toEqual([
      400,
      "Invalid value for: body (Missing required field at 'participantId', Missing required field at 'packages')",
    ]);
    expect((await as(bearer(await adminToken()))).statusCode).toBe(200);
    expect(
      (
        await app.inject({
          method: 'POST',
          url: '/sandbox/control/unvet',
          payload: { synchronizerId: SYNCHRONIZER, participantId: PARTICIPANT, packageIds: ['e'.repeat(64)] },
        })
      ).statusCode,
    ).toBe(401);
    await app.close();

    // Auth off: Canton's wildcard claims hold ClaimAdmin, so anyone may (as on the rest of that participant).
    const open = await sandbox({ SANDBOX_CONTROL: 'true', SANDBOX_AUTH: 'none' });
    expect(
      (await open.inject({ method: 'POST', url: '/sandbox/control/vet', payload: body })).statusCode,
    ).toBe(200);
    await open.close();
  });

  test('a new participant × synchronizer entry lands in its sorted place (da:: before da1::, by namespace)', async () => {
    const app = await sandbox({
      SANDBOX_CONTROL: 'true',
      SANDBOX_SYNCHRONIZERS: '1',
      SANDBOX_PARTICIPANTS: '1',
    });
    const builtin = createHash('sha256').update('conformance-sandbox-1.0.0').digest('hex');
    const vet = (synchronizerId: string, participantId: string) =>
      control(app, 'vet', { synchronizerId, participantId, packages: [{ packageId: builtin }] });
    for (const [s, p] of [
      [`da1::${NS('a')}`, `p::${NS('1')}`],
      [`da::${NS('f')}`, `p::${NS('1')}`],
      [`da::${NS('0')}`, `p::${NS('1')}`],
      [`da::${NS('0')}`, `p1::${NS('0')}`],
      [`da::${NS('0')}`, `p::${NS('2')}`],
    ]) {
      expect((await vet(s as string, p as string)).statusCode).toBe(200);
    }
    const keys = (await list(app, {})).vettedPackages.map(
      (e) =>
        `${e.synchronizerId.slice(0, e.synchronizerId.indexOf('::') + 7)} ${e.participantId.slice(0, e.participantId.indexOf('::') + 7)}`,
    );
    expect(keys).toEqual([
      'da::12200 p::12201',
      'da::12200 p::12202',
      'da::12200 p1::12200',
      'da::1220f p::12201',
      'da1::1220a p::12201',
      expect.stringMatching(/^sandbox::/),
    ]);
    await app.close();
  });

  test('validates its input: ids, package ids, unknown packages need name and version, JSON decoding', async () => {
    const app = await sandbox({ SANDBOX_CONTROL: 'true' });
    const send = (payload: unknown) => control(app, 'vet', payload);
    const ok = { synchronizerId: SYNCHRONIZER, participantId: PARTICIPANT };
    const cases: [unknown, number, RegExp][] = [
      [
        { ...ok, synchronizerId: 'nope', packages: [{ packageId: 'a'.repeat(64) }] },
        400,
        /INVALID_ARGUMENT.*synchronizerId/,
      ],
      [{ ...ok, packages: [{ packageId: 'bad!' }] }, 400, /INVALID_ARGUMENT.*Package ID/],
      [{ ...ok, packages: [{ packageId: 'a'.repeat(64) }] }, 400, /needs packageName and packageVersion/],
      [
        { ...ok, packages: [{ packageId: 'a'.repeat(64), packageName: 'x', packageVersion: 'v1' }] },
        400,
        /packageVersion/,
      ],
      [{ ...ok, packages: [] }, 400, /between 1 and 1000/],
      [{ ...ok }, 400, /^Invalid value for: body \(Missing required field at 'packages'\)$/],
      [{ ...ok, packages: 'x' }, 400, /expecting array at 'packages'/],
    ];
    for (const [payload, status, pattern] of cases) {
      const res = await send(payload);
      expect(res.statusCode, JSON.stringify(payload)).toBe(status);
      expect(res.body).toMatch(pattern);
    }
    await app.close();
  });
});

test.describe('sandbox vetting list: 10⁵ entries', () => {
  // How fast it builds is the bench's (npm run bench), never a self-test's: these machines are shared.
  test('a page seeks to its token: the last page visits as few entries as the first: no more than a page', () => {
    const topology = generateTopology(
      loadConfig({ SANDBOX_SYNCHRONIZERS: '10', SANDBOX_PARTICIPANTS: '10000' }),
    );
    let visited = 0;
    const entriesAfter = topology.entriesAfter.bind(topology);
    topology.entriesAfter = function* (after, only) {
      for (const e of entriesAfter(after, only)) {
        visited++;
        yield e;
      }
    };
    const page = (pageToken: string) =>
      listVettedPackages(topology, parseListRequest({ pageSize: 100, pageToken }, 100), 'canton');
    const first = page('');
    expect(visited).toBeLessThanOrEqual(101);
    const last = [...entriesAfter(undefined)].at(-101) as {
      synchronizer: { full: string };
      participant: { full: string };
    };
    const lastToken = encodePageToken(last.synchronizer.full, last.participant.full);
    visited = 0;
    const tail = page(lastToken);
    expect(tail.vettedPackages).toHaveLength(100);
    expect(visited).toBeLessThanOrEqual(101);
    expect(first.vettedPackages[0]?.synchronizerId).not.toBe(tail.vettedPackages[0]?.synchronizerId);

    // Entries visited, not milliseconds: the seek is proven by the count on any machine (timings: npm run bench).
  });

  test('the whole listing walks page by page over HTTP, in order', async () => {
    const app = await sandbox({ SANDBOX_SYNCHRONIZERS: '10', SANDBOX_PARTICIPANTS: '10000' });
    let count = 0;
    let previous: VettedPackages | undefined;
    let outOfOrder: string | undefined;
    let pageToken = '';
    let lastToken = '';
    do {
      const page = await list(app, { pageSize: 100, pageToken });
      for (const e of page.vettedPackages) {
        const c = previous
          ? compareUid(previous.synchronizerId, e.synchronizerId) ||
            compareUid(previous.participantId, e.participantId)
          : -1;
        if (c >= 0) outOfOrder ??= `${entryKey(previous as VettedPackages)} before ${entryKey(e)}`;
        previous = e;
      }
      count += page.vettedPackages.length;
      if (page.nextPageToken !== '') lastToken = pageToken;
      pageToken = page.nextPageToken;
    } while (pageToken !== '');
    expect(outOfOrder).toBeUndefined();
    expect(count).toBe(100_000);

    expect(lastToken).not.toBe('');
    await app.close();
  });
});
