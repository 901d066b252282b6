// What the configured release line has. Versions compare on major.minor.patch only: a pre-release such as
// 3.4.12-SNAPSHOT is a build of that release line (Canton's release branches report such versions).

/** Is `version` (SemVer) at or after major.minor.patch? */
export function releaseAtLeast(version: string, major: number, minor: number, patch: number): boolean {
  const [a = 0, b = 0, c = 0] = (version.split(/[+-]/, 1)[0] ?? '').split('.').map(Number);
  return a !== major ? a > major : b !== minor ? b > minor : c >= patch;
}

/**
 * Commands.tapsMaxPasses came with 3.4.12; an earlier Canton does not know the field and ignores it like any
 * unknown field (docs/canton-behaviour.md §0). The strict-interface mode always applies the document's rule.
 */
export const knowsTapsMaxPasses = (version: string, mode: 'canton' | 'strict-interface'): boolean =>
  mode === 'strict-interface' || releaseAtLeast(version, 3, 4, 12);
