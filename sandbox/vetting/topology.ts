// The vetting state: one entry per participant × synchronizer with its vetted packages, kept sorted in
// Canton's order (synchronizer, then participant; identifier, then namespace). Listing seeks to a page
// token by binary search, so the last page of 10⁵ entries costs what the first one does.
import { compareUid, uid, type Uid } from './uid';

/** A vetted package as the API returns it (VettedPackage, fields in the proto's order; null = unbounded). */
export interface VettedPackageJson {
  readonly packageId: string;
  readonly validFromInclusive: string | null;
  readonly validUntilExclusive: string | null;
  readonly packageName: string;
  readonly packageVersion: string;
}

/** A package vetted without time bounds, as a plain `vet` change in Canton (the built-in packages, the churn's). */
export const vettedForever = (p: PackageInfo): VettedPackageJson =>
  Object.freeze({
    packageId: p.packageId,
    validFromInclusive: null,
    validUntilExclusive: null,
    packageName: p.packageName,
    packageVersion: p.packageVersion,
  });

export interface PackageInfo {
  readonly packageId: string;
  readonly packageName: string;
  readonly packageVersion: string;
}

export interface TopologyEntry {
  readonly synchronizer: Uid;
  readonly participant: Uid;
  /** The serial of this participant's last VettedPackages topology transaction on this synchronizer. */
  serial: number;
  /** Never mutated in place: a change replaces the array, so a page already built stays as it was. */
  packages: readonly VettedPackageJson[];
}

interface Bucket {
  readonly synchronizer: Uid;
  /** Sorted by participant. */
  readonly entries: TopologyEntry[];
  readonly byParticipant: Map<string, TopologyEntry>;
}

/** An exclusive lower bound: the last entry of the previous page. */
export interface Position {
  readonly synchronizer: Uid;
  readonly participant: Uid;
}

export interface Restriction {
  /** Only these synchronizers (full ids); undefined = all. */
  readonly synchronizers?: ReadonlySet<string>;
  /** Only these participants, sorted by compareUid; undefined = all. */
  readonly participants?: readonly Uid[];
}

