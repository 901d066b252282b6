// Listing vetted packages: the response shape, the order of entries, and walking the pages to their end
// (interface document §2.7, §2.8, §4.2). Each check derives its values from what the target itself lists.
import {
  forRule,
  test,
  expect,
  VettedPackages,
  adjacentPairs,
  distinct,
  entryDifferences,
  entryKey,
  narrowed,
  observeStable,
  ordersOfPairs,
  pageBound,
  readListing,
  readPages,
  sparsestPackage,
  unusedPackageId,
  ListRequest,
  earlyEndOnEmptyPage,
  trailingEmptyPage,
} from '../fixtures';
import { smallPageSizes, walksBySize, describeRun } from './vetting.cases';

test.describe('POST /v2/package-vetting/list', () => {
  test(...forRule('VET-SHAPE'), async ({ ledger }) => {
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

  test(...forRule('VET-PAGE-ORDER'), async ({ ledger, target }) => {
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

  test(...forRule('VET-PAGE-AFTER-TOKEN'), async ({ ledger, target }) => {
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

  test(...forRule('VET-PAGE-WALK-COMPLETE'), async ({ ledger, target }) => {
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

  test(...forRule('VET-PAGE-WALK-ENDS'), async ({ ledger, target }) => {
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

  test(...forRule('VET-PAGE-FILTERED-WALK'), async ({ ledger, target, deviation }) => {
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

  test(...forRule('VET-PAGE-FINAL-TOKEN-EMPTY'), async ({ ledger, target, deviation }) => {
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
});
