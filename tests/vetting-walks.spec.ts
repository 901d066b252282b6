// Listing vetted packages: the response shape, the order of entries, and walking the pages to their end
// (interface document §2.7, §2.8, §4.2). Each check derives its values from what the target itself lists, and
// judges a walk by the listing read around it (a participant's vetting may change meanwhile: §4.2 item 4).
import {
  forRule,
  test,
  expect,
  VettedPackages,
  adjacentPairs,
  around,
  bracket,
  distinct,
  entryKey,
  narrowedExpectation,
  ordersOfPairs,
  readListing,
  readPages,
  sparsestPackage,
  unusedPackageId,
  walkDifferences,
  LISTING_PAGES,
  WHOLE_PAGES,
  PageRun,
  earlyEndOnEmptyPage,
  trailingEmptyPage,
} from '../fixtures';
import {
  smallPageSizes,
  windowWalks,
  wholeWalk,
  describeRun,
  WINDOW_PAGES,
  type WindowWalk,
} from './vetting.cases';

test.describe('POST /v2/package-vetting/list', () => {
  test(...forRule('VET-SHAPE'), async ({ ledger }) => {
    const res = await ledger.listVettedPackages({});
    expect(res).toHaveStatus(200);
    expect(res.json).toMatchSchema('vetting-list-response');
    // The pages of the listing's first window (each carrying a token, on a large participant), the last page
    // of a walk narrowed to one entry, and a page that matches nothing.
    const listing = await readListing(ledger, undefined);
    const one = listing.entries[0];
    const narrowed = one
      ? await readPages(
          ledger,
          {
            topologyStateFilter: {
              participantIds: [one.participantId],
              synchronizerIds: [one.synchronizerId],
            },
          },
          3,
          { window: true },
        )
      : undefined;
    for (const [what, run] of [
      ['of the listing', listing.run],
      ['of the walk narrowed to one entry', narrowed],
    ] as const) {
      for (const page of run?.pages ?? []) {
        expect(page.response.json, `page ${page.number} ${what}`).toMatchSchema('vetting-list-response');
      }
    }
    const none = await ledger.listVettedPackages({
      packageMetadataFilter: { packageIds: [unusedPackageId('VET-SHAPE')] },
    });
    expect(none).toHaveStatus(200);
    expect(none.json, 'a page matching nothing').toMatchSchema('vetting-list-response');
  });

  test(...forRule('VET-PAGE-ORDER'), async ({ ledger, target }) => {
    // The server's pages; if they hold one entry each, pages as long as the target allows, so entries sit
    // side by side in one page. The listing's first window: order is judged page by page.
    const max = target.limits.maxVettedPackagesPageSize;
    let size: number | undefined;
    let listing = await readListing(ledger, undefined);
    if (max !== undefined && max > 1 && listing.run.pages.every((p) => p.entries.length < 2)) {
      size = max;
      listing = await readListing(ledger, max);
    }
    const all = listing.entries;
    // Also with topology filters listing every participant and synchronizer in reverse: the order of a
    // request's lists must not leak into the order of the answer.
    const filtered = await readPages(
      ledger,
      {
        ...(size === undefined ? {} : { pageSize: size }),
        topologyStateFilter: {
          participantIds: distinct(all.map((e) => e.participantId)).reverse(),
          synchronizerIds: distinct(all.map((e) => e.synchronizerId)).reverse(),
        },
      },
      LISTING_PAGES,
      { stopAfterEmptyPages: 3, window: true },
    );
    const pairs = [...listing.run.pages, ...filtered.pages].flatMap((p) => adjacentPairs(p.entries));
    test.skip(pairs.length === 0, 'no page of the target holds two entries: their order cannot be observed');
    for (const [name, run] of [
      ['the listing', listing.run],
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

  test(...forRule('VET-PAGE-AFTER-TOKEN'), async ({ ledger, target }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const listing = await readListing(ledger, max);
    test.skip(listing.entries.length < 2, 'the target lists fewer than two entries: no page follows another');
    // Holds whatever changes meanwhile: a page starts strictly after the entry its token names.
    const boundaries: [VettedPackages, VettedPackages][] = [];
    for (const walk of await windowWalks(ledger, {}, listing, smallPageSizes(max))) {
      let last = walk.from;
      for (const page of walk.run.pages) {
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

  test(...forRule('VET-PAGE-WALK-COMPLETE'), async ({ ledger, target }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    // Small pages over a window: the first pages and pages from a token further on.
    const windows = await bracket(ledger, max, (l) => windowWalks(ledger, {}, l, smallPageSizes(max)));
    test.skip(
      windows.before.entries.length < 2,
      'the target lists fewer than two entries: a walk has one page',
    );
    const near = around(windows);
    for (const w of windows.observed) {
      expect(
        walkDifferences(near, w),
        `the walk with ${w.what} against the listing read around it (${describeRun(w.run)})`,
      ).toEqual([]);
    }
    // The whole listing: pages one shorter than the largest, so their boundaries fall elsewhere than the reads'
    // (with the maximum unknown, the windows are all this rule can judge).
    if (max === undefined || max < 3) return;
    const whole = await bracket(ledger, max, () => wholeWalk(ledger, { pageSize: max - 1 }), WHOLE_PAGES);
    expect(
      walkDifferences(around(whole), { run: whole.observed }),
      `the walk with pageSize ${max - 1} against the whole listing read around it (${describeRun(whole.observed)})`,
    ).toEqual([]);
  });

  test(...forRule('VET-PAGE-WALK-ENDS'), async ({ ledger, target }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { observed, ...reads } = await bracket(ledger, max, async (l): Promise<WindowWalk[]> => [
      { what: 'no pageSize', run: await wholeWalk(ledger, {}) },
      ...(await windowWalks(ledger, {}, l, smallPageSizes(max))),
    ]);
    const a = around(reads);
    for (const { what, run, from } of observed) {
      expect(run.stoppedBecause, `the walk with ${what} (${describeRun(run)})`).toBeUndefined();
      expect(run.ended || run.cut, `the walk with ${what} ends with nextPageToken ""`).toBe(true);
      if (!run.ended) continue;
      const last = run.entries[run.entries.length - 1] ?? from;
      const remaining = a.ordered.filter((e) => a.within(e) && (last === undefined || a.before(last, e)));
      expect(
        remaining.map(entryKey),
        `the walk with ${what} got nextPageToken "" while these entries remained (${describeRun(run)})`,
      ).toEqual([]);
    }
  });

  test(...forRule('VET-PAGE-FILTERED-WALK'), async ({ ledger, target, deviation }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { observed, ...reads } = await bracket(ledger, max, async (l) => {
      // The package whose holders leave the longest run of entries without it: pages no longer than that run
      // meet a stretch of the listing with no match before the walk is over.
      const sparse = sparsestPackage(l.entries);
      if (sparse === undefined) return undefined;
      const sizes = distinct([1, sparse.gap]).filter((s) => max === undefined || s <= max);
      const filter = { packageMetadataFilter: { packageIds: [sparse.packageId] } };
      const walks: [string, PageRun][] = [];
      for (const pageSize of sizes) {
        walks.push([
          `the walk filtered by packageIds [${sparse.packageId}] with pageSize ${pageSize}`,
          await readPages(ledger, { ...filter, pageSize }, WINDOW_PAGES, { window: true }),
        ]);
      }
      return { packageId: sparse.packageId, walks };
    });
    test.skip(
      observed === undefined,
      'every vetted package is held by a run of entries from the first: no filter leaves a gap',
    );
    const { packageId, walks } = observed!;
    const a = around(reads);
    const wanted = narrowedExpectation((p) => p.packageId === packageId);
    // Telling only if, among what stayed the same, an entry without the package precedes one with it: a walk
    // of one entry per page then meets a page with no match before a match (Canton's empty page with "").
    const kept = a.ordered.filter((e) => a.within(e));
    const gap = kept.findIndex((e) => wanted.want(e) === undefined);
    test.skip(
      gap < 0 || !kept.slice(gap).some((e) => wanted.want(e) !== undefined),
      'the entries that stayed the same while the walks ran leave no gap before a match: an early end cannot show',
    );
    await deviation.judge(
      () => {
        for (const [what, run] of walks) {
          expect(run.stoppedBecause, `${what} (${describeRun(run)})`).toBeUndefined();
          expect(
            walkDifferences(a, { run, repeats: 'ignore' }, wanted),
            `${what} against the listing read around it: matching entries left out (an empty nextPageToken came while they remained) or listed wrongly (${describeRun(run)})`,
          ).toEqual([]);
        }
      },
      { 'early-end-on-empty-page': () => earlyEndOnEmptyPage(a, wanted, walks) },
    );
  });

  test(...forRule('VET-PAGE-FINAL-TOKEN-EMPTY'), async ({ ledger, target, deviation }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    // The whole listing with the server's page size; then, from the token that led to its last entries, a
    // final page that is exactly full, pages of two, and a final page of one entry. Whatever changes meanwhile,
    // the page holding a walk's last entry is the one that must carry "".
    const whole = await wholeWalk(ledger, {});
    const last = whole.pages.filter((p) => p.entries.length > 0).pop();
    test.skip(last === undefined, 'the target lists nothing: no page holds a last entry');
    const k = last!.entries.length;
    const walks: [string, PageRun][] = [['no pageSize', whole]];
    for (const pageSize of distinct([k, 2, k - 1]).filter((s) => s >= 1 && (max === undefined || s <= max))) {
      const from = last!.tokenSent === '' ? '' : ' from the token before the last entries';
      walks.push([`pageSize ${pageSize}${from}`, await wholeWalk(ledger, { pageSize }, last!.tokenSent)]);
    }
    await deviation.judge(
      () => {
        for (const [what, run] of walks) {
          const holding = run.pages.filter((p) => p.entries.length > 0).pop();
          expect(holding, `the walk with ${what} returned no entry`).toBeDefined();
          const lastEntry = holding!.entries[holding!.entries.length - 1]!;
          expect(
            holding!.nextPageToken ?? '',
            `the walk with ${what}: page ${holding!.number} holds the last entry ${entryKey(lastEntry)}, so no further results exist`,
          ).toBe('');
        }
      },
      { 'trailing-empty-page': () => trailingEmptyPage(walks) },
    );
  });
});
