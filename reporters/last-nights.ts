// Tonight read against the target's series of judged runs (run-series.ts): each rule's state by the intermittent
// rule (intermittent.ts) without and with tonight, what that makes of "Changes since" (changes of state, not
// flips), whether tonight collapsed (collapse.ts), and the pictures of the last nights that conformance.md and
// last-nights.html draw (last-nights-render.ts).
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { historySettings } from '../core/settings';
import { collapseOf } from './collapse';
import { statusOf, type RuleState } from './intermittent';
import { renderLastNightsHtml } from './last-nights-render';
import { judgedAny, withStates, type Changes } from './run-history';
import { appendRun, readSeries, ruleStates, statusesOf, type JudgedRun } from './run-series';
import type { RuleRow, RuleVerdict } from './verdicts';

/** A rule's picture: its verdict in each run of `LastNights.runs` (null: not run then), and its state. */
export interface RuleStrip {
  id: string;
  /**
   * intermittent by the rule; broken: stable and failing (a FAIL, not a known deviation) in its last judged run;
   * stable: stable otherwise; not judged: no pass or failure of it in the runs kept.
   */
  state: 'intermittent' | 'broken' | 'stable' | 'not judged';
  verdicts: (RuleVerdict | null)[];
  /** Per run: what a re-check saw, when there was one. */
  rechecked: ('passed' | 'failed' | null)[];
}

export interface LastNights {
  /** The runs drawn, oldest first (tonight's last when it was kept). */
  runs: Pick<JudgedRun, 'generatedAt' | 'runId' | 'version' | 'collapsed'>[];
  /** Every rule, intermittent first, then broken, then the rest, each in the catalogue's order. */
  rules: RuleStrip[];
  /** The written rule's settings, for the words under the pictures. */
  rule: { window: number; settle: number; runs: number };
}

type RunMeta = Omit<JudgedRun, 'verdicts' | 'rechecked' | 'collapsed'>;

const STATE_ORDER: RuleStrip['state'][] = ['intermittent', 'broken', 'stable', 'not judged'];

function stripsOf(
  runs: readonly JudgedRun[],
  rows: readonly RuleRow[],
  states: Map<string, RuleState>,
): RuleStrip[] {
  const strips = rows.map((row): RuleStrip => {
    const judged = runs.filter((r) => !r.collapsed && statusOf(r.verdicts[row.id]) !== undefined);
    const last = judged.at(-1)?.verdicts[row.id];
    // A FAIL that passed on re-check ends on a pass: not broken.
    const failing =
      (last === 'fail' || last === 'unexpected-pass') && statusesOf(runs, row.id).at(-1) === 'fails';
    const state: RuleStrip['state'] =
      states.get(row.id) === 'intermittent'
        ? 'intermittent'
        : last === undefined
          ? 'not judged'
          : failing
            ? 'broken'
            : 'stable';
    return {
      id: row.id,
      state,
      verdicts: runs.map((r) => r.verdicts[row.id] ?? null),
      rechecked: runs.map((r) => r.rechecked?.[row.id] ?? null),
    };
  });
  return STATE_ORDER.flatMap((s) => strips.filter((x) => x.state === s));
}

/**
 * Reads the target's series and judges tonight against it. `apply` turns tonight's verdict changes into changes
 * of state; `keep` appends tonight to the series (call it only for a run that reached its participant).
 * Rows of rules intermittent tonight are marked.
 */
export function judgeSeries(targetDir: string, rows: RuleRow[], meta: RunMeta) {
  const h = historySettings();
  const rule = { window: h.window, settle: h.settle };
  const series = readSeries(targetDir);
  const verdicts: Record<string, RuleVerdict> = Object.fromEntries(
    rows.filter((r) => r.verdict !== 'not-run').map((r) => [r.id, r.verdict]),
  );
  const rechecked = Object.fromEntries(rows.flatMap((r) => (r.recheck ? [[r.id, r.recheck]] : [])));
  const judged = judgedAny(rows);
  const collapsed = judged ? collapseOf(series, verdicts) : undefined;
  const tonight: JudgedRun = {
    ...meta,
    verdicts,
    ...(Object.keys(rechecked).length > 0 ? { rechecked } : {}),
    ...(collapsed ? { collapsed } : {}),
  };
  const ids = rows.map((r) => r.id);
  const before = ruleStates(series, ids, rule);
  const withTonight = judged ? [...series, tonight].slice(-h.runs) : series;
  const after = collapsed ? before : ruleStates(withTonight, ids, rule);
  for (const row of rows) if (after.get(row.id) === 'intermittent') row.intermittent = true;
  const pictures: LastNights = {
    runs: withTonight.map(({ generatedAt, runId, version, collapsed: c }) => ({
      generatedAt,
      ...(runId ? { runId } : {}),
      ...(version ? { version } : {}),
      ...(c ? { collapsed: c } : {}),
    })),
    rules: stripsOf(withTonight, rows, after),
    rule: { ...rule, runs: h.runs },
  };
  return {
    pictures,
    apply(changes: Changes): Changes {
      if (changes.judgedNothing) return changes;
      if (collapsed) return { ...changes, collapsed };
      return changes.since === null ? changes : withStates(changes, rows, before, after);
    },
    keep(): void {
      if (judged) appendRun(targetDir, series, tonight, h.runs);
    },
  };
}

export const LAST_NIGHTS_FILE = 'last-nights.html';

/** reports/last-nights.html: the pictures as a page that loads nothing. */
export function writeLastNights(
  outputDir: string,
  report: { lastNights: LastNights; target?: { baseUrl?: string } },
): void {
  writeFileSync(
    join(outputDir, LAST_NIGHTS_FILE),
    renderLastNightsHtml(report.lastNights, report.target?.baseUrl),
  );
}