/** First index in a sorted array whose key is greater than (or, with `inclusive`, equal to) `key`. */
function bound<T>(items: readonly T[], key: Uid, keyOf: (t: T) => Uid, inclusive: boolean): number {
  let lo = 0;
  let hi = items.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    const c = compareUid(keyOf(items[mid] as T), key);
    if (c < 0 || (c === 0 && !inclusive)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

const byParticipant = (e: TopologyEntry): Uid => e.participant;
const bySynchronizer = (b: Bucket): Uid => b.synchronizer;

export class VettingTopology {
  private readonly buckets: Bucket[] = [];
  private readonly bySynchronizerId = new Map<string, Bucket>();
  private readonly known = new Map<string, PackageInfo>();
  /** The serial of each entry removed (key `synchronizer participant`): a mapping coming back goes on from it. */
  private readonly removedSerials = new Map<string, number>();

  /** Builds from entries already sorted by participant within each synchronizer (generation's fast path). */
  static fromSorted(
    groups: readonly { synchronizer: Uid; entries: TopologyEntry[] }[],
    packages: PackageInfo[],
  ) {
    const t = new VettingTopology();
    for (const p of packages) t.known.set(p.packageId, p);
    for (const g of [...groups].sort((a, b) => compareUid(a.synchronizer, b.synchronizer))) {
      const b: Bucket = { synchronizer: g.synchronizer, entries: g.entries, byParticipant: new Map() };
      for (const e of g.entries) b.byParticipant.set(e.participant.full, e);
      t.buckets.push(b);
      t.bySynchronizerId.set(g.synchronizer.full, b);
    }
    return t;
  }

  get size(): number {
    return this.buckets.reduce((n, b) => n + b.entries.length, 0);
  }

  hasSynchronizer(synchronizerId: string): boolean {
    return this.bySynchronizerId.has(synchronizerId);
  }

  /** Every package the participant knows (name and version). */
  knownPackages(): PackageInfo[] {
    return [...this.known.values()];
  }

  /** Synchronizer ids in Canton's order. */
  synchronizerIds(): string[] {
    return this.buckets.map((b) => b.synchronizer.full);
  }

  entry(synchronizerId: string, participantId: string): TopologyEntry | undefined {
    return this.bySynchronizerId.get(synchronizerId)?.byParticipant.get(participantId);
  }

  /** A package the participant knows (name and version), by id. */
  packageInfo(packageId: string): PackageInfo | undefined {
    return this.known.get(packageId);
  }

  /** Entries strictly after `after`, in order, limited by the restriction. Costs O(log n) to start. */
  *entriesAfter(after: Position | undefined, only: Restriction = {}): Generator<TopologyEntry> {
    const start = after ? bound(this.buckets, after.synchronizer, bySynchronizer, true) : 0;
    for (let bi = start; bi < this.buckets.length; bi++) {
      const b = this.buckets[bi] as Bucket;
      if (only.synchronizers && !only.synchronizers.has(b.synchronizer.full)) continue;
      const floor =
        after && compareUid(b.synchronizer, after.synchronizer) === 0 ? after.participant : undefined;
      if (only.participants) {
        const ps = only.participants;
        for (let i = floor ? bound(ps, floor, (p) => p, false) : 0; i < ps.length; i++) {
          const e = b.byParticipant.get((ps[i] as Uid).full);
          if (e) yield e;
        }
      } else {
        for (let i = floor ? bound(b.entries, floor, byParticipant, false) : 0; i < b.entries.length; i++) {
          yield b.entries[i] as TopologyEntry;
        }
      }
    }
  }

  /**
   * Vets packages for a participant on a synchronizer while the sandbox runs (the control route), creating
   * the entry — and the synchronizer — when new. Already vetted packages are kept as they are. The serial
   * grows by one when anything changed, as a new topology transaction would.
   */
  vet(synchronizerId: string, participantId: string, packages: readonly VettedPackageJson[]): TopologyEntry {
    let b = this.bySynchronizerId.get(synchronizerId);
    if (!b) {
      const s = uid(synchronizerId);
      b = { synchronizer: s, entries: [], byParticipant: new Map() };
      this.buckets.splice(bound(this.buckets, s, bySynchronizer, true), 0, b);
      this.bySynchronizerId.set(synchronizerId, b);
    }
    let e = b.byParticipant.get(participantId);
    if (!e) {
      const p = uid(participantId);
      const serial = this.removedSerials.get(`${synchronizerId} ${participantId}`) ?? 0;
      e = { synchronizer: b.synchronizer, participant: p, serial, packages: [] };
      b.entries.splice(bound(b.entries, p, byParticipant, true), 0, e);
      b.byParticipant.set(participantId, e);
    }
    const have = new Set(e.packages.map((p) => p.packageId));
    const added = packages.filter((p) => !have.has(p.packageId) && have.add(p.packageId));
    for (const p of added) if (!this.known.has(p.packageId)) this.known.set(p.packageId, p);
    if (added.length > 0) {
      e.packages = [...e.packages, ...added];
      e.serial += 1;
    }
    return e;
  }

  /**
   * Unvets packages: the entry's remaining packages replace its list and the serial grows by one, as Canton's
   * Replace of a VettedPackages mapping with fewer packages does (PackageOpsImpl.setVettedPackages). Undefined
   * when there is no such entry; the entry as it is when none of the packages was vetted.
   */
  unvet(
    synchronizerId: string,
    participantId: string,
    packageIds: ReadonlySet<string>,
  ): TopologyEntry | undefined {
    const e = this.entry(synchronizerId, participantId);
    if (!e) return undefined;
    const kept = e.packages.filter((p) => !packageIds.has(p.packageId));
    if (kept.length < e.packages.length) {
      e.packages = kept;
      e.serial += 1;
    }
    return e;
  }

  /**
   * Removes an entry, as a participant leaving the synchronizer removes its VettedPackages mapping (a Remove
   * transaction: the listing reads positive transactions only). Its serial is kept: the mapping's next
   * transaction, if it joins again, carries the serial after it.
   */
  remove(synchronizerId: string, participantId: string): boolean {
    const b = this.bySynchronizerId.get(synchronizerId);
    const e = b?.byParticipant.get(participantId);
    if (!b || !e) return false;
    b.entries.splice(bound(b.entries, e.participant, byParticipant, true), 1);
    b.byParticipant.delete(participantId);
    this.removedSerials.set(`${synchronizerId} ${participantId}`, e.serial + 1);
    return true;
  }

  /** The entries of a synchronizer, in order (the churn picks among them). */
  entriesOf(synchronizerId: string): readonly TopologyEntry[] {
    return this.bySynchronizerId.get(synchronizerId)?.entries ?? [];
  }
}
