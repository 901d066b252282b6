// One page of the vetting listing. Unlike Canton (which pages topology entries before filtering packages,
// so a filtered page may end the walk early — UNCONFIRMED, derived from its code), a page here is filled
// from the matching entries after the token: a walk always sees every match.
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

/** The packages of an entry that match the package filter (ids OR name prefixes; no filter = all). */
function matching(entry: TopologyEntry, opts: ListOptions): readonly VettedPackageJson[] {
  if (opts.packageIds.size === 0 && opts.namePrefixes.length === 0) return entry.packages;
  return entry.packages.filter(
    (p) =>
      opts.packageIds.has(p.packageId) ||
      opts.namePrefixes.some((prefix) => p.packageName.startsWith(prefix)),
  );
}

/**
 * `finalPageEmptyToken`: the document's rule (strict-interface mode) — the page holding the last match carries
 * "". Otherwise Canton's: a non-empty page always carries the token of its last entry, an empty page "".
 */
export function listVettedPackages(
  topology: VettingTopology,
  opts: ListOptions,
  finalPageEmptyToken: boolean,
): ListVettedPackagesResponse {
  const page: VettedPackagesJson[] = [];
  let more = false;
  const only = { synchronizers: opts.synchronizers, participants: opts.participants };
  for (const entry of topology.entriesAfter(opts.after, only)) {
    const packages = matching(entry, opts);
    if (packages.length === 0) continue;
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
  const nextPageToken =
    last === undefined || (finalPageEmptyToken && !more)
      ? ''
      : encodePageToken(last.synchronizerId, last.participantId);
  return { vettedPackages: page, nextPageToken };
}
