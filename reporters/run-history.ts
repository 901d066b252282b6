// What changed since a baseline run of the same target: each target keeps its own history folder (keyed by
// its URL and participant id, so another participant never compares with this one) holding the last run's
// verdict per rule and any baselines saved on purpose (`npm run baseline -- save <name>`, e.g. before an
// upgrade). A run compares with the previous run by default, or with the named baseline LEDGER_COMPARE_WITH
// gives. Rules a run gave no verdict (not selected, inconclusive) keep their earlier verdict in the history, and
// a run that judged nothing (the participant lost before any test) leaves the history as it was.
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RuleState } from './intermittent';
import type { RuleRow, RuleVerdict } from './verdicts';
import { BASELINE_NAME } from '../core/settings';

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
  /** The expectations layer whose entry gave a rule its verdict (older snapshots lack it). */
  excusedBy?: Record<string, string>;
}

export interface ChangeRow {
  rule: string;
  before: RuleVerdict | 'absent';
  after: RuleVerdict;
  reason?: string;
  /** For a change an expectations file made: the layer that now excuses, or that no longer does. */
  layer?: string;
  /** For a waiver that ended: it is past its `until` day (rather than removed). */
  expired?: boolean;
}

/**
 * The kinds of change, in the order a reader reads them. `participant`: the participant behaves otherwise
 * (what the webhook announces); the others come from the expectations files, the catalogue or the harness.
 */
export const CHANGE_KIND_INFO = {
  newFailures: { participant: true },
  fixed: { participant: true },
  deviationsAppeared: { participant: true },
  deviationsGone: { participant: true },
  becameIntermittent: { participant: true },
  settled: { participant: true },
  newSkips: { participant: true },
  nowRuns: { participant: true },
  nowWaived: { participant: false },
  waiverEnded: { participant: false },
  expectationsChanged: { participant: false },
  harnessDefects: { participant: false },
  firstVerdicts: { participant: false },
  // A flip of a rule already intermittent: in the report, never announced (intermittent.ts).
  intermittentFlips: { participant: false },
} as const;

export type ChangeKind = keyof typeof CHANGE_KIND_INFO;
export const CHANGE_KINDS = Object.keys(CHANGE_KIND_INFO) as ChangeKind[];
/** The kinds of change the participant made. */
export type ParticipantChangeKind = {
  [K in ChangeKind]: (typeof CHANGE_KIND_INFO)[K]['participant'] extends true ? K : never;
}[ChangeKind];
export const PARTICIPANT_CHANGE_KINDS = CHANGE_KINDS.filter(
  (k): k is ParticipantChangeKind => CHANGE_KIND_INFO[k].participant,
);

export type Changes = {
  /** The run compared with; null when this target has none (its first run, or no baseline of that name). */
  since: (Omit<RunSnapshot, 'verdicts' | 'excusedBy'> & { kind: 'previous' | 'named'; name?: string }) | null;
  /** Rules this run gave no verdict (inconclusive, a harness defect, a set-up mistake): compared with nothing, kept as they were. */
  noVerdict: number;
  /** Set when this run judged no rule at all (the participant was lost or never reached): nothing compared. */
  judgedNothing?: boolean;
  /** Why this run is a collapse (collapse.ts): its changes are one event, not news rule by rule. */
  collapsed?: string;
} & Record<ChangeKind, ChangeRow[]>;

/** Verdicts that make a rule a failure (inconclusive says nothing about the target). */
export const FAILING: ReadonlySet<RuleVerdict | 'absent'> = new Set([
  'fail',
  'unexpected-pass',
  'harness-defect',
]);

/** Verdicts that say nothing about the participant: a rule with one keeps its earlier verdict in the history. */
export const NO_VERDICT: ReadonlySet<RuleVerdict> = new Set([
  'not-run',
  'inconclusive',
  'harness-defect',
  // The harness's own configuration stopped the test (a configured user unknown): nothing about the participant.
  'setup',
]);

