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
}

/** Severity order: the worst test verdict decides the rule's verdict. */
const ORDER: RuleVerdict[] = [
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
    };
  });
}

export function totals(rows: readonly RuleRow[]): Record<RuleVerdict, number> {
  const t = Object.fromEntries(ORDER.map((v) => [v, 0])) as Record<RuleVerdict, number>;
  for (const row of rows) t[row.verdict]++;
  return t;
}
