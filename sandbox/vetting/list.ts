// One page of the vetting listing, cut as Canton cuts it (canton mode) or as the document reads
// (strict-interface mode). Canton pages topology entries before it filters packages: PackageOpsImpl.getVettedPackages
// (community/participant/…/participant/topology/PackageOps.scala) takes at most `pageSize` entries after the
// token, synchronizer by synchronizer (the topology filter applied in that query); PackageService.listVettedPackages
// (…/participant/admin/PackageService.scala) then maps filterAndEnrich, which keeps the matching packages and drops
// an entry left with none; ApiPackageService.listVettedPackages (ledger-api-core/…/apiserver/services) builds the
// token from the last returned entry, InitialPageToken ("") when none. So with a package filter a page may be
// shorter than pageSize, and a window without a match is an empty page with "": the walk ends before later
// matches. The document's reading fills a page from the matching entries, so a walk sees every match.
import type { SandboxMode } from '../config';
import { NO_FAULTS, type FaultSet } from '../faults/registry';
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
 * Canton's paging: a window of `pageSize` entries, filtered afterwards; a non-empty page carries the token of
 * its last entry, an empty page "". The document's: a page filled from the matches, and the page holding the
 * last match carries "".
 */
export function listVettedPackages(
  topology: VettingTopology,
  opts: ListOptions,
  paging: SandboxMode,
  faults: Faults = NO_FAULTS,
): ListVettedPackagesResponse {
  const packageFiltered = opts.packageIds.size > 0 || opts.namePrefixes.length > 0;
  // vet-filter-paged-first: strict-interface mode pages a package-filtered request as Canton does.
  const cantonPaging = paging === 'canton' || (packageFiltered && faults.has('vet-filter-paged-first'));
  const finalPageEmptyToken = !cantonPaging;
  const page: VettedPackagesJson[] = [];
  let more = false;
  let window = 0;
  for (const entry of candidates(topology, opts, faults)) {
    if (cantonPaging && window === opts.pageSize) break; // the window is taken before packages are filtered
    window += 1;
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
