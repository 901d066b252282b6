// Listing vetted packages (interface document §2.7, §2.8, §4.2): shape, order, pagination, page sizes, tokens
// and filters. Every check derives its values from what the target itself lists, so it runs on any
// participant; one with too little data skips with the reason. A check that compares two reads does so
// against a listing that stayed the same meanwhile (observeStable), so concurrent vetting is never a failure.
import {
  test,
  expect,
  type LedgerResponse,
  type Target,
  type VettedPackage,
  type VettedPackages,
  type VettingListRequest,
} from '../fixtures';
import {
  adjacentPairs,
  allPackages,
  discriminatingPackageIds,
  discriminatingPrefixes,
  distinct,
  entryDifferences,
  entryKey,
  entrySignature,
  nameOf,
  narrowed,
  observeStable,
  ordersOfPairs,
  packageFilterDifferences,
  pageBound,
  readListing,
  readPages,
  sparsestPackage,
  wholeListingPageSize,
  unusedPackageId,
  unusedUid,
  type ListRequest,
  type PackagePredicate,
  type PageRun,
} from '../fixtures/vetting-helpers';
import { earlyEndOnEmptyPage, trailingEmptyPage } from '../fixtures/pinned-deviations';

/** Canton's answer to a request its ListVettedPackagesOpts.fromProto refuses (canton-behaviour §1.4 f1–f3). */
const PROTO_DESERIALIZATION_FAILURE = {
  status: 400,
  code: 'PROTO_DESERIALIZATION_FAILURE',
  grpcCodeValue: 3,
  errorCategory: 8,
} as const;
const INT32_MAX = 2_147_483_647;
const INT32_MIN = -2_147_483_648;

/**
 * Page sizes smaller than the listing, each walk at most ~20 pages: 1 and 2 on a small participant. Two sizes,
 * so a page boundary falls after different entries.
 */
function smallPageSizes(count: number, max: number | undefined): number[] {
  const a = Math.max(1, Math.ceil(count / 20));
  return distinct([a, a + 1]).filter((s) => max === undefined || s <= max);
}

/**
 * A filtered walk with the server's page size, or — given the target's maximum, for a package filter — with one
 * page spanning the listing when the maximum allows it (then every match is listed however the target pages
 * entries and packages). count + 2 pages is plenty.
 */
const walkFiltered = (
  ledger: Parameters<typeof readPages>[0],
  request: ListRequest,
  count: number,
  max?: number,
) => {
  const pageSize = wholeListingPageSize(count, max);
  return readPages(ledger, pageSize === undefined ? request : { ...request, pageSize }, count + 2, 3);
};

/**
 * One walk per page size, in order, each at most pageBound(count, size) pages, labelled `pageSize N` for the
 * messages; with `unsized`, first a walk without pageSize (the server's page size), at most count + 2 pages.
 */
async function walksBySize(
  ledger: Parameters<typeof readPages>[0],
  request: ListRequest,
  count: number,
  sizes: readonly number[],
  unsized = false,
): Promise<[string, PageRun][]> {
  const walks: [string, PageRun][] = unsized
    ? [['no pageSize', await readPages(ledger, request, count + 2)]]
    : [];
  for (const pageSize of sizes) {
    walks.push([
      `pageSize ${pageSize}`,
      await readPages(ledger, { ...request, pageSize }, pageBound(count, pageSize)),
    ]);
  }
  return walks;
}

/** The maximum page size the target states in /v2/version; a test that needs it skips when it is unknown. */
function statedMax(target: Target): number {
  const max = target.limits.maxVettedPackagesPageSize;
  test.skip(
    max === undefined,
    `the maximum page size is unknown: ${target.probeProblem ?? 'not in /v2/version'}`,
  );
  return max!;
}

const describeRun = (run: PageRun): string =>
  run.pages
    .map((p) => `page ${p.number}: ${p.entries.length} entries, token ${JSON.stringify(p.nextPageToken)}`)
    .join('; ');

/**
 * The package filters, one list at a time: how the test picks values that discriminate (a value alone lists
 * less than all of them), and which packages a list of values must leave.
 */
