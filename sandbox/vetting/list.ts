// One page of the vetting listing. Unlike Canton (which pages topology entries before filtering packages,
// so a filtered page may end the walk early — UNCONFIRMED, derived from its code), a page here is filled
// from the matching entries after the token: a walk always sees every match.
import type { FaultSet } from '../faults/install';
import { encodePageToken } from './page-token';
import type { TopologyEntry, VettedPackageJson, VettingTopology } from './topology';
import type { ListOptions } from './request';

export interface VettedPackagesJson {
  packages: readonly VettedPackageJson[];
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
}

export interface ListVettedPackagesResponse {
  vettedPackages: VettedPackagesJson[];
  nextPageToken: string;
}

type Faults = Pick<FaultSet, 'has'>;
const NO_FAULTS: Faults = { has: () => false };

/** The packages of an entry that match the package filter (ids OR name prefixes; no filter = all). */
function matching(entry: TopologyEntry, opts: ListOptions, faults: Faults): readonly VettedPackageJson[] {
  if (opts.packageIds.size === 0 && opts.namePrefixes.length === 0) return entry.packages;
  // Faults (sandbox/faults/groups/vetting.ts): vet-filter-prefix-exact, -package-and, -packages-not-narrowed.
  const byName = faults.has('vet-filter-prefix-exact')
    ? (name: string) => opts.namePrefixes.includes(name)
    : (name: string) => opts.namePrefixes.some((prefix) => name.startsWith(prefix));
  const both =
    faults.has('vet-filter-package-and') && opts.packageIds.size > 0 && opts.namePrefixes.length > 0;
  const matched = entry.packages.filter((p) =>
    both
      ? opts.packageIds.has(p.packageId) && byName(p.packageName)
      : opts.packageIds.has(p.packageId) || byName(p.packageName),
  );
  return faults.has('vet-filter-packages-not-narrowed') && matched.length > 0 ? entry.packages : matched;
}

/** The entries after the token, as the restriction selects them — or as the vetting faults skew them. */
function* candidates(topology: VettingTopology, opts: ListOptions, faults: Faults): Generator<TopologyEntry> {
  const { synchronizers, participants, after } = opts;
  // vet-filter-topology-or: an entry on one of the synchronizers OR of one of the participants.
  const either = faults.has('vet-filter-topology-or') && synchronizers && participants;
  const only = either ? {} : { synchronizers, participants };
  const names = new Set(participants?.map((p) => p.full));
  // vet-page-overlap: the page starts with the previous page's last entry again.
  const own =
    after && faults.has('vet-page-overlap')
      ? topology.entry(after.synchronizer.full, after.participant.full)
      : undefined;
  if (own) yield own;
  let skip = after !== undefined && faults.has('vet-page-skip'); // vet-page-skip: the first entry after the token is lost
  for (const entry of topology.entriesAfter(after, only)) {
    if (either && !synchronizers.has(entry.synchronizer.full) && !names.has(entry.participant.full)) continue;
    if (skip) {
      skip = false;
      continue;
    }
    yield entry;
  }
}

/**
 * `finalPageEmptyToken`: the document's rule (strict-interface mode) — the page holding the last match carries
 * "". Otherwise Canton's: a non-empty page always carries the token of its last entry, an empty page "".
 */
export function listVettedPackages(
  topology: VettingTopology,
  opts: ListOptions,
  finalPageEmptyToken: boolean,
  faults: Faults = NO_FAULTS,
): ListVettedPackagesResponse {
  const page: VettedPackagesJson[] = [];
  let more = false;
  for (const entry of candidates(topology, opts, faults)) {
    const packages = matching(entry, opts, faults);
    // vet-filter-keeps-unmatched-entries: an entry without a matching package is listed, with no packages.
    if (packages.length === 0 && !faults.has('vet-filter-keeps-unmatched-entries')) continue;
    if (page.length === opts.pageSize) {
      more = true; // one look-ahead match is enough to know the page is not the last
      break;
    }
    page.push({
      packages,
      participantId: entry.participant.full,
      synchronizerId: entry.synchronizer.full,
      topologySerial: entry.serial,
    });
    if (page.length === opts.pageSize && !finalPageEmptyToken) break;
  }
  const last = page[page.length - 1];
  // vet-final-token-full-page: the document's rule only for a page shorter than asked; a full last page keeps a token.
  const fullKeepsToken = faults.has('vet-final-token-full-page') && page.length === opts.pageSize;
  const nextPageToken =
    last === undefined || (finalPageEmptyToken && !more && !fullKeepsToken)
      ? ''
      : encodePageToken(last.synchronizerId, last.participantId);
  return { vettedPackages: page, nextPageToken };
}
