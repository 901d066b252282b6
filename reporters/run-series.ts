// A target's judged runs, oldest first, beside its previous run (run-history.ts): what the intermittent rule
// (intermittent.ts) and the pictures of the last nights read. Each run that judged something appends one line to
// `runs.jsonl` in the target's history folder: its verdict per rule, the participant's version and the settings
// that change a run's timing (workers, timeout scale), its re-checks, and whether it collapsed. Capped at
// LEDGER_HISTORY_RUNS runs, the oldest dropped. A run that judged nothing adds nothing.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { isIntermittent, statusOf, type IntermittentRule, type RuleState, type Status } from './intermittent';
import type { RuleVerdict } from './verdicts';

export interface JudgedRun {
  generatedAt: string;
  runId?: string;
  version?: string;
  workers?: number;
  timeoutScale?: number;
  /** Every rule's verdict in that run, not-run left out. */
  verdicts: Record<string, RuleVerdict>;
  /** Rules re-checked at the end of the run (LEDGER_RECHECK) and what the re-check saw. */
  rechecked?: Record<string, 'passed' | 'failed'>;
  /** Why the run is a collapse (collapse.ts): shown, but no status of it counts. */
  collapsed?: string;
}

export const SERIES_FILE = 'runs.jsonl';

export function readSeries(targetDir: string): JudgedRun[] {
  const file = join(targetDir, SERIES_FILE);
  if (!existsSync(file)) return [];
  return readFileSync(file, 'utf8')
    .split('\n')
    .flatMap((line) => {
      if (line.trim() === '') return [];
      try {
        const run = JSON.parse(line) as JudgedRun;
        return typeof run.verdicts === 'object' && run.verdicts !== null ? [run] : [];
      } catch {
        // A line cut short (a disk full, a killed run) loses that run only.
        return [];
      }
    });
}

/** Appends `run` and keeps the newest `cap` runs; returns the series as kept. */
export function appendRun(
  targetDir: string,
  series: readonly JudgedRun[],
  run: JudgedRun,
  cap: number,
): JudgedRun[] {
  const kept = [...series, run].slice(-cap);
  const file = join(targetDir, SERIES_FILE);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, kept.map((r) => JSON.stringify(r)).join('\n') + '\n');
  return kept;
}

/** A rule's statuses over the runs, oldest first: collapsed runs left out, a re-check after its run's first. */
export function statusesOf(runs: readonly JudgedRun[], rule: string): Status[] {
  return runs.flatMap((run) => {
    if (run.collapsed) return [];
    const first = statusOf(run.verdicts[rule]);
    if (first === undefined) return [];
    const again = run.rechecked?.[rule];
    return again === undefined ? [first] : [first, again === 'passed' ? 'passes' : 'fails'];
  });
}

/** Each rule's state by the written rule, over `runs`. */
export function ruleStates(
  runs: readonly JudgedRun[],
  rules: readonly string[],
  rule: IntermittentRule,
): Map<string, RuleState> {
  return new Map(
    rules.map((id) => [id, isIntermittent(statusesOf(runs, id), rule) ? 'intermittent' : 'stable']),
  );
}
