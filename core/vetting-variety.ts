// The synchronizers and participants a vetting listing holds, found in a bounded number of requests whatever
// its size and order: the first pages a rule reads anyway, then — when they hold fewer than two and the listing
// goes on — the synchronizers the participant says it is connected to (GET /v2/state/connected-synchronizers),
// each confirmed by a filtered read of one small page. Canton's listing holds the vetting state of every
// synchronizer the participant is connected to (topology/VettedPackages on each synchronizer's store), so a
// synchronizer it names and whose filtered read lists an entry is one the listing holds. Shared by the VET-
// rules' skips and the preflight's forecast, so both say the same words.
import type { VettedPackages } from './api-types';
import { PATHS } from './api-paths';

const CONNECTED = PATHS.connectedSynchronizers();

export type VarietyKey = 'synchronizerId' | 'participantId';

/** What the variety is looked for with: a listing page for a body, and the party's connected synchronizers. */
export interface VarietySource {
  /** One page of POST /v2/package-vetting/list for `body`: its entries and next token (undefined: no answer). */
  page(body: Record<string, unknown>): Promise<{ entries: VettedPackages[]; next: string } | undefined>;
  /** The synchronizer ids of GET /v2/state/connected-synchronizers (undefined: no answer, or no party). */
  connected(): Promise<string[] | undefined>;
}

export interface Variety {
  /** The distinct values of each key found, sorted. */
  values: Record<VarietyKey, string[]>;
  /** Entries found beyond the first pages (a filtered read's), to choose filters from. */
  extra: VettedPackages[];
  /** What was looked at, for a skip's reason. */
  lookedAt: string;
}

/** Pages of the largest size a bounded listing read takes (the VET- rules' window, and the preflight's look). */
export const LISTING_PAGES = 2;

/** The rules that need two distinct values of a key in the listing, and the key. */
export const VARIETY_RULES = {
  'VET-FILTER-PARTICIPANTS': 'participantId',
  'VET-FILTER-SYNCHRONIZERS': 'synchronizerId',
} as const satisfies Record<string, VarietyKey>;

/** Synchronizers probed by a filtered read at most: the requests stay bounded on any participant. */
export const MAX_PROBED_SYNCHRONIZERS = 8;
/** Pages of a probe's filtered read: a participant may answer a page with no entry before the first match. */
const PROBE_PAGES = 3;

const distinct = (xs: Iterable<string>): string[] => [...new Set(xs)].sort();

/**
 * One synchronizer's first entries by a synchronizerIds filter, and whether the answer listed any entry at all: an
 * entry of another synchronizer there is the filter rule's to judge, so the synchronizer still counts as held.
 */
async function probe(
  source: VarietySource,
  id: string,
): Promise<{ found: VettedPackages[]; listed: boolean }> {
  let pageToken = '';
  for (let n = 0; n < PROBE_PAGES; n++) {
    const page = await source.page({
      topologyStateFilter: { synchronizerIds: [id] },
      pageSize: 1,
      pageToken,
    });
    const entries = page?.entries ?? [];
    if (entries.length > 0) return { found: entries.filter((e) => e.synchronizerId === id), listed: true };
    if (page === undefined || page.next === '') break;
    pageToken = page.next;
  }
  return { found: [], listed: false };
}

/**
 * The variety of `first` (the first pages read, `complete` when they reached the listing's end), widened by the
 * connected synchronizers when they hold fewer than two synchronizers or participants and the listing goes on.
 */
export async function listingVariety(
  source: VarietySource,
  first: readonly VettedPackages[],
  complete: boolean,
): Promise<Variety> {
  const of = (entries: readonly VettedPackages[]) => ({
    synchronizerId: distinct(entries.map((e) => e.synchronizerId)),
    participantId: distinct(entries.map((e) => e.participantId)),
  });
  const firstLook = complete ? 'the whole listing' : 'the first pages of the listing';
  const values = of(first);
  if (complete || (values.synchronizerId.length >= 2 && values.participantId.length >= 2))
    return { values, extra: [], lookedAt: firstLook };
  const connected = await source.connected();
  if (connected === undefined)
    return { values, extra: [], lookedAt: `${firstLook}; GET ${CONNECTED} gave no list` };
  const extra: VettedPackages[] = [];
  const others = connected
    .filter((c) => !values.synchronizerId.includes(c))
    .slice(0, MAX_PROBED_SYNCHRONIZERS);
  const held: string[] = [];
  for (const id of others) {
    const { found, listed } = await probe(source, id);
    extra.push(...found);
    if (listed) held.push(id);
  }
  const named = `${connected.length} synchronizer${connected.length === 1 ? '' : 's'} connected`;
  const probed =
    others.length === 0
      ? 'none beyond those pages'
      : `${others.length} beyond those pages, each read with a synchronizerIds filter`;
  return {
    values: { ...of([...first, ...extra]), synchronizerId: distinct([...values.synchronizerId, ...held]) },
    extra,
    lookedAt: `${firstLook} and GET ${CONNECTED}: ${named}, ${probed}`,
  };
}

/** A rule's skip for too little variety, in the words the run and the preflight both print. */
export function varietyReason(key: VarietyKey, variety: Variety): string {
  const found = variety.values[key];
  return `needs entries of ≥ 2 distinct ${key}s: the listing holds ${found.length} (looked at ${variety.lookedAt})`;
}