/** True when the run judged at least one rule (a skip is no judgement: it sent nothing). */
export const judgedAny = (rows: readonly Pick<RuleRow, 'verdict'>[]): boolean =>
  rows.some((r) => !NO_VERDICT.has(r.verdict) && r.verdict !== 'skip');

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

export { BASELINE_NAME };

function readSnapshot(path: string): RunSnapshot | undefined {
  if (!existsSync(path)) return undefined;
  try {
    const s = JSON.parse(readFileSync(path, 'utf8')) as RunSnapshot;
    return typeof s.verdicts === 'object' && s.verdicts !== null ? s : undefined;
  } catch {
    return undefined;
  }
}

/** What the participant did, whatever the expectations made of it: it passed the rule, or it failed it. */
const behaviour = (v: RuleVerdict | 'absent'): 'passes' | 'fails' | undefined =>
  v === 'pass' || v === 'unexpected-pass'
    ? 'passes'
    : v === 'fail' || v === 'known-deviation'
      ? 'fails'
      : undefined;

interface Side {
  verdict: RuleVerdict | 'absent';
  excusedBy?: string;
}

/** The kind of one rule's change, or undefined when it did not change or this run gave it no verdict. */
export function kindOf(before: Side, after: Side & { verdict: RuleVerdict }): ChangeKind | undefined {
  const [b, a] = [before.verdict, after.verdict];
  if (a === 'not-run' || a === 'inconclusive' || a === 'setup' || b === a) return undefined;
  if (a === 'harness-defect') return 'harnessDefects';
  if (b === 'absent') {
    if (a === 'fail' || a === 'unexpected-pass') return 'newFailures';
    if (a === 'known-deviation') return 'deviationsAppeared';
    if (a === 'skip') return 'newSkips';
    return 'firstVerdicts';
  }
  if (a === 'skip') return 'newSkips';
  // The participant behaved the same; only what an expectations file makes of it changed.
  if (behaviour(b) !== undefined && behaviour(b) === behaviour(a)) {
    if (a === 'known-deviation' && after.excusedBy !== before.excusedBy) return 'nowWaived';
    if (b === 'known-deviation' && a === 'fail' && after.excusedBy === undefined) return 'waiverEnded';
    if (b === 'known-deviation' && a === 'fail') return 'newFailures';
    return 'expectationsChanged';
  }
  if (b === 'skip') return a === 'fail' || a === 'unexpected-pass' ? 'newFailures' : 'nowRuns';
  if (a === 'fail' || a === 'unexpected-pass')
    return a === 'unexpected-pass' && b === 'known-deviation' ? 'deviationsGone' : 'newFailures';
  if (b === 'fail' || b === 'unexpected-pass' || b === 'harness-defect') return 'fixed';
  if (a === 'known-deviation') return 'deviationsAppeared';
  return 'deviationsGone';
}

const emptyChanges = (since: Changes['since']): Changes =>
  ({
    since,
    noVerdict: 0,
    ...Object.fromEntries(CHANGE_KINDS.map((k) => [k, []])),
  }) as unknown as Changes;

export function diffRuns(
  baseline: RunSnapshot | undefined,
  rows: readonly RuleRow[],
  since: Changes['since'],
): Changes {
  const changes = emptyChanges(since);
  changes.noVerdict = rows.filter(
    (r) => r.verdict === 'inconclusive' || r.verdict === 'harness-defect' || r.verdict === 'setup',
  ).length;
  if (!judgedAny(rows)) changes.judgedNothing = true;
  if (baseline === undefined || changes.judgedNothing) return changes;
  for (const row of rows) {
    const earlier = baseline.verdicts[row.id];
    // An older history may hold a rule's inconclusive verdict: it is no verdict to compare with.
    const before = earlier === undefined || NO_VERDICT.has(earlier) ? 'absent' : earlier;
    const was: Side = { verdict: before, excusedBy: baseline.excusedBy?.[row.id] };
    const kind = kindOf(was, { verdict: row.verdict, excusedBy: row.excusedBy });
    if (kind === undefined) continue;
    const layer =
      kind === 'nowWaived'
        ? row.excusedBy
        : kind === 'waiverEnded'
          ? (row.expiredIn ?? was.excusedBy)
          : undefined;
    changes[kind].push({
      rule: row.id,
      before,
      after: row.verdict,
      reason: row.reasons[0],
      ...(layer ? { layer } : {}),
      ...(kind === 'waiverEnded' ? { expired: row.expiredIn !== undefined } : {}),
    });
  }
  return changes;
}