const PACKAGE_FILTERS: {
  rule: string;
  title: string;
  field: 'packageIds' | 'packageNamePrefixes';
  choose(entries: readonly VettedPackages[]): [string, string] | undefined;
  needs: string;
  matches(values: string[]): PackagePredicate;
}[] = [
  {
    rule: 'VET-FILTER-PACKAGE-IDS',
    title: 'a packageIds filter lists only entries and packages with one of the ids',
    field: 'packageIds',
    choose: discriminatingPackageIds,
    needs: 'needs ≥ 2 distinct vetted package ids',
    matches: (ids) => {
      const wanted = new Set(ids);
      return (p) => wanted.has(p.packageId);
    },
  },
  {
    rule: 'VET-FILTER-NAME-PREFIXES',
    title: 'a packageNamePrefixes filter lists only packages whose name has one of the prefixes',
    field: 'packageNamePrefixes',
    choose: discriminatingPrefixes,
    needs: 'needs ≥ 2 distinct package names known to the target',
    matches: (prefixes) => (p) => prefixes.some((x) => nameOf(p)?.startsWith(x) ?? false),
  },
];

/** A pageSize above the maximum: the document's error (any 4xx), and Canton's code for it. */
const ABOVE_MAX: { rule: string; title: string; expect(res: LedgerResponse, what: string): void }[] = [
  {
    rule: 'VET-PAGE-SIZE-ABOVE-MAX',
    title: 'pageSize above the maximum is an error',
    expect: (res, what) =>
      expect(
        res.status >= 400 && res.status < 500,
        `${what}: expected an error (4xx), got ${res.status} ${res.text.slice(0, 300)}`,
      ).toBe(true),
  },
  {
    rule: 'VET-PAGE-SIZE-ABOVE-MAX-CODE',
    title: 'pageSize above the maximum is rejected with PROTO_DESERIALIZATION_FAILURE',
    expect: (res, what) => expect(res).toBeCantonError({ of: what, ...PROTO_DESERIALIZATION_FAILURE }),
  },
];

