// Listing vetted packages: page sizes (the default, the maximum, above it, negative) and page tokens
// (invalid, repeated) (interface document §2.7, §2.8, §8).
import {
  forRule,
  test,
  expect,
  type LedgerClient,
  type Tokens,
  CONTROL_VET_PATH,
  type VettedPackages,
  around,
  bracket,
  distinct,
  entryKey,
  entrySignature,
  readPages,
  unusedPackageId,
  unusedUid,
  walkDifferences,
  LISTING_PAGES,
  type Around,
  type PageRun,
} from '../fixtures';
import {
  PROTO_DESERIALIZATION_FAILURE,
  INT32_MAX,
  INT32_MIN,
  smallPageSizes,
  statedMax,
  describeRun,
  ABOVE_MAX,
  WINDOW_PAGES,
} from './vetting.cases';

/**
 * A synchronizer of the test's own (ids derived from `seed`, unused anywhere), three participants and two
 * versions of one package on it, and `vet`: the sandbox's control route vetting packages there.
 */
function ownSynchronizer(ledger: LedgerClient, tokens: Tokens, seed: string) {
  const synchronizerId = unusedUid('conformance-vet-more', seed);
  const participants = ['vet-more-a', 'vet-more-b', 'vet-more-c'].map((name) => unusedUid(name, seed)) as [
    string,
    string,
    string,
  ];
  const pkg = (v: string) => ({
    packageId: unusedPackageId(`${seed}:${v}`),
    packageName: 'conformance-vet-more',
    packageVersion: v,
  });
  const packages = [pkg('1.0.0'), pkg('2.0.0')] as const;
  // As a user with the participant-admin right (LEDGER_ADMIN_USER): what the route asks of its caller.
  const vet = async (participantId: string, vetted: readonly ReturnType<typeof pkg>[]) =>
    ledger.send({
      method: 'POST',
      path: CONTROL_VET_PATH,
      body: { synchronizerId, participantId, packages: vetted },
      label: 'control: vet',
      ...(await tokens.control()),
    });
  return { synchronizerId, participants, packages, vet };
}

/** The (entry, package id) pairs of the entries on `synchronizerId`. */
const entryPackagePairs = (entries: VettedPackages[] | undefined, synchronizerId: string): Set<string> =>
  new Set(
    (entries ?? [])
      .filter((e) => e.synchronizerId === synchronizerId)
      .flatMap((e) => (e.packages ?? []).map((p) => `${entryKey(e)} ${p.packageId}`)),
  );

