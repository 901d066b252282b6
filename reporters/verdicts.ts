// From Playwright test results to one verdict per catalogued rule. Pure functions, so the matrix, the
// merge of shards and the self-tests all judge the same way.
import type { Rule } from '../rules/catalogue';

export type TestVerdict =
  | 'pass'
  | 'fail'
  | 'known-deviation'
  | 'unexpected-pass'
  | 'skip'
  | 'inconclusive'
  /** Broken by the harness's own code (not an assertion, not the transport): no verdict on the target. */
  | 'harness-defect'
  /** Stopped by the harness's configuration (a configured user unknown): no verdict on the target. */
  | 'setup';
export type RuleVerdict = TestVerdict | 'not-run';

export interface TestRecord {
  ruleId: string | undefined;
  title: string;
  file: string;
  verdict: TestVerdict;
  /** Skip or deviation reason, or the first line of the error. */
  reason?: string;
  durationMs: number;
  /** The layer of the expectations entry that applies to it (`canton`, or a team's file), if one does. */
  excusedBy?: string;
  /** The layer of an entry naming it that is past its `until` day. */
  expiredIn?: string;
  /** A FAIL run once more at the end of the run (LEDGER_RECHECK): what that re-check saw. */
  recheck?: 'passed' | 'failed';
}

export interface RuleRow {
  id: string;
  title: string;
  operation: string;
  level: string;
  tags: string[];
  verdict: RuleVerdict;
  reasons: string[];
  tests: { title: string; verdict: TestVerdict }[];
  /** The layer whose entry applies to a test of the rule (it excuses the failure it names), if one does. */
  excusedBy?: string;
  /** The layer of an expired entry naming one of its tests: it no longer excuses. */
  expiredIn?: string;
  /** The re-check of its failing tests: `passed` when any of them passed on re-check. */
  recheck?: 'passed' | 'failed';
  /** Intermittent by the written rule (intermittent.ts) over this target's runs, tonight's included. */
  intermittent?: true;
}

/**
 * Each verdict's words, the one table every output reads: `word` in the console, the rule matrix, the comparison
 * of runs and JUnit (in capitals where the verdict needs a look; the matrix's totals list them in this order);
 * `allure` as the value of the Allure label `verdict`, which the report's categories match (allurerc.ts); `mark`
 * its sign in the console's list and in the pictures of the last nights (· for a rule not run).
 */
export const VERDICT_WORDS: Record<RuleVerdict, { word: string; allure: string; mark: string }> = {
  pass: { word: 'pass', allure: 'pass', mark: '✓' },
  fail: { word: 'FAIL', allure: 'non-conformance', mark: '✘' },
  'known-deviation': { word: 'known deviation', allure: 'known deviation', mark: '~' },
  'unexpected-pass': { word: 'UNEXPECTED PASS', allure: 'unexpected pass', mark: '✘' },
  'harness-defect': { word: 'HARNESS DEFECT', allure: 'harness defect', mark: '✘' },
  setup: { word: 'SET-UP MISTAKE', allure: 'set-up mistake', mark: '!' },
  inconclusive: { word: 'inconclusive', allure: 'inconclusive', mark: '?' },
  skip: { word: 'skip', allure: 'skip', mark: '-' },
  'not-run': { word: 'not run', allure: 'not run', mark: '·' },
};

/** Severity order: the worst test verdict decides the rule's verdict. */
export const ORDER: readonly RuleVerdict[] = [
  'fail',
  'unexpected-pass',
  'harness-defect',
  'setup',
  'inconclusive',
  'known-deviation',
  'pass',
  'skip',
  'not-run',
];

export function ruleVerdict(verdicts: TestVerdict[]): RuleVerdict {
  if (verdicts.length === 0) return 'not-run';
  return [...verdicts].sort((a, b) => ORDER.indexOf(a) - ORDER.indexOf(b))[0]!;
}

export function ruleRows(rules: readonly Rule[], records: readonly TestRecord[]): RuleRow[] {
  return rules.map((rule) => {
    const mine = records.filter((r) => r.ruleId === rule.id);
    return {
      id: rule.id,
      title: rule.title,
      operation: rule.operation,
      level: rule.level,
      tags: rule.tags,
      verdict: ruleVerdict(mine.map((r) => r.verdict)),
      reasons: [...new Set(mine.map((r) => r.reason).filter((r): r is string => !!r))],
      tests: mine.map((r) => ({ title: r.title, verdict: r.verdict })),
      ...optional('excusedBy', mine.find((r) => r.excusedBy !== undefined)?.excusedBy),
      ...optional('expiredIn', mine.find((r) => r.expiredIn !== undefined)?.expiredIn),
      ...recheckOf(mine),
    };
  });
}

/** A rule's re-check: passed when a FAIL of it passed on re-check, failed when every re-check failed again. */
function recheckOf(mine: readonly TestRecord[]): Pick<RuleRow, 'recheck'> {
  const seen = mine.map((r) => r.recheck).filter((r) => r !== undefined);
  if (seen.length === 0) return {};
  return { recheck: seen.includes('passed') ? 'passed' : 'failed' };
}

const optional = <K extends string>(key: K, value: string | undefined): Partial<Record<K, string>> =>
  value === undefined ? {} : ({ [key]: value } as Record<K, string>);

/** The layer of an expectations entry's key (`<layer>#<n>`): `canton` or the team's file as given. */
export const layerOfKey = (key: string): string => key.replace(/#\d+$/, '');

export function totals(rows: readonly RuleRow[]): Record<RuleVerdict, number> {
  const t = Object.fromEntries(ORDER.map((v) => [v, 0])) as Record<RuleVerdict, number>;
  for (const row of rows) t[row.verdict]++;
  return t;
}
