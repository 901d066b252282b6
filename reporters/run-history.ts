// What changed since a baseline run of the same target: each target keeps its own history folder (keyed by
// its URL and participant id, so another participant never compares with this one) holding the last run's
// verdict per rule and any baselines saved on purpose (`npm run baseline -- save <name>`, e.g. before an
// upgrade). A run compares with the previous run by default, or with the named baseline LEDGER_COMPARE_WITH
// gives; rules a run did not select keep their earlier verdict in the history.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleRow, RuleVerdict } from './verdicts';

export interface RunTarget {
  baseUrl?: string;
  participantId?: string;
  version?: string;
}

/** One run's verdict per rule, as the history keeps it. */
export interface RunSnapshot {
  generatedAt: string;
  runId?: string;
  target: RunTarget;
  verdicts: Record<string, RuleVerdict>;
}

export interface ChangeRow {
  rule: string;
  before: RuleVerdict | 'absent';
  after: RuleVerdict;
  reason?: string;
}

export interface Changes {
  /** The run compared with; null when this target has none (its first run, or no baseline of that name). */
  since: (Omit<RunSnapshot, 'verdicts'> & { kind: 'previous' | 'named'; name?: string }) | null;
  newFailures: ChangeRow[];
  fixed: ChangeRow[];
  deviationsAppeared: ChangeRow[];
  deviationsGone: ChangeRow[];
  newSkips: ChangeRow[];
  newInconclusive: ChangeRow[];
  otherChanges: ChangeRow[];
}

export const CHANGE_KINDS = [
  'newFailures',
  'fixed',
  'deviationsAppeared',
  'deviationsGone',
  'newSkips',
  'newInconclusive',
  'otherChanges',
] as const satisfies readonly (keyof Changes)[];

/** Verdicts that make a rule a failure (inconclusive says nothing about the target). */
export const FAILING: ReadonlySet<RuleVerdict | 'absent'> = new Set([
  'fail',
  'unexpected-pass',
  'harness-defect',
]);

/** A folder name for the target: readable, and unique by its URL and participant id. */
export function targetKey(t: RunTarget): string {
  const id = `${t.baseUrl ?? 'unknown'}|${t.participantId ?? ''}`;
  const host = (t.baseUrl ?? 'unknown').replace(/^\w+:\/\//, '').replace(/[^A-Za-z0-9.-]+/g, '-');
  return `${host.slice(0, 60)}-${createHash('sha256').update(id).digest('hex').slice(0, 12)}`;
}

export const targetHistoryDir = (historyDir: string, t: RunTarget): string =>
  join(historyDir, 'targets', targetKey(t));

/** A baseline's file: names are kept to a safe alphabet (checked where the setting is read). */
export const baselineFile = (dir: string, name: string): string => join(dir, 'baselines', `${name}.json`);

export const BASELINE_NAME = /^[A-Za-z0-9][A-Za-z0-9._-]{0,63}$/;

function readSnapshot(path: string): RunSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as RunSnapshot;
    return typeof s.verdicts === 'object' && s.verdicts !== null ? s : undefined;
  } catch {
    return undefined;
  }
}

/** The bucket of one rule's change, or undefined when it did not change (or did not run now). */
function bucketOf(
  before: RuleVerdict | 'absent',
  after: RuleVerdict,
): keyof Omit<Changes, 'since'> | undefined {
  if (after === 'not-run' || before === after) return undefined;
  if (FAILING.has(after) && !FAILING.has(before)) return 'newFailures';
  if (FAILING.has(before) && (after === 'pass' || after === 'known-deviation')) return 'fixed';
  if (after === 'known-deviation') return 'deviationsAppeared';
  if (before === 'known-deviation') return 'deviationsGone';
  if (after === 'skip') return 'newSkips';
  if (after === 'inconclusive') return 'newInconclusive';
  return 'otherChanges';
}

export function diffRuns(
  baseline: RunSnapshot | undefined,
  rows: readonly RuleRow[],
  since: Changes['since'],
): Changes {
  const changes: Changes = {
    since,
    newFailures: [],
    fixed: [],
    deviationsAppeared: [],
    deviationsGone: [],
    newSkips: [],
    newInconclusive: [],
    otherChanges: [],
  };
  if (baseline === undefined) return changes;
  for (const row of rows) {
    const earlier = baseline.verdicts[row.id];
    const before = earlier === undefined || earlier === 'not-run' ? 'absent' : earlier;
    const bucket = bucketOf(before, row.verdict);
    if (bucket !== undefined)
      changes[bucket].push({ rule: row.id, before, after: row.verdict, reason: row.reasons[0] });
  }
  return changes;
}

export const changeCount = (c: Changes): number => CHANGE_KINDS.reduce((n, k) => n + c[k].length, 0);

export interface HistoryOptions {
  historyDir: string;
  /** LEDGER_COMPARE_WITH: `previous` (default) or a saved baseline's name. */
  compareWith?: string;
}

/** The baseline this run compares with, read before the run's own verdicts are kept. */
export function baselineOf(
  o: HistoryOptions,
  target: RunTarget,
): { snapshot: RunSnapshot | undefined; since: Changes['since']; last: RunSnapshot | undefined } {
  const dir = targetHistoryDir(o.historyDir, target);
  const named = o.compareWith && o.compareWith !== 'previous' ? o.compareWith : undefined;
  // The previous run, read once: the baseline by default, and what keepRun merges this run into.
  const last = readSnapshot(join(dir, 'last-run.json'));
  const snapshot = named ? readSnapshot(baselineFile(dir, named)) : last;
  if (snapshot === undefined) return { snapshot, since: null, last };
  const { verdicts: _verdicts, ...meta } = snapshot;
  return {
    snapshot,
    since: { ...meta, kind: named ? 'named' : 'previous', ...(named ? { name: named } : {}) },
    last,
  };
}

/**
 * Keeps this run as the target's previous run (`last`, as baselineOf read it): rules it did not run keep their
 * earlier verdict.
 */
export function keepRun(o: HistoryOptions, run: RunSnapshot, last: RunSnapshot | undefined): void {
  const dir = targetHistoryDir(o.historyDir, run.target);
  const verdicts = { ...(last?.verdicts ?? {}) };
  for (const [rule, v] of Object.entries(run.verdicts)) if (v !== 'not-run') verdicts[rule] = v;
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'last-run.json'), JSON.stringify({ ...run, verdicts }, null, 2) + '\n');
}

export function snapshotOf(
  generatedAt: string,
  runId: string | undefined,
  target: RunTarget,
  rows: readonly RuleRow[],
): RunSnapshot {
  return { generatedAt, runId, target, verdicts: Object.fromEntries(rows.map((r) => [r.id, r.verdict])) };
}
