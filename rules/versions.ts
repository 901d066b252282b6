// Canton releases compared: a rule's version gate, an expectation's version range and the target's own
// release all read a version string the same way.

/** `3.4.12-SNAPSHOT` → [3, 4, 12]: a pre-release or a build counts as its release. */
const releaseOf = (v: string): number[] => (v.split(/[-+]/)[0] ?? '').split('.').map((n) => Number(n) || 0);

/** Negative when `a` is an earlier release than `b`, 0 for the same, positive when later. */
export function compareReleases(a: string, b: string): number {
  const [x, y] = [releaseOf(a), releaseOf(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}
