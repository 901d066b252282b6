// What the vetting specs share (tests/vetting-*.spec.ts): Canton's error for an undecodable request, page-size
// choices, bounded walks, and the package filters' and above-maximum cases as data. A check that compares reads
// judges them by what stayed the same around them (fixtures' bracket: the listing read before and after), so
// concurrent vetting is never a failure and never waited out; a participant with too little data skips with the
// reason. Every walk is bounded whatever the topology's size: small pages cover a window (the first pages, and
// pages from a token further on), the whole listing is walked with the largest page the target allows.
import {
  invalidRequest,
  test,
  expect,
  LedgerResponse,
  Target,
  VettedPackages,
  discriminatingPackageIds,
  discriminatingPrefixes,
  nameOf,
  readPages,
  ListRequest,
  Listing,
  PackagePredicate,
  PageRun,
  WHOLE_PAGES,
  LISTING_PAGES,
} from '../fixtures';

/** Canton's answer to a request its ListVettedPackagesOpts.fromProto refuses (docs/canton-behaviour.md §1.4 f1–f3). */
export const PROTO_DESERIALIZATION_FAILURE = invalidRequest('PROTO_DESERIALIZATION_FAILURE');
export const INT32_MAX = 2_147_483_647;
export const INT32_MIN = -2_147_483_648;

/** Pages a small-page walk reads from where it starts: at this many, a default topology is walked whole. */
export const WINDOW_PAGES = 12;

/** Page sizes smaller than the listing: 1 and 2, so a page boundary falls after different entries. */
export const smallPageSizes = (max: number | undefined): number[] =>
  [1, 2].filter((s) => max === undefined || s <= max);

/**
 * A filtered walk with the server's page size, or — given the target's maximum, for a package filter — with the
 * largest page (Canton takes that many entries before it filters packages, so a page covers as much of the
 * listing as a listing read's page): at most LISTING_PAGES pages, the window the listing reads cover; a walk
 * cut there is judged up to its last entry.
 */
export const walkFiltered = (ledger: Parameters<typeof readPages>[0], request: ListRequest, max?: number) =>
  readPages(ledger, max === undefined ? request : { ...request, pageSize: max }, LISTING_PAGES + 1, {
    stopAfterEmptyPages: 3,
    window: true,
  });

/** A small-page walk and where it started: after `from` (its listing entry), or at the first page. */
export interface WindowWalk {
  what: string;
  run: PageRun;
  from?: VettedPackages;
}

/**
 * The token after the first page of a listing read and that page's last entry: a window further on, inside
 * what the listing reads cover. Undefined when the first page is the whole listing.
 */
export function furtherOn(listing: Listing): { token: string; from: VettedPackages } | undefined {
  const first = listing.run.pages[0];
  const from = first?.entries[first.entries.length - 1];
  const token = first?.nextPageToken ?? '';
  return from === undefined || token === '' || listing.run.pages.length < 2 ? undefined : { token, from };
}

/**
 * Walks with each page size in `sizes`, WINDOW_PAGES pages at most: from the first page, and from a token
 * further on (furtherOn). A walk cut at its bound is a window (`cut`), never a walk that does not end.
 */
export async function windowWalks(
  ledger: Parameters<typeof readPages>[0],
  request: ListRequest,
  listing: Listing,
  sizes: readonly number[],
): Promise<WindowWalk[]> {
  const walks: WindowWalk[] = [];
  const far = furtherOn(listing);
  for (const pageSize of sizes) {
    const req = { ...request, pageSize };
    walks.push({
      what: `pageSize ${pageSize}`,
      run: await readPages(ledger, req, WINDOW_PAGES, { window: true }),
    });
    if (far)
      walks.push({
        what: `pageSize ${pageSize} from the token after ${far.from.participantId}`,
        run: await readPages(ledger, req, WINDOW_PAGES, { window: true, from: far.token }),
        from: far.from,
      });
  }
  return walks;
}

/** A walk over the whole listing (a never-ending one fails at WHOLE_PAGES), from `from` when given. */
export const wholeWalk = (
  ledger: Parameters<typeof readPages>[0],
  request: ListRequest,
  from = '',
): Promise<PageRun> => readPages(ledger, request, WHOLE_PAGES, { from });

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
