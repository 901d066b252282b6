// Listing vetted packages: the package and topology filters (interface document §2.7): each filter value is
// chosen from what the target itself lists, so the checks run on any participant, and each filtered walk is
// judged against the listing read around it (what stayed the same meanwhile), over the window those reads cover.
import {
  forRule,
  test,
  expect,
  VettedPackage,
  VettedPackages,
  VettingListRequest,
  allPackages,
  around,
  bracket,
  discriminatingPackageIds,
  discriminatingPrefixes,
  distinct,
  entryKey,
  nameOf,
  narrowedExpectation,
  readListing,
  unusedPackageId,
  unusedUid,
  walkDifferences,
  varietyOf,
  varietyReason,
  VARIETY_RULES,
  Bracket,
  Expectation,
  PackagePredicate,
  PageRun,
} from '../fixtures';
import { walkFiltered, PACKAGE_FILTERS } from './vetting.cases';

/**
 * A package filter's walk is judged to its end only when one page of the largest size spans what both reads
 * saw (Canton pages entries before it filters packages; whether a walk may end before later matches is
 * VET-PAGE-FILTERED-WALK's to judge, a known deviation of Canton's): otherwise up to its last entry.
 */
function packageWalk(reads: Bracket, run: PageRun, max: number | undefined): PageRun {
  const spans = (l: Bracket['before']) => l.complete && max !== undefined && l.entries.length <= max;
  return spans(reads.before) && spans(reads.after) ? run : { ...run, ended: false };
}

const topologyExpectation = (keep: (e: VettedPackages) => boolean): Expectation => ({
  want: (e) => (keep(e) ? e : undefined),
  admits: keep,
});