test.describe('POST /v2/package-vetting/list', () => {
  test(...forRule('VET-PAGE-SIZE-DEFAULT'), async ({ ledger, target }) => {
    // The reference: the listing read with an explicit page size (the maximum, when the target says it) before
    // and after the walks without one; each walk is judged against what stayed the same around it.
    const reference = target.limits.maxVettedPackagesPageSize ?? 2;
    const window = { stopAfterEmptyPages: 3, window: true };
    const { observed, ...reads } = await bracket(ledger, reference, async () => ({
      zero: await readPages(ledger, { pageSize: 0 }, LISTING_PAGES, window),
      absent: await readPages(ledger, {}, LISTING_PAGES, window),
    }));
    const a = around(reads);
    for (const [what, run] of [
      ['pageSize 0', observed.zero],
      ['no pageSize', observed.absent],
    ] as const) {
      expect(
        walkDifferences(a, { run, repeats: 'ignore' }),
        `the walk with ${what} against the listing read with pageSize ${reference} around it (${describeRun(run)})`,
      ).toEqual([]);
    }
  });

  test(...forRule('VET-PAGE-SIZE-DEFAULT-MAX'), async ({ ledger, target }) => {
    const max = statedMax(target);
    const { observed, ...reads } = await bracket(
      ledger,
      max,
      async () => ({
        zero: await ledger.listVettedPackages({ pageSize: 0 }),
        absent: await ledger.listVettedPackages({}),
        max: await ledger.listVettedPackages({ pageSize: max }),
      }),
      1,
    );
    for (const res of Object.values(observed)) expect(res).toHaveStatus(200);
    // The same entries, and a token exactly when the other carries one (how a token is written is the server's).
    const page = (r: typeof observed.max) => ({
      entries: (r.body.vettedPackages ?? []).map(entrySignature),
      nextPageToken: (r.body.nextPageToken ?? '') === '' ? '""' : 'a token',
    });
    const a = around(reads);
    for (const [what, res] of [
      ['pageSize 0', observed.zero],
      ['no pageSize', observed.absent],
    ] as const) {
      if (a.changed === 0) {
        expect(page(res), `${what} against pageSize ${max}`).toEqual(page(observed.max));
        continue;
      }
      // The listing changed within the first page meanwhile: the pages may differ by as many entries as changed.
      sameWindow(a, what, res.body.vettedPackages ?? [], observed.max.body.vettedPackages ?? [], max);
    }
  });

  test(...forRule('VET-PAGE-SIZE-MAX'), async ({ ledger, target }) => {
    const max = statedMax(target);
    const res = await ledger.listVettedPackages({ pageSize: max });
    expect(res, `pageSize ${max}, the maximum /v2/version states`).toHaveStatus(200);
    expect((res.body.vettedPackages ?? []).length, `the page with pageSize ${max}`).toBeLessThanOrEqual(max);
    for (const pageSize of distinct([1, ...smallPageSizes(max)])) {
      const run = await readPages(ledger, { pageSize }, WINDOW_PAGES, { window: true });
      for (const page of run.pages) {
        expect(
          page.entries.length,
          `page ${page.number} of the walk with pageSize ${pageSize} holds ${page.entries.length} entries`,
        ).toBeLessThanOrEqual(pageSize);
      }
    }
  });

  for (const c of ABOVE_MAX) {
    test(...forRule(c.rule), async ({ ledger, target }) => {
      const max = statedMax(target);
      for (const pageSize of distinct([max + 1, INT32_MAX]).filter((s) => s <= INT32_MAX)) {
        const res = await ledger.listVettedPackages({ pageSize });
        c.expect(res, `pageSize ${pageSize} above the maximum ${max}`);
      }
    });
  }

  test(...forRule('VET-PAGE-SIZE-NEGATIVE'), async ({ ledger }) => {
    for (const pageSize of [-1, INT32_MIN]) {
      const res = await ledger.listVettedPackages({ pageSize });
      expect(res).toBeCantonError({ of: `pageSize ${pageSize}`, ...PROTO_DESERIALIZATION_FAILURE });
    }
  });

  test(...forRule('VET-PAGE-TOKEN-INVALID'), async ({ ledger }) => {
    // Canton's own test token (VettingIT), and one that is not even base64.
    for (const pageToken of ['INVALID_PAGE_TOKEN', 'not a page token!']) {
      const res = await ledger.listVettedPackages({ pageToken });
      expect(res).toBeCantonError({
        of: `the page token ${JSON.stringify(pageToken)}`,
        ...PROTO_DESERIALIZATION_FAILURE,
      });
    }
  });

  test(...forRule('VET-PAGE-TOKEN-REPEAT'), async ({ ledger, target }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const size = Math.min(2, max ?? 2);
    const { observed, ...reads } = await bracket(
      ledger,
      max,
      async () => {
        const first = await ledger.listVettedPackages({ pageSize: 1 }, { label: 'first page' });
        expect(first).toHaveStatus(200);
        const token = first.body.nextPageToken ?? '';
        if (token === '') return undefined;
        const once = await ledger.listVettedPackages({ pageSize: size, pageToken: token }, { label: 'once' });
        const twice = await ledger.listVettedPackages(
          { pageSize: size, pageToken: token },
          { label: 'twice' },
        );
        expect(once).toHaveStatus(200);
        expect(twice).toHaveStatus(200);
        // Where the two tokens lead: the same place, whether or not the server writes the token the same way.
        const follow = async (t: string | undefined, label: string) =>
          t ? (await ledger.listVettedPackages({ pageSize: size, pageToken: t }, { label })).body : undefined;
        return {
          once: once.body,
          twice: twice.body,
          afterOnce: await follow(once.body.nextPageToken, 'after once'),
          afterTwice: await follow(twice.body.nextPageToken, 'after twice'),
        };
      },
      1,
    );
    test.skip(
      observed === undefined,
      'a page of one entry carries no token: the target lists fewer than two entries',
    );
    const { once, twice, afterOnce, afterTwice } = observed!;
    // What stayed the same around the requests must come the same both times, up to where both pages reach (an
    // entry joining after the token pushes the last one out of a page, one leaving pulls one in); quiet, all.
    const a = around(reads);
    const reach = (zs: VettedPackages[] | undefined) => zs?.[zs.length - 1];
    // Two pages asked after the same place, or after the last entries of the two answers (they may differ).
    const both = (x: typeof once | undefined, y: typeof once | undefined, from: VettedPackages[] = []) => {
      const [xs, ys] = [x?.vettedPackages ?? [], y?.vettedPackages ?? []];
      if (a.changed === 0) return [xs.map(entrySignature), ys.map(entrySignature)];
      const after = (e: VettedPackages) => from.every((f) => a.before(f, e));
      const upTo = (zs: VettedPackages[], end: VettedPackages | undefined) =>
        zs
          .filter((e) => a.stable.has(entryKey(e)) && after(e) && (end === undefined || !a.before(end, e)))
          .map(entrySignature);
      return [upTo(xs, reach(ys)), upTo(ys, reach(xs))];
    };
    const [first, second] = both(once, twice);
    expect(second, 'the page the token gave the second time').toEqual(first);
    const hasToken = (t: string | undefined) => (t ?? '') !== '';
    if (a.changed === 0)
      expect(
        hasToken(twice.nextPageToken),
        'the second answer carries a token exactly when the first does',
      ).toBe(hasToken(once.nextPageToken));
    const starts = [reach(once.vettedPackages), reach(twice.vettedPackages)].filter(
      (e): e is VettedPackages => e !== undefined,
    );
    const [next, nextAgain] = both(afterOnce, afterTwice, starts);
    expect(nextAgain, 'the page after the second answer').toEqual(next);
  });

  test(...forRule('VET-PAGE-TOKEN-REPEAT-MORE'), async ({ ledger, target, ids, tokens }) => {
    // Only the sandbox can vet packages on request (its control route, SANDBOX_CONTROL=true: the rule's need,
    // so a target without it skipped already). Everything is vetted on a synchronizer of this test's own, so
    // no other check sees a change it did not make.
    const { synchronizerId, participants, packages, vet } = ownSynchronizer(
      ledger,
      tokens,
      `${ids.next('vet')}:${Date.now()}`,
    );
    const [pa, pb, pc] = participants;
    const [a, b] = packages;
    expect(await vet(pa, [a]), 'the control route vets a package').toHaveStatus(200);
    expect(await vet(pc, [a]), 'the control route vets a package').toHaveStatus(200);

    const only = { topologyStateFilter: { synchronizerIds: [synchronizerId] } };
    const first = await ledger.listVettedPackages({ ...only, pageSize: 1 }, { label: 'first page' });
    expect(first).toHaveStatus(200);
    const token = first.body.nextPageToken ?? '';
    test.skip(token === '', 'the first of two pages carried no token (VET-PAGE-WALK-ENDS judges that)');
    test.skip(
      (first.body.vettedPackages ?? []).length > 1,
      'a page of pageSize 1 held more entries (VET-PAGE-SIZE-MAX judges that): no token between them',
    );
    // Room for every entry of the test's synchronizer after the token (the server's default might be less).
    const pageSize = 3;
    test.skip((target.limits.maxVettedPackagesPageSize ?? 3) < pageSize, 'the maximum page size is below 3');
    const before = await ledger.listVettedPackages(
      { ...only, pageSize, pageToken: token },
      { label: 'before' },
    );
    expect(before).toHaveStatus(200);

    // Meanwhile: a package added to an entry after the token, and a new entry after the token.
    expect(await vet(pc, [b]), 'the control route vets a package').toHaveStatus(200);
    expect(await vet(pb, [a]), 'the control route vets a package').toHaveStatus(200);

    const after = await ledger.listVettedPackages(
      { ...only, pageSize, pageToken: token },
      { label: 'after' },
    );
    expect(after).toHaveStatus(200);
    // (entry, package) pairs of the test's synchronizer: what the first answer held and what was added since.
    const pairs = (entries: VettedPackages[] | undefined) => entryPackagePairs(entries, synchronizerId);
    const [was, is] = [pairs(before.body.vettedPackages), pairs(after.body.vettedPackages)];
    const wanted = [
      ...was,
      `(${synchronizerId}, ${pc}) ${b.packageId}`,
      `(${synchronizerId}, ${pb}) ${a.packageId}`,
    ];
    expect(
      wanted.filter((w) => !is.has(w)),
      'the second request with the same token lacks these vetted packages (entry, package id)',
    ).toEqual([]);
  });
});

/**
 * Two first pages read around the same time while the listing changed within them: each holds every entry that
 * stayed the same up to its last entry (the token's promise), and their lengths differ by no more than the
 * entries that changed (a join or a leave moves the page's end by one).
 */
function sameWindow(
  a: Around,
  what: string,
  got: readonly VettedPackages[],
  reference: readonly VettedPackages[],
  max: number,
): void {
  const asRun = (entries: readonly VettedPackages[]): PageRun => ({
    pages: [],
    entries: [...entries],
    ended: false,
    cut: true,
    stoppedBecause: undefined,
  });
  expect(walkDifferences(a, { run: asRun(got) }), `${what} against the listing read around it`).toEqual([]);
  expect(
    Math.abs(got.length - reference.length),
    `${what} holds ${got.length} entries, pageSize ${max} ${reference.length}, while ${a.changed} entries changed`,
  ).toBeLessThanOrEqual(a.changed);
}