/** The kinds a verdict's flip lands in: what a rule already intermittent no longer announces. */
const FLIP_KINDS = ['newFailures', 'fixed', 'deviationsAppeared', 'deviationsGone'] as const;

/**
 * Changes of state, not flips: a rule intermittent before and after tonight moves its flip to
 * `intermittentFlips`; one that became intermittent, or settled (stable again), is that change instead of a
 * new failure or a fix. `before` and `after` are each rule's state without and with tonight (run-series.ts).
 */
export function withStates(
  changes: Changes,
  rows: readonly RuleRow[],
  before: ReadonlyMap<string, RuleState>,
  after: ReadonlyMap<string, RuleState>,
): Changes {
  for (const row of rows) {
    const [b, a] = [before.get(row.id) ?? 'stable', after.get(row.id) ?? 'stable'];
    if (b === 'stable' && a === 'stable') continue;
    let flip: ChangeRow | undefined;
    for (const kind of FLIP_KINDS) {
      const i = changes[kind].findIndex((c) => c.rule === row.id);
      if (i >= 0) flip = changes[kind].splice(i, 1)[0];
    }
    const base = flip ?? { rule: row.id, before: row.verdict, after: row.verdict, reason: row.reasons[0] };
    if (b === 'intermittent' && a === 'intermittent') {
      if (flip) changes.intermittentFlips.push(flip);
    } else changes[a === 'intermittent' ? 'becameIntermittent' : 'settled'].push(base);
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
  const { verdicts: _verdicts, excusedBy: _excusedBy, ...meta } = snapshot;
  return {
    snapshot,
    since: { ...meta, kind: named ? 'named' : 'previous', ...(named ? { name: named } : {}) },
    last,
  };
}

/**
 * Keeps this run as the target's previous run (`last`, as baselineOf read it): a rule this run gave no verdict
 * (not selected, inconclusive, a harness defect) keeps its earlier verdict, so the next run compares with what
 * was last judged. A run that judged nothing is not kept at all: it replaces nothing. Returns whether it was kept.
 */
export function keepRun(o: HistoryOptions, run: RunSnapshot, last: RunSnapshot | undefined): boolean {
  const judged = Object.entries(run.verdicts).filter(([, v]) => !NO_VERDICT.has(v));
  if (!judgedAny(judged.map(([, verdict]) => ({ verdict })))) return false;
  const dir = targetHistoryDir(o.historyDir, run.target);
  const verdicts = { ...last?.verdicts };
  const excusedBy = { ...last?.excusedBy };
  for (const [rule, v] of judged) {
    verdicts[rule] = v;
    const layer = run.excusedBy?.[rule];
    if (layer === undefined) delete excusedBy[rule];
    else excusedBy[rule] = layer;
  }
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'last-run.json'), JSON.stringify({ ...run, verdicts, excusedBy }, null, 2) + '\n');
  return true;
}

export function snapshotOf(
  generatedAt: string,
  runId: string | undefined,
  target: RunTarget,
  rows: readonly RuleRow[],
): RunSnapshot {
  return {
    generatedAt,
    runId,
    target,
    verdicts: Object.fromEntries(rows.map((r) => [r.id, r.verdict])),
    excusedBy: Object.fromEntries(rows.flatMap((r) => (r.excusedBy ? [[r.id, r.excusedBy]] : []))),
  };
}