test.describe('POST /v2/package-vetting/list', () => {
  for (const c of PACKAGE_FILTERS) {
    test(...forRule(c.rule), async ({ ledger, target }) => {
      const max = target.limits.maxVettedPackagesPageSize;
      const { observed, ...reads } = await bracket(ledger, max, async (l) => {
        const chosen = c.choose(l.entries);
        if (chosen === undefined) return undefined;
        // One value alone, then every chosen value (any of them matches).
        const runs: [string[], PageRun][] = [];
        for (const values of [[chosen[0]], chosen]) {
          runs.push([
            values,
            await walkFiltered(ledger, { packageMetadataFilter: { [c.field]: values } }, max),
          ]);
        }
        return runs;
      });
      test.skip(observed === undefined, c.needs);
      const a = around(reads);
      for (const [values, run] of observed!) {
        expect(
          walkDifferences(
            a,
            { run: packageWalk(reads, run, max), repeats: 'ignore' },
            narrowedExpectation(c.matches(values)),
          ),
          `${c.field} ${JSON.stringify(values)} against the listing read around it`,
        ).toEqual([]);
      }
    });
  }

  test(...forRule('VET-FILTER-PACKAGE-OR'), async ({ ledger, target }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { observed, ...reads } = await bracket(ledger, max, async (l) => {
      // A whole name as the prefix (the longest, so no other name starts with it) and the id of a package
      // with another name: each list matches packages the other does not.
      const names = distinct(allPackages(l.entries).flatMap((p) => nameOf(p) ?? []));
      const prefix = [...names].sort((x, y) => y.length - x.length || (x < y ? -1 : 1))[0];
      const other = allPackages(l.entries).find(
        (p) => nameOf(p) !== undefined && !nameOf(p)!.startsWith(prefix!),
      );
      if (prefix === undefined || other === undefined) return undefined;
      const filter = { packageIds: [other.packageId], packageNamePrefixes: [prefix] };
      return { filter, run: await walkFiltered(ledger, { packageMetadataFilter: filter }, max) };
    });
    test.skip(observed === undefined, 'needs ≥ 2 distinct package names known to the target');
    const { filter, run } = observed!;
    const match: PackagePredicate = (p) =>
      p.packageId === filter.packageIds[0] ||
      (nameOf(p)?.startsWith(filter.packageNamePrefixes[0]!) ?? false);
    expect(
      walkDifferences(
        around(reads),
        { run: packageWalk(reads, run, max), repeats: 'ignore' },
        narrowedExpectation(match),
      ),
      `packageMetadataFilter ${JSON.stringify(filter)} against the listing read around it`,
    ).toEqual([]);
  });

  for (const [rule, field, key] of [
    ['VET-FILTER-PARTICIPANTS', 'participantIds', VARIETY_RULES['VET-FILTER-PARTICIPANTS']],
    ['VET-FILTER-SYNCHRONIZERS', 'synchronizerIds', VARIETY_RULES['VET-FILTER-SYNCHRONIZERS']],
  ] as const) {
    test(...forRule(rule), async ({ ledger, target }) => {
      const max = target.limits.maxVettedPackagesPageSize;
      const { observed, ...reads } = await bracket(ledger, max, async (l) => {
        // Beyond the first pages when they hold one value only: a large listing's first pages often do.
        const variety = await varietyOf(ledger, l);
        const values = variety.values[key];
        if (values.length < 2) return { skip: varietyReason(key, variety) };
        // The id with the fewest entries alone, then two ids (any of them matches).
        const seen = [...l.entries, ...variety.extra];
        const count = (v: string) => seen.filter((e) => e[key] === v).length;
        const byCount = [...values].sort((x, y) => count(x) - count(y) || (x < y ? -1 : 1));
        const runs: [string[], PageRun][] = [];
        for (const list of [[byCount[0]!], [byCount[0]!, byCount[1]!]]) {
          runs.push([list, await walkFiltered(ledger, { topologyStateFilter: { [field]: list } })]);
        }
        return { runs };
      });
      test.skip('skip' in observed, 'skip' in observed ? observed.skip : '');
      if ('skip' in observed) return;
      const a = around(reads);
      for (const [list, run] of observed.runs) {
        expect(
          walkDifferences(
            a,
            { run, repeats: 'ignore' },
            topologyExpectation((e) => list.includes(e[key])),
          ),
          `${field} ${JSON.stringify(list)} against the listing read around it`,
        ).toEqual([]);
      }
    });
  }

  test(...forRule('VET-FILTER-TOPOLOGY-AND'), async ({ ledger, target }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { observed, ...reads } = await bracket(ledger, max, async (l) => {
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
      return { filter, run: await walkFiltered(ledger, { topologyStateFilter: filter }) };
    });
    test.skip(observed === undefined, 'needs two entries sharing a synchronizer or a participant');
    const { filter, run } = observed!;
    const keep = (e: VettedPackages) =>
      e.participantId === filter.participantIds[0] && e.synchronizerId === filter.synchronizerIds[0];
    expect(
      walkDifferences(around(reads), { run, repeats: 'ignore' }, topologyExpectation(keep)),
      `topologyStateFilter ${JSON.stringify(filter)}`,
    ).toEqual([]);
  });

  test(...forRule('VET-FILTER-EMPTY-LISTS'), async ({ ledger, target }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    const { observed, ...reads } = await bracket(ledger, max, async (l) => {
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
        runs.push([what, keep, await walkFiltered(ledger, request)]);
      return runs;
    });
    test.skip(reads.before.entries.length === 0, 'the target lists nothing: nothing to restrict');
    const a = around(reads);
    for (const [what, keep, run] of observed) {
      expect(
        walkDifferences(a, { run, repeats: 'ignore' }, topologyExpectation(keep)),
        `${what} against the listing read around it`,
      ).toEqual([]);
    }
  });

  test(...forRule('VET-FILTER-NO-MATCH'), async ({ ledger, ids }) => {
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

  test(...forRule('VET-FILTER-ENTRY-HAS-MATCH'), async ({ ledger, target }) => {
    const listing = await readListing(ledger, target.limits.maxVettedPackagesPageSize);
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
      const run = await walkFiltered(ledger, request);
      expect(
        run.entries
          .filter((e) => !matches(e))
          .map((e) => `${entryKey(e)} [${(e.packages ?? []).map((p) => p.packageId).join(', ')}]`),
        `${what} (${JSON.stringify(request)}): entries without a matching package`,
      ).toEqual([]);
    }
  });
});
