// Known deviations as data: which rules a target is expected to fail, why, and for which versions.
// The suite marks such a test as an expected failure, so a deviation shows as known and an unexpected
// pass breaks the run (the baseline must stay true).
import { readFileSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import cantonBaseline from './expectations/canton.json';

export interface Deviation {
  rule: string;
  expect: 'fail' | 'skip';
  reason: string;
  /** Inclusive lower bound and exclusive upper bound on the target's release (pre-releases count as their release). */
  versions?: { from?: string; below?: string };
}

export interface Baseline {
  name: string;
  deviations: Deviation[];
}

export const BUILTIN_BASELINES: Record<string, Baseline> = { canton: cantonBaseline as Baseline };

/** `3.4.12-SNAPSHOT` → [3, 4, 12]: a snapshot of 3.4.12 behaves as 3.4.12 for deviation purposes. */
function release(version: string): number[] {
  return version
    .split(/[-+]/)[0]!
    .split('.')
    .map((n) => Number(n));
}

function compare(a: string, b: string): number {
  const [x, y] = [release(a), release(b)];
  for (let i = 0; i < 3; i++) {
    const d = (x[i] ?? 0) - (y[i] ?? 0);
    if (d !== 0) return d;
  }
  return 0;
}

export function appliesTo(deviation: Deviation, version: string): boolean {
  const { from, below } = deviation.versions ?? {};
  return (
    (from === undefined || compare(version, from) >= 0) &&
    (below === undefined || compare(version, below) < 0)
  );
}

/**
 * The baseline a setting names: `canton` (built in), `none`, or a path to a JSON file of the same shape.
 * Relative paths resolve from `cwd`.
 */
export function loadBaseline(setting: string, cwd = process.cwd()): Baseline {
  if (setting === 'none') return { name: 'none', deviations: [] };
  const builtin = BUILTIN_BASELINES[setting];
  if (builtin) return builtin;
  const path = isAbsolute(setting) ? setting : join(cwd, setting);
  return JSON.parse(readFileSync(path, 'utf8')) as Baseline;
}

/** The deviation expected of `ruleId` on a target reporting `version`, if any. */
export function deviationFor(baseline: Baseline, ruleId: string, version: string): Deviation | undefined {
  return baseline.deviations.find((d) => d.rule === ruleId && appliesTo(d, version));
}