test.describe('POST /v2/package-vetting/list', () => {
  test('VET-SHAPE a vetting page matches the response shape', async ({ ledger }) => {
    const res = await ledger.listVettedPackages({});
    expect(res).toHaveStatus(200);
    expect(res.json).toMatchSchema('vetting-list-response');
    // Every page of the listing — the ones carrying a token and the last one — and a page that matches nothing.
    const run = await readPages(ledger, {}, 1000, 3);
    for (const page of run.pages) {
      expect(page.response.json, `page ${page.number} of the listing`).toMatchSchema('vetting-list-response');
    }
    const none = await ledger.listVettedPackages({
      packageMetadataFilter: { packageIds: [unusedPackageId('VET-SHAPE')] },
    });
    expect(none).toHaveStatus(200);
    expect(none.json, 'a page matching nothing').toMatchSchema('vetting-list-response');
  });

  test('VET-PAGE-ORDER entries are sorted by synchronizerId, then participantId', async ({
    ledger,
    target,
  }) => {
    // The server's pages; if they hold one entry each, pages as long as the target allows, so entries sit
    // side by side in one page.
    const max = target.limits.maxVettedPackagesPageSize;
    let size: ListRequest = {};
    let listing = await readPages(ledger, size, 1000, 3);
    if (max !== undefined && max > 1 && listing.pages.every((p) => p.entries.length < 2)) {
      size = { pageSize: max };
      listing = await readPages(ledger, size, 1000, 3);
    }
    const all = listing.entries;
    // Also with topology filters listing every participant and synchronizer in reverse: the order of a
    // request's lists must not leak into the order of the answer.
    const filtered = await readPages(
      ledger,
      {
        ...size,
        topologyStateFilter: {
          participantIds: distinct(all.map((e) => e.participantId)).reverse(),
          synchronizerIds: distinct(all.map((e) => e.synchronizerId)).reverse(),
        },
      },
      1000,
      3,
    );
    const pairs = [...listing.pages, ...filtered.pages].flatMap((p) => adjacentPairs(p.entries));
    test.skip(pairs.length === 0, 'no page of the target holds two entries: their order cannot be observed');
    for (const [name, run] of [
      ['the listing', listing],
      ['the listing filtered by every participant and synchronizer', filtered],
    ] as const) {
      const { holding, broken } = ordersOfPairs(
        run.pages.flatMap((p) => adjacentPairs(p.entries)),
        false,
      );
      expect(
        holding,
        `${name}: entries are not sorted by synchronizerId, then participantId, in any accepted order:\n  ${broken.join('\n  ')}`,
      ).not.toHaveLength(0);
    }
  });

  test('VET-PAGE-AFTER-TOKEN every page sorts strictly after the last entry of the previous page', async ({
    ledger,
    target,
  }) => {
    const count = (await readListing(ledger)).entries.length;
    test.skip(count < 2, 'the target lists fewer than two entries: no page follows another');
    const boundaries: [VettedPackages, VettedPackages][] = [];
    for (const pageSize of smallPageSizes(count, target.limits.maxVettedPackagesPageSize)) {
      const run = await readPages(ledger, { pageSize }, pageBound(count, pageSize) + 2);
      let last: VettedPackages | undefined;
      for (const page of run.pages) {
        const first = page.entries[0];
        if (last !== undefined && first !== undefined) boundaries.push([last, first]);
        last = page.entries[page.entries.length - 1] ?? last;
      }
    }
    test.skip(boundaries.length === 0, 'no walk had two pages holding entries');
    const { holding, broken } = ordersOfPairs(boundaries, true);
    expect(
      holding,
      `a page does not start strictly after the previous page's last entry, in any accepted order:\n  ${broken.join('\n  ')}`,
    ).not.toHaveLength(0);
  });

  test('VET-PAGE-WALK-COMPLETE a walk with small pages equals the full listing, with no gap and no repeat', async ({
    ledger,
    target,
  }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { listing, observed } = await observeStable(ledger, (l) =>
      walksBySize(ledger, {}, l.entries.length, smallPageSizes(l.entries.length, max)),
    );
    test.skip(listing.entries.length < 2, 'the target lists fewer than two entries: a walk has one page');
    for (const [what, run] of observed) {
      expect(
        entryDifferences(listing.entries, run.entries),
        `the walk with ${what} against the listing (${describeRun(run)})`,
      ).toEqual([]);
    }
  });

  test('VET-PAGE-WALK-ENDS a walk ends with an empty token, and no empty token comes while results remain', async ({
    ledger,
    target,
  }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { listing, observed } = await observeStable(ledger, (l) =>
      walksBySize(ledger, {}, l.entries.length, smallPageSizes(l.entries.length, max), true),
    );
    for (const [what, run] of observed) {
      expect(run.stoppedBecause, `the walk with ${what} (${describeRun(run)})`).toBeUndefined();
      expect(run.ended, `the walk with ${what} ends with nextPageToken ""`).toBe(true);
      const last = run.entries.reduce((m, e) => Math.max(m, listing.position.get(entryKey(e)) ?? -1), -1);
      const remaining = listing.entries.slice(last + 1).map(entryKey);
      expect(
        remaining,
        `the walk with ${what} got nextPageToken "" while these entries remained (${describeRun(run)})`,
      ).toEqual([]);
    }
  });

  test('VET-PAGE-FILTERED-WALK a package-filtered walk lists every matching entry, and no empty token comes while matches remain', async ({
    ledger,
    target,
    deviation,
  }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { listing, observed } = await observeStable(ledger, async (l) => {
      // The package whose holders leave the longest run of entries without it: pages no longer than that run
      // meet a stretch of the listing with no match before the walk is over.
      const sparse = sparsestPackage(l.entries);
      if (sparse === undefined) return undefined;
      const sizes = distinct([1, sparse.gap]).filter((s) => max === undefined || s <= max);
      const filter = { packageMetadataFilter: { packageIds: [sparse.packageId] } };
      return {
        packageId: sparse.packageId,
        walks: await walksBySize(ledger, filter, l.entries.length, sizes),
      };
    });
    test.skip(
      observed === undefined,
      'every vetted package is held by a run of entries from the first: no filter leaves a gap',
    );
    const { packageId, walks } = observed!;
    const expected = narrowed(listing.entries, (p) => p.packageId === packageId);
    const named = walks.map(
      ([size, run]) => [`the walk filtered by packageIds [${packageId}] with ${size}`, run] as const,
    );
    await deviation.judge(
      () => {
        for (const [what, run] of named) {
          expect(run.stoppedBecause, `${what} (${describeRun(run)})`).toBeUndefined();
          const missing = entryDifferences(expected, run.entries, { repeats: 'ignore' });
          expect(
            missing,
            `${what} against the listing: matching entries left out (an empty nextPageToken came while they remained) or listed wrongly (${describeRun(run)})`,
          ).toEqual([]);
        }
      },
      { 'early-end-on-empty-page': () => earlyEndOnEmptyPage(listing, expected, named) },
    );
  });

  test('VET-PAGE-FINAL-TOKEN-EMPTY the page holding the last entry carries an empty nextPageToken', async ({
    ledger,
    target,
    deviation,
  }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { listing, observed } = await observeStable(ledger, async (l) => {
      const count = l.entries.length;
      // The server's page size, a final page that is exactly full, pages of two, a final page of one entry.
      const sizes = distinct([count, 2, count - 1]).filter((s) => s >= 1 && (max === undefined || s <= max));
      return walksBySize(ledger, {}, count, sizes, true);
    });
    const lastEntry = listing.entries[listing.entries.length - 1];
    test.skip(lastEntry === undefined, 'the target lists nothing: no page holds a last entry');
    await deviation.judge(
      () => {
        for (const [what, run] of observed) {
          const holding =
            run.pages.find((p) => p.entries.some((e) => entryKey(e) === entryKey(lastEntry!))) ??
            run.pages.filter((p) => p.entries.length > 0).pop();
          expect(holding, `the walk with ${what} returned no entry`).toBeDefined();
          expect(
            holding!.nextPageToken ?? '',
            `the walk with ${what}: page ${holding!.number} holds the last entry ${entryKey(lastEntry!)}, so no further results exist`,
          ).toBe('');
        }
      },
      { 'trailing-empty-page': () => trailingEmptyPage(observed) },
    );
  });

  test('VET-PAGE-SIZE-DEFAULT pageSize 0 lets the server decide the page length', async ({
    ledger,
    target,
  }) => {
    // The reference: a walk with an explicit page size (the maximum, when the target says it).
    const reference = target.limits.maxVettedPackagesPageSize ?? 2;
    const { observed } = await observeStable(ledger, async (l) => {
      const count = l.entries.length;
      return {
        zero: await readPages(ledger, { pageSize: 0 }, count + 2, 3),
        absent: await readPages(ledger, {}, count + 2, 3),
        explicit: await readPages(ledger, { pageSize: reference }, pageBound(count, reference), 3),
      };
    });
    expect(
      entryDifferences(observed.explicit.entries, observed.zero.entries, { repeats: 'ignore' }),
      `the walk with pageSize 0 against the walk with pageSize ${reference} (${describeRun(observed.zero)})`,
    ).toEqual([]);
    expect(
      entryDifferences(observed.explicit.entries, observed.absent.entries, { repeats: 'ignore' }),
      `the walk without pageSize against the walk with pageSize ${reference} (${describeRun(observed.absent)})`,
    ).toEqual([]);
  });

  test('VET-PAGE-SIZE-DEFAULT-MAX pageSize 0 or absent gives the page that pageSize equal to the maximum gives', async ({
    ledger,
    target,
  }) => {
    const max = statedMax(target);
    const { observed } = await observeStable(ledger, async () => ({
      zero: await ledger.listVettedPackages({ pageSize: 0 }),
      absent: await ledger.listVettedPackages({}),
      max: await ledger.listVettedPackages({ pageSize: max }),
    }));
    for (const res of Object.values(observed)) expect(res).toHaveStatus(200);
    // The same entries, and a token exactly when the other carries one (how a token is written is the server's).
    const page = (r: typeof observed.max) => ({
      entries: (r.body.vettedPackages ?? []).map(entrySignature),
      nextPageToken: (r.body.nextPageToken ?? '') === '' ? '""' : 'a token',
    });
    expect(page(observed.zero), `pageSize 0 against pageSize ${max}`).toEqual(page(observed.max));
    expect(page(observed.absent), `no pageSize against pageSize ${max}`).toEqual(page(observed.max));
  });

  test('VET-PAGE-SIZE-MAX pageSize equal to the maximum is accepted and no page is longer than requested', async ({
    ledger,
    target,
  }) => {
    const max = statedMax(target);
    const res = await ledger.listVettedPackages({ pageSize: max });
    expect(res, `pageSize ${max}, the maximum /v2/version states`).toHaveStatus(200);
    expect((res.body.vettedPackages ?? []).length, `the page with pageSize ${max}`).toBeLessThanOrEqual(max);
    const count = (await readListing(ledger)).entries.length;
    for (const pageSize of distinct([1, ...smallPageSizes(count, max)])) {
      const run = await readPages(ledger, { pageSize }, pageBound(count, pageSize) + 2);
      for (const page of run.pages) {
        expect(
          page.entries.length,
          `page ${page.number} of the walk with pageSize ${pageSize} holds ${page.entries.length} entries`,
        ).toBeLessThanOrEqual(pageSize);
      }
    }
  });

  for (const c of ABOVE_MAX) {
    test(`${c.rule} ${c.title}`, async ({ ledger, target }) => {
      const max = statedMax(target);
      for (const pageSize of distinct([max + 1, INT32_MAX]).filter((s) => s <= INT32_MAX)) {
        const res = await ledger.listVettedPackages({ pageSize });
        c.expect(res, `pageSize ${pageSize} above the maximum ${max}`);
      }
    });
  }

  test('VET-PAGE-SIZE-NEGATIVE a negative pageSize is rejected with PROTO_DESERIALIZATION_FAILURE', async ({
    ledger,
  }) => {
    for (const pageSize of [-1, INT32_MIN]) {
      const res = await ledger.listVettedPackages({ pageSize });
      expect(res).toBeCantonError({ of: `pageSize ${pageSize}`, ...PROTO_DESERIALIZATION_FAILURE });
    }
  });

  test('VET-PAGE-TOKEN-INVALID a page token the server did not issue is rejected with PROTO_DESERIALIZATION_FAILURE', async ({
    ledger,
  }) => {
    // Canton's own test token (VettingIT), and one that is not even base64.
    for (const pageToken of ['INVALID_PAGE_TOKEN', 'not a page token!']) {
      const res = await ledger.listVettedPackages({ pageToken });
      expect(res).toBeCantonError({
        of: `the page token ${JSON.stringify(pageToken)}`,
        ...PROTO_DESERIALIZATION_FAILURE,
      });
    }
  });

  test('VET-PAGE-TOKEN-REPEAT the same token twice gives the same page', async ({ ledger, target }) => {
    const size = Math.min(2, target.limits.maxVettedPackagesPageSize ?? 2);
    const { observed } = await observeStable(ledger, async () => {
      const first = await ledger.listVettedPackages({ pageSize: 1 }, { label: 'first page' });
      expect(first).toHaveStatus(200);
      const token = first.body.nextPageToken ?? '';
      if (token === '') return undefined;
      const once = await ledger.listVettedPackages({ pageSize: size, pageToken: token }, { label: 'once' });
      const twice = await ledger.listVettedPackages({ pageSize: size, pageToken: token }, { label: 'twice' });
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
    });
    test.skip(
      observed === undefined,
      'a page of one entry carries no token: the target lists fewer than two entries',
    );
    const { once, twice, afterOnce, afterTwice } = observed!;
    const entries = (b: typeof once | undefined) => (b?.vettedPackages ?? []).map(entrySignature);
    expect(entries(twice), 'the page the token gave the second time').toEqual(entries(once));
    const hasToken = (t: string | undefined) => (t ?? '') !== '';
    expect(
      hasToken(twice.nextPageToken),
      'the second answer carries a token exactly when the first does',
    ).toBe(hasToken(once.nextPageToken));
    expect(entries(afterTwice), 'the page after the second answer').toEqual(entries(afterOnce));
  });

  test('VET-PAGE-TOKEN-REPEAT-MORE the same token after packages were added returns the added packages', async ({
    ledger,
    target,
    ids,
  }) => {
    // Only the sandbox can vet packages on request (its control route, SANDBOX_CONTROL=true). Everything
    // is vetted on a synchronizer of this test's own, so no other check sees a change it did not make.
    const seed = `${ids.next('vet')}:${Date.now()}`;
    const synchronizerId = unusedUid('conformance-vet-more', seed);
    const [pa, pb, pc] = ['vet-more-a', 'vet-more-b', 'vet-more-c'].map((name) => unusedUid(name, seed)) as [
      string,
      string,
      string,
    ];
    const pkg = (v: string) => ({
      packageId: unusedPackageId(`${seed}:${v}`),
      packageName: 'conformance-vet-more',
      packageVersion: v,
    });
    const [a, b] = [pkg('1.0.0'), pkg('2.0.0')];
    const vet = (participantId: string, packages: (typeof a)[]) =>
      ledger.send({
        method: 'POST',
        path: '/sandbox/control/vet',
        body: { synchronizerId, participantId, packages },
        label: 'control: vet',
      });

    const probe = await vet(pa, [a]);
    test.skip(
      probe.status === 404,
      'the target offers no control route to vet packages (the sandbox with SANDBOX_CONTROL=true does)',
    );
    expect(probe, 'the control route vets a package').toHaveStatus(200);
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
    const pairs = (entries: VettedPackages[] | undefined) =>
      new Set(
        (entries ?? [])
          .filter((e) => e.synchronizerId === synchronizerId)
          .flatMap((e) => (e.packages ?? []).map((p) => `${entryKey(e)} ${p.packageId}`)),
      );
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

  for (const c of PACKAGE_FILTERS) {
    test(`${c.rule} ${c.title}`, async ({ ledger, target }) => {
      const max = target.limits.maxVettedPackagesPageSize;
      const { listing, observed } = await observeStable(ledger, async (l) => {
        const chosen = c.choose(l.entries);
        if (chosen === undefined) return undefined;
        // One value alone, then every chosen value (any of them matches).
        const runs: [string[], PageRun][] = [];
        for (const values of [[chosen[0]], chosen]) {
          runs.push([
            values,
            await walkFiltered(
              ledger,
              { packageMetadataFilter: { [c.field]: values } },
              l.entries.length,
              max,
            ),
          ]);
        }
        return runs;
      });
      test.skip(observed === undefined, c.needs);
      const whole = wholeListingPageSize(listing.entries.length, max) !== undefined;
      for (const [values, run] of observed!) {
        const expected = narrowed(listing.entries, c.matches(values));
        expect(
          packageFilterDifferences(listing, expected, run.entries, whole),
          `${c.field} ${JSON.stringify(values)} against the listing`,
        ).toEqual([]);
      }
    });
  }

  test('VET-FILTER-PACKAGE-OR packageIds and packageNamePrefixes together match either', async ({
    ledger,
    target,
  }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { listing, observed } = await observeStable(ledger, async (l) => {
      // A whole name as the prefix (the longest, so no other name starts with it) and the id of a package
      // with another name: each list matches packages the other does not.
      const names = distinct(allPackages(l.entries).flatMap((p) => nameOf(p) ?? []));
      const prefix = [...names].sort((x, y) => y.length - x.length || (x < y ? -1 : 1))[0];
      const other = allPackages(l.entries).find(
        (p) => nameOf(p) !== undefined && !nameOf(p)!.startsWith(prefix!),
      );
      if (prefix === undefined || other === undefined) return undefined;
      const filter = { packageIds: [other.packageId], packageNamePrefixes: [prefix] };
      return {
        filter,
        run: await walkFiltered(ledger, { packageMetadataFilter: filter }, l.entries.length, max),
      };
    });
    test.skip(observed === undefined, 'needs ≥ 2 distinct package names known to the target');
    const whole = wholeListingPageSize(listing.entries.length, max) !== undefined;
    const { filter, run } = observed!;
    const match: PackagePredicate = (p) =>
      p.packageId === filter.packageIds[0] ||
      (nameOf(p)?.startsWith(filter.packageNamePrefixes[0]!) ?? false);
    expect(
      packageFilterDifferences(listing, narrowed(listing.entries, match), run.entries, whole),
      `packageMetadataFilter ${JSON.stringify(filter)} against the listing`,
    ).toEqual([]);
  });

  for (const [rule, title, field, key] of [
    [
      'VET-FILTER-PARTICIPANTS',
      'a participantIds filter lists only those participants',
      'participantIds',
      'participantId',
    ],
    [
      'VET-FILTER-SYNCHRONIZERS',
      'a synchronizerIds filter lists only those synchronizers',
      'synchronizerIds',
      'synchronizerId',
    ],
  ] as const) {
    test(`${rule} ${title}`, async ({ ledger }) => {
      const { listing, observed } = await observeStable(ledger, async (l) => {
        const values = distinct(l.entries.map((e) => e[key]));
        if (values.length < 2) return undefined;
        // The id with the fewest entries alone, then two ids (any of them matches).
        const byCount = [...values].sort(
          (x, y) =>
            l.entries.filter((e) => e[key] === x).length - l.entries.filter((e) => e[key] === y).length,
        );
        const runs: [string[], PageRun][] = [];
        for (const list of [[byCount[0]!], [byCount[0]!, byCount[1]!]]) {
          runs.push([
            list,
            await walkFiltered(ledger, { topologyStateFilter: { [field]: list } }, l.entries.length),
          ]);
        }
        return runs;
      });
      test.skip(observed === undefined, `needs entries of ≥ 2 distinct ${key}s`);
      for (const [list, run] of observed!) {
        const expected = listing.entries.filter((e) => list.includes(e[key]));
        expect(
          entryDifferences(expected, run.entries, { repeats: 'ignore' }),
          `${field} ${JSON.stringify(list)} against the listing`,
        ).toEqual([]);
      }
    });
  }

  test('VET-FILTER-TOPOLOGY-AND participantIds and synchronizerIds together must both match', async ({
    ledger,
  }) => {
    const { listing, observed } = await observeStable(ledger, async (l) => {
      // An entry whose synchronizer has entries of other participants and whose participant has entries on
      // other synchronizers (either list alone, or either-of, would list more); failing that, one of the two.
      const others = (e: VettedPackages) => ({
        sameSynchronizer: l.entries.some(
          (x) => x.synchronizerId === e.synchronizerId && x.participantId !== e.participantId,
        ),
        sameParticipant: l.entries.some(
          (x) => x.participantId === e.participantId && x.synchronizerId !== e.synchronizerId,
        ),
      });
      const pick =
        l.entries.find((e) => others(e).sameSynchronizer && others(e).sameParticipant) ??
        l.entries.find((e) => others(e).sameSynchronizer || others(e).sameParticipant);
      if (pick === undefined) return undefined;
      const filter = { participantIds: [pick.participantId], synchronizerIds: [pick.synchronizerId] };
      return { filter, run: await walkFiltered(ledger, { topologyStateFilter: filter }, l.entries.length) };
    });
    test.skip(observed === undefined, 'needs two entries sharing a synchronizer or a participant');
    const { filter, run } = observed!;
    const expected = listing.entries.filter(
      (e) => e.participantId === filter.participantIds[0] && e.synchronizerId === filter.synchronizerIds[0],
    );
    expect(
      entryDifferences(expected, run.entries, { repeats: 'ignore' }),
      `topologyStateFilter ${JSON.stringify(filter)}`,
    ).toEqual([]);
  });

  test('VET-FILTER-EMPTY-LISTS empty filter lists restrict nothing', async ({ ledger }) => {
    const { listing, observed } = await observeStable(ledger, async (l) => {
      const count = l.entries.length;
      const some = l.entries[0]?.synchronizerId;
      const requests: [string, VettingListRequest, (e: VettedPackages) => boolean][] = [
        [
          'every list empty',
          {
            packageMetadataFilter: { packageIds: [], packageNamePrefixes: [] },
            topologyStateFilter: { participantIds: [], synchronizerIds: [] },
          },
          () => true,
        ],
        ['packageIds []', { packageMetadataFilter: { packageIds: [] } }, () => true],
        ['packageNamePrefixes []', { packageMetadataFilter: { packageNamePrefixes: [] } }, () => true],
        ['participantIds []', { topologyStateFilter: { participantIds: [] } }, () => true],
        ['synchronizerIds []', { topologyStateFilter: { synchronizerIds: [] } }, () => true],
      ];
      if (some !== undefined) {
        requests.push([
          'participantIds [] with a synchronizerIds list',
          { topologyStateFilter: { participantIds: [], synchronizerIds: [some] } },
          (e) => e.synchronizerId === some,
        ]);
      }
      const runs: [string, (e: VettedPackages) => boolean, PageRun][] = [];
      for (const [what, request, keep] of requests)
        runs.push([what, keep, await walkFiltered(ledger, request, count)]);
      return runs;
    });
    test.skip(listing.entries.length === 0, 'the target lists nothing: nothing to restrict');
    for (const [what, keep, run] of observed) {
      expect(
        entryDifferences(listing.entries.filter(keep), run.entries, { repeats: 'ignore' }),
        `${what} against the listing`,
      ).toEqual([]);
    }
  });

  test('VET-FILTER-NO-MATCH a filter matching nothing gives an empty list and an empty token', async ({
    ledger,
    ids,
  }) => {
    const seed = ids.next('none');
    const cases: [string, VettingListRequest][] = [
      ['a package id nobody vets', { packageMetadataFilter: { packageIds: [unusedPackageId(seed)] } }],
      [
        'a participant that does not exist',
        { topologyStateFilter: { participantIds: [unusedUid('no-such-participant', seed)] } },
      ],
    ];
    for (const [what, request] of cases) {
      const res = await ledger.listVettedPackages(request);
      expect(res, what).toHaveStatus(200);
      expect(res.body.vettedPackages ?? [], `${what}: vettedPackages`).toEqual([]);
      expect(res.body.nextPageToken ?? '', `${what}: nextPageToken`).toBe('');
    }
  });

  test('VET-FILTER-ENTRY-HAS-MATCH every returned entry holds at least one package matching the filter', async ({
    ledger,
  }) => {
    const listing = await readListing(ledger);
    const count = listing.entries.length;
    test.skip(count === 0, 'the target lists nothing: no entry to judge');
    // One value per list: whatever the semantics of several values, a match of one value is unambiguous.
    const some = listing.entries[0]!;
    const pkg = discriminatingPackageIds(listing.entries)?.[0] ?? some.packages?.[0]?.packageId;
    const prefix = discriminatingPrefixes(listing.entries)?.[0];
    const holder = listing.entries.find((e) => (e.packages ?? []).some((p) => p.packageId === pkg)) ?? some;
    type Check = (e: VettedPackages) => boolean;
    const hasPackage =
      (m: (p: VettedPackage) => boolean): Check =>
      (e) =>
        (e.packages ?? []).some(m);
    const cases: [string, VettingListRequest, Check][] = [
      ['no filter', {}, hasPackage(() => true)],
      [
        'participantIds [one]',
        { topologyStateFilter: { participantIds: [some.participantId] } },
        (e) => e.participantId === some.participantId && hasPackage(() => true)(e),
      ],
      [
        'synchronizerIds [one]',
        { topologyStateFilter: { synchronizerIds: [some.synchronizerId] } },
        (e) => e.synchronizerId === some.synchronizerId && hasPackage(() => true)(e),
      ],
    ];
    if (pkg !== undefined) {
      cases.push(
        [
          'packageIds [one]',
          { packageMetadataFilter: { packageIds: [pkg] } },
          hasPackage((p) => p.packageId === pkg),
        ],
        [
          'packageIds [one] with participantIds [one]',
          {
            packageMetadataFilter: { packageIds: [pkg] },
            topologyStateFilter: { participantIds: [holder.participantId] },
          },
          (e) => e.participantId === holder.participantId && hasPackage((p) => p.packageId === pkg)(e),
        ],
      );
    }
    if (prefix !== undefined) {
      cases.push([
        'packageNamePrefixes [one]',
        { packageMetadataFilter: { packageNamePrefixes: [prefix] } },
        hasPackage((p) => nameOf(p)?.startsWith(prefix) ?? false),
      ]);
    }
    for (const [what, request, matches] of cases) {
      const run = await walkFiltered(ledger, request, count);
      expect(
        run.entries
          .filter((e) => !matches(e))
          .map((e) => `${entryKey(e)} [${(e.packages ?? []).map((p) => p.packageId).join(', ')}]`),
        `${what} (${JSON.stringify(request)}): entries without a matching package`,
      ).toEqual([]);
    }
  });
});
