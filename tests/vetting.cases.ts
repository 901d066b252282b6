// What the vetting specs share (tests/vetting-*.spec.ts): Canton's error for an undecodable request, page-size
// choices, walks by page size, and the package filters' and above-maximum cases as data. A check that compares
// two reads does so against a listing that stayed the same meanwhile (observeStable), so concurrent vetting is
// never a failure; a participant with too little data skips with the reason.
import {
  invalidRequest,
  test,
  expect,
  LedgerResponse,
  Target,
  VettedPackages,
  discriminatingPackageIds,
  discriminatingPrefixes,
  distinct,
  nameOf,
  pageBound,
  readPages,
  wholeListingPageSize,
  ListRequest,
  PackagePredicate,
  PageRun,
} from '../fixtures';

/** Canton's answer to a request its ListVettedPackagesOpts.fromProto refuses (docs/canton-behaviour.md §1.4 f1–f3). */
export const PROTO_DESERIALIZATION_FAILURE = invalidRequest('PROTO_DESERIALIZATION_FAILURE');
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;

/**
 * Page sizes smaller than the listing, each walk at most ~20 pages: 1 and 2 on a small participant. Two sizes,
 * so a page boundary falls after different entries.
 */
export function smallPageSizes(count: number, max: number | undefined): number[] {
  const a = Math.max(1, Math.ceil(count / 20));
  return distinct([a, a + 1]).filter((s) => max === undefined || s <= max);
}

/**
 * A filtered walk with the server's page size, or — given the target's maximum, for a package filter — with one
 * page spanning the listing when the maximum allows it (then every match is listed however the target pages
 * entries and packages). count + 2 pages is plenty.
 */
export const walkFiltered = (
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
export async function walksBySize(
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
export function statedMax(target: Target): number {
  const max = target.limits.maxVettedPackagesPageSize;
  test.skip(
    max === undefined,
    `the maximum page size is unknown: ${target.probeProblem ?? 'not in /v2/version'}`,
  );
  return max!;
}

export const describeRun = (run: PageRun): string =>
  run.pages
    .map((p) => `page ${p.number}: ${p.entries.length} entries, token ${JSON.stringify(p.nextPageToken)}`)
    .join('; ');

/**
 * The package filters, one list at a time: how the test picks values that discriminate (a value alone lists
 * less than all of them), and which packages a list of values must leave.
 */
export const PACKAGE_FILTERS: {
  rule: string;
  field: 'packageIds' | 'packageNamePrefixes';
  choose(entries: readonly VettedPackages[]): [string, string] | undefined;
  needs: string;
  matches(values: string[]): PackagePredicate;
}[] = [
  {
    rule: 'VET-FILTER-PACKAGE-IDS',
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
    field: 'packageNamePrefixes',
    choose: discriminatingPrefixes,
    needs: 'needs ≥ 2 distinct package names known to the target',
    matches: (prefixes) => (p) => prefixes.some((x) => nameOf(p)?.startsWith(x) ?? false),
  },
];

/** A pageSize above the maximum: the document's error (any 4xx), and Canton's code for it. */
export const ABOVE_MAX: { rule: string; expect(res: LedgerResponse, what: string): void }[] = [
  {
    rule: 'VET-PAGE-SIZE-ABOVE-MAX',
    expect: (res, what) => expect(res).toBeRejected(what),
  },
  {
    rule: 'VET-PAGE-SIZE-ABOVE-MAX-CODE',
    expect: (res, what) => expect(res).toBeCantonError({ of: what, ...PROTO_DESERIALIZATION_FAILURE }),
  },
];
