// Figure 10: what a target's history of judged runs costs a run. The rule matrix's history step — read the
// series, judge tonight against it (the intermittent rule over every rule), append tonight, draw the pictures —
// timed with a series of 30 runs (the default cap) and of 365 (a year of nights), beside the same step with no
// history at all (the floor), alternating, in this process.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { RULES } from '../../rules/catalogue';
import { judgeSeries } from '../../reporters/last-nights';
import { lastNightsSection, renderLastNightsHtml } from '../../reporters/last-nights-render';
import { appendRun, type JudgedRun } from '../../reporters/run-series';
import type { RuleRow, RuleVerdict } from '../../reporters/verdicts';
import { measured, table, type Section } from '../lib/report';
import { fmt, median, ms } from '../lib/stats';

/** Every catalogued rule, one in ten flipping night by night, the rest passing. */
const verdictOf = (i: number, night: number): RuleVerdict =>
  i % 10 === 0 && night % 2 === 1 ? 'fail' : 'pass';

function seriesDir(runs: number): string {
  const dir = mkdtempSync(join(tmpdir(), 'bench-history-'));
  let series: JudgedRun[] = [];
  for (let n = 0; n < runs; n++) {
    const verdicts = Object.fromEntries(RULES.map((r, i) => [r.id, verdictOf(i, n)]));
    series = appendRun(dir, series, { generatedAt: new Date(n * 86_400_000).toISOString(), verdicts }, runs);
  }
  return dir;
}

/** One run's history step over the series in `dir`, whose cap is `cap` (the file is put back after). */
function step(dir: string, cap: number): number {
  process.env.LEDGER_HISTORY_RUNS = String(Math.max(2, cap));
  const rows = RULES.map(
    (r, i) => ({ id: r.id, verdict: verdictOf(i, 0), reasons: [], tests: [] }) as unknown as RuleRow,
  );
  const t = performance.now();
  const judged = judgeSeries(dir, rows, { generatedAt: new Date().toISOString() });
  lastNightsSection(judged.pictures);
  renderLastNightsHtml(judged.pictures, 'bench');
  return performance.now() - t;
}

export async function history(o: { repetitions: number }): Promise<Section> {
  return measured('10. What a run pays for its target’s history (30 and 365 judged runs)', async () => {
    const sizes = [0, 30, 365];
    const dirs = sizes.map(seriesDir);
    const times: number[][] = sizes.map(() => []);
    try {
      for (let k = 0; k < o.repetitions; k++)
        for (const [i, size] of sizes.entries()) times[i]!.push(step(dirs[i]!, size));
    } finally {
      for (const d of dirs) rmSync(d, { recursive: true, force: true });
      delete process.env.LEDGER_HISTORY_RUNS;
    }
    const floor = median(times[0]!);
    const rows = sizes.map((size, i) => {
      const m = median(times[i]!);
      return [size === 0 ? 'no history (floor)' : `${size} runs`, ms(m), `${fmt(m / floor, 1)}×`];
    });
    const year = median(times[2]!);
    return {
      summary: [
        `History: the step with 365 judged runs of ${RULES.length} rules takes ${ms(year)} a run (${fmt(year / floor, 1)}× its floor with none).`,
      ],
      body: [
        `Medians of ${o.repetitions} alternating repetitions of the rule matrix's history step over ${RULES.length} rules (read, judge, keep, draw; one rule in ten flipping).`,
        '',
        ...table(['series', 'median', 'vs floor'], rows),
      ],
    };
  });
}
