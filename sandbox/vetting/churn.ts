// A live participant's vetting: changes at a set rate while the sandbox runs, of the kinds Canton's topology
// makes (docs/canton-behaviour.md, "A listing that changes"): a package vetted on an existing entry, a package
// unvetted there (each a Replace of the participant's VettedPackages mapping, serial + 1:
// PackageOpsImpl.setVettedPackages), a participant joining a synchronizer (a new mapping) and one leaving (a
// Remove: the listing reads positive transactions only, so the entry is gone). Only the generated synchronizers
// and participants change: the configured participant keeps the packages the submission route uses, and a
// synchronizer created through the control route stays the test's own.
import type { SandboxConfig } from '../config';
import { prng, type Prng } from './prng';
import { BUILTIN_PACKAGES } from './builtin-package';
import { vettedForever, type TopologyEntry, type VettingTopology } from './topology';

export type ChangeKind = 'vet' | 'unvet' | 'join' | 'leave';

export interface Churn {
  /** Makes one change now; the kind made, or undefined when none was possible. */
  changeOnce(): ChangeKind | undefined;
  /** Counts a listing request: with a change every n requests, makes it. */
  onListRequest(): void;
  stop(): void;
}

const BUILTIN = new Set(BUILTIN_PACKAGES.map((p) => p.packageId));

function pick<T>(r: Prng, items: readonly T[]): T | undefined {
  return items.length === 0 ? undefined : items[r.below(items.length)];
}

/**
 * The changes, seeded (SANDBOX_SEED): membership changes keep the topology near its starting size (a join when
 * it is at or below it, a leave above), package changes keep every entry at least one package (an entry with
 * none is what a participant that vetted nothing lists: not what a churning participant becomes).
 */
export function churnOf(topology: VettingTopology, config: SandboxConfig): () => ChangeKind | undefined {
  const r = prng(config.seed + 1);
  const synchronizers = topology.synchronizerIds();
  const startSize = topology.size;
  let joined = 0;
  const changeable = (synchronizerId: string): TopologyEntry[] =>
    topology.entriesOf(synchronizerId).filter((e) => e.participant.full !== config.participantId);
  // The generated packages: the built-in ones stay the configured participant's.
  const pool = topology
    .knownPackages()
    .filter((p) => !BUILTIN.has(p.packageId))
    .map(vettedForever);

  const vet = (e: TopologyEntry): boolean => {
    const have = new Set(e.packages.map((p) => p.packageId));
    const p = pick(
      r,
      pool.filter((x) => !have.has(x.packageId)),
    );
    if (p === undefined) return false;
    topology.vet(e.synchronizer.full, e.participant.full, [p]);
    return true;
  };
  const unvet = (e: TopologyEntry): boolean => {
    const p = e.packages.length > 1 ? pick(r, e.packages) : undefined;
    if (p === undefined) return false;
    topology.unvet(e.synchronizer.full, e.participant.full, new Set([p.packageId]));
    return true;
  };
  const join = (synchronizerId: string): boolean => {
    const p = pick(r, pool);
    if (p === undefined) return false;
    // A random identifier lands anywhere in the order, before a walk's position as often as after it.
    const participantId = `participant${r.below(1_000_000)}x${(joined += 1)}::1220${r.hex64()}`;
    topology.vet(synchronizerId, participantId, [p]);
    return true;
  };

  return (): ChangeKind | undefined => {
    const synchronizerId = pick(r, synchronizers);
    if (synchronizerId === undefined) return undefined;
    const entries = changeable(synchronizerId);
    if (r.below(2) === 0) {
      if (topology.size <= startSize || entries.length === 0)
        return join(synchronizerId) ? 'join' : undefined;
      const e = pick(r, entries)!;
      return topology.remove(e.synchronizer.full, e.participant.full) ? 'leave' : undefined;
    }
    const e = pick(r, entries);
    if (e === undefined) return undefined;
    if (r.below(2) === 0) return vet(e) ? 'vet' : unvet(e) ? 'unvet' : undefined;
    return unvet(e) ? 'unvet' : vet(e) ? 'vet' : undefined;
  };
}

/**
 * Starts the changes SANDBOX_VETTING_CHANGES_PER_SECOND and SANDBOX_VETTING_CHANGE_EVERY_REQUESTS ask for (either,
 * both, or neither: then nothing changes and `stop` is a no-op). The timer does not keep the process alive.
 */
export function startChurn(topology: VettingTopology, config: SandboxConfig): Churn {
  const changeOnce = churnOf(topology, config);
  const every = config.vettingChangeEveryRequests;
  let requests = 0;
  const perSecond = config.vettingChangesPerSecond;
  // Timers fire at most every few milliseconds: a high rate makes several changes per tick.
  const tickMs = perSecond > 0 ? Math.max(10, 1000 / perSecond) : 0;
  let due = 0;
  const timer =
    perSecond > 0
      ? setInterval(() => {
          due += (perSecond * tickMs) / 1000;
          for (; due >= 1; due -= 1) changeOnce();
        }, tickMs)
      : undefined;
  timer?.unref();
  return {
    changeOnce,
    onListRequest() {
      if (every > 0 && (requests += 1) % every === 0) changeOnce();
    },
    stop() {
      if (timer) clearInterval(timer);
    },
  };
}
