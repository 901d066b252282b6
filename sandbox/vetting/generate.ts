// The seeded topology: config.synchronizers × config.participants entries, config.packages packages plus
// the built-in ones. Same seed, same topology, on any machine. The configured participant and synchronizer
// are part of it, and the participant vets the built-in packages on every synchronizer (Canton vets an
// uploaded package on all connected synchronizers, and its admin-workflow Ping package on each one it
// connects to: CantonSyncService.vetAdminWorkflowsOnSynchronizer), so the submission route can use them.
import type { SandboxConfig } from '../config';
import { BUILTIN_PACKAGES } from './builtin-package';
import { prng, type Prng } from './prng';
import {
  VettingTopology,
  vettedForever,
  type PackageInfo,
  type TopologyEntry,
  type VettedPackageJson,
} from './topology';
import { compareUid, uid, type Uid } from './uid';

// Name stems chosen so prefix filters have something to bite on: `vetting-` matches three names,
// `conformance-` matches one of these and the built-in package.
const NAMES = [
  'vetting-alpha',
  'vetting-beta',
  'finance-iou',
  'token-standard',
  'conformance-models',
  'vetting-gamma',
  'asset-registry',
  'payments-core',
];
const YEAR_2025 = Date.UTC(2025, 0, 1) / 1000;

/** Java's Instant.toString for a whole second: no fraction digits. */
const instant = (epochSeconds: number): string =>
  new Date(epochSeconds * 1000).toISOString().replace('.000Z', 'Z');

const namespace = (r: Prng): string => `1220${r.hex64()}`;

function generatePackages(r: Prng, count: number): PackageInfo[] {
  const out: PackageInfo[] = [];
  for (let i = 0; i < count; i++) {
    const packageName = NAMES[i % NAMES.length] as string;
    out.push({
      packageId: r.hex64(),
      packageName,
      packageVersion: `${1 + Math.floor(i / NAMES.length)}.0.0`,
    });
  }
  return out;
}

/** Generated ids never collide with the configured one (same full id); same identifiers are fine. */
function ids(configured: string, count: number, name: (i: number) => string, r: Prng): Uid[] {
  const out = [uid(configured)];
  for (let i = 1; out.length < count; i++) {
    const id = `${name(i)}::${namespace(r)}`;
    if (id !== configured) out.push(uid(id));
  }
  return out;
}

export function generateTopology(config: SandboxConfig): VettingTopology {
  const r = prng(config.seed);
  const packages = generatePackages(r, config.packages);
  // One shared, frozen JSON object per package: entries reference them, responses serialise them as is.
  const vetted: VettedPackageJson[] = packages.map((p) =>
    Object.freeze({
      packageId: p.packageId,
      validFromInclusive: instant(YEAR_2025 + r.below(365 * 24 * 3600)),
      validUntilExclusive: null,
      packageName: p.packageName,
      packageVersion: p.packageVersion,
    }),
  );
  const builtin: VettedPackageJson[] = BUILTIN_PACKAGES.map(vettedForever);

  // `da`, `da1`, `da2`…: with three or more synchronizers the `da::` / `da1::` ordering edge case is live.
  const synchronizers = ids(
    config.synchronizerId,
    config.synchronizers,
    (i) => `da${i === 1 ? '' : i - 1}`,
    r,
  );
  // `participant2`…: `participant1::` vs `participant10::` is the same edge case among participants.
  const participants = ids(config.participantId, config.participants, (i) => `participant${i + 1}`, r).sort(
    compareUid,
  );

  const perEntry = Math.min(3, vetted.length);
  const groups = synchronizers.map((synchronizer) => {
    const entries: TopologyEntry[] = participants.map((participant) => {
      const picked = new Set<VettedPackageJson>();
      const size = 1 + r.below(perEntry);
      while (picked.size < size) picked.add(vetted[r.below(vetted.length)] as VettedPackageJson);
      if (participant.full === config.participantId) for (const b of builtin) picked.add(b);
      return { synchronizer, participant, serial: 1 + r.below(3), packages: [...picked] };
    });
    return { synchronizer, entries };
  });
  return VettingTopology.fromSorted(groups, [...packages, ...BUILTIN_PACKAGES]);
}
