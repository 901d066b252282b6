// Text renderings of the rule matrix: the Markdown file a QA engineer reads and the short end-of-run table.
import { TARGET_GONE } from './classify';
import type { FingerprintChange } from './fingerprint';
import type { RuleRow, RuleVerdict } from './verdicts';

export interface MatrixReport {
  generatedAt: string;
  status: string;
  target?: { baseUrl?: string; version?: string };
  fingerprintChanges: FingerprintChange[];
  totals: Record<RuleVerdict, number>;
  rules: RuleRow[];
  uncatalogued: string[];
  /** Why the run could not judge the target: down from the start, or lost during the run. */
  targetLost?: string;
}

/** A rule whose every test ended because the target was gone (fixtures/target-lost.ts words the reason). */
const goneOnly = (row: RuleRow) =>
  row.verdict === 'inconclusive' && row.reasons.length > 0 && row.reasons.every((x) => TARGET_GONE.test(x));

/** How each verdict reads in a report: the ones that need a look in capitals. */
export const LABEL: Record<RuleVerdict, string> = {
  pass: 'pass',
  fail: 'FAIL',
  'known-deviation': 'known deviation',
  'unexpected-pass': 'UNEXPECTED PASS',
  'harness-defect': 'HARNESS DEFECT',
  inconclusive: 'inconclusive',
  skip: 'skip',
  'not-run': 'not run',
};

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function totalsLine(t: Record<RuleVerdict, number>): string {
  return (Object.keys(LABEL) as RuleVerdict[])
    .filter((v) => t[v] > 0)
    .map((v) => `${t[v]} ${LABEL[v]}`)
    .join(', ');
}

function changesLines(changes: FingerprintChange[]): string[] {
  return changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
}

export function renderMarkdown(r: MatrixReport): string {
  const lines = [
    '# Conformance matrix',
    '',
    `Target: ${r.target?.baseUrl ?? 'unknown'} — version ${r.target?.version ?? 'unknown'}; run ${r.generatedAt}; status ${r.status}.`,
    '',
    `Totals: ${totalsLine(r.totals)}.`,
    '',
    ...(r.targetLost ? [`**No verdict on the target: ${r.targetLost}.**`, ''] : []),
  ];
  if (r.fingerprintChanges.length > 0) {
    lines.push(
      '## Capability changes since the previous run',
      '',
      ...changesLines(r.fingerprintChanges).map((l) => `- ${l}`),
      '',
    );
  }
  lines.push('| rule | verdict | level | operation | rule text | reason |', '|---|---|---|---|---|---|');
  for (const row of r.rules) {
    lines.push(
      `| ${row.id} | ${LABEL[row.verdict]} | ${row.level} | ${row.operation} | ${cell(row.title)} | ${cell(row.reasons.join('; '))} |`,
    );
  }
  if (r.uncatalogued.length > 0) {
    lines.push('', '## Tests naming no catalogued rule', '', ...r.uncatalogued.map((t) => `- ${t}`));
  }
  return lines.join('\n') + '\n';
}

/** The end-of-run table: only what needs a look (not passes, nor rules outside the selection), then the totals. */
export function renderSummary(r: MatrixReport): string {
  // Rules that ended only because the target was gone are one line, not a hundred of the same reason.
  const gone = r.rules.filter(goneOnly);
  const notable = r.rules.filter(
    (row) => row.verdict !== 'pass' && row.verdict !== 'not-run' && !goneOnly(row),
  );
  const width = Math.max(10, ...notable.map((row) => row.id.length));
  const lines = ['', 'Conformance by rule:'];
  for (const row of notable) {
    const reason = row.reasons[0] ? ` — ${row.reasons[0]}` : '';
    lines.push(`  ${row.id.padEnd(width)}  ${LABEL[row.verdict].padEnd(16)}${reason.slice(0, 140)}`);
  }
  if (r.uncatalogued.length > 0) {
    lines.push(`  Tests naming no catalogued rule (harness defects): ${r.uncatalogued.length}`);
    lines.push(...r.uncatalogued.map((t) => `    ${t.slice(0, 140)}`));
  }
  if (gone.length > 0)
    lines.push(`  ${gone.length} rules inconclusive: ${r.targetLost ?? 'the target was gone'}`);
  lines.push(`  ${totalsLine(r.totals)} (of ${r.rules.length} rules)`);
  if (r.fingerprintChanges.length > 0) {
    lines.push(
      '  Capabilities changed since the previous run:',
      ...changesLines(r.fingerprintChanges).map((l) => `    ${l}`),
    );
  }
  return lines.join('\n') + '\n';
}
