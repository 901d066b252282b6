// Text renderings of the rule matrix: the Markdown file a QA engineer reads and the short end-of-run table.
import { TARGET_GONE } from './classify';
import type { EntryNote } from './expectations-status';
import type { FingerprintChange } from './fingerprint';
import { CHANGE_KINDS, changeCount, type ChangeRow, type Changes } from './run-history';
import type { RuleRow, RuleVerdict } from './verdicts';

export interface MatrixReport {
  generatedAt: string;
  status: string;
  runId?: string;
  target?: { baseUrl?: string; version?: string; participantId?: string };
  changes?: Changes;
  expectations?: { layers: { from: string; entries: number }[]; expired: EntryNote[]; stale: EntryNote[] };
  tests?: { ruleId?: string; title: string; verdict: string; reason?: string; rerun?: string }[];
  fingerprintChanges: FingerprintChange[];
  totals: Record<RuleVerdict, number>;
  rules: RuleRow[];
  uncatalogued: string[];
  /** Why the run could not judge the target: down from the start, or lost during the run. */
  targetLost?: string;
}

/** A rule whose every test ended because the target was gone (core/target-lost.ts words the reason). */
const goneOnly = (row: RuleRow) =>
  row.verdict === 'inconclusive' && row.reasons.length > 0 && row.reasons.every((x) => TARGET_GONE.test(x));

/** How each verdict reads in a report: the ones that need a look in capitals. */
export const LABEL: Record<RuleVerdict, string> = {
  pass: 'pass',
  fail: 'FAIL',
  'known-deviation': 'known deviation',
  'unexpected-pass': 'UNEXPECTED PASS',
  'harness-defect': 'HARNESS DEFECT',
  setup: 'SET-UP MISTAKE',
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

export const CHANGE_HEADINGS: Record<(typeof CHANGE_KINDS)[number], string> = {
  newFailures: 'New failures',
  fixed: 'Fixed',
  deviationsAppeared: 'Known deviations that appeared',
  deviationsGone: 'Known deviations that went',
  newSkips: 'New skips',
  newInconclusive: 'New inconclusive',
  otherChanges: 'Other changes',
};

const verdictWord = (v: RuleVerdict | 'absent') => (v === 'absent' ? 'not in that run' : LABEL[v]);
const changeLine = (c: ChangeRow) =>
  `- ${c.rule}: ${verdictWord(c.before)} → ${verdictWord(c.after)}${c.reason ? ` — ${cell(c.reason).slice(0, 300)}` : ''}`;

/** Which run this one was compared with, in words: its date, target, version and run id. */
export function sinceWords(since: NonNullable<Changes['since']>): string {
  const what = since.kind === 'named' ? `the baseline "${since.name}"` : 'the previous run';
  const target = since.target.baseUrl ?? 'unknown target';
  return `${what} of ${since.generatedAt} (${target}, version ${since.target.version ?? 'unknown'}${since.runId ? `, run ${since.runId}` : ''})`;
}

/** The section a nightly's reader reads first: what changed since the baseline run of this target. */
function changesSection(c: Changes | undefined): string[] {
  if (c === undefined) return [];
  if (c.since === null) {
    return [
      '## Changes since: no earlier run of this target',
      '',
      'Nothing to compare with (the first run kept in reports/history for this target, or no baseline of that name): the next run compares with this one.',
      '',
    ];
  }
  const lines = [`## Changes since ${sinceWords(c.since)}`, ''];
  if (changeCount(c) === 0) return [...lines, 'No verdict changed.', ''];
  for (const kind of CHANGE_KINDS) {
    if (c[kind].length === 0) continue;
    lines.push(`**${CHANGE_HEADINGS[kind]}** (${c[kind].length})`, '', ...c[kind].map(changeLine), '');
  }
  return lines;
}

const NEEDS_A_LOOK: ReadonlySet<string> = new Set([
  'fail',
  'unexpected-pass',
  'harness-defect',
  'setup',
  'inconclusive',
]);

/** Every test that needs a look, with its reason and the command that reruns it alone. */
function failuresSection(r: MatrixReport): string[] {
  const tests = (r.tests ?? []).filter(
    (t) => NEEDS_A_LOOK.has(t.verdict) && !TARGET_GONE.test(t.reason ?? ''),
  );
  if (tests.length === 0) return [];
  const lines = ['## Failures', ''];
  for (const t of tests) {
    lines.push(`- **${t.title}** — ${LABEL[t.verdict as RuleVerdict] ?? t.verdict}: ${cell(t.reason ?? '')}`);
    if (t.rerun) lines.push(`  rerun: \`${t.rerun}\``);
  }
  return [...lines, ''];
}

function expectationsSection(r: MatrixReport): string[] {
  const e = r.expectations;
  if (e === undefined || (e.layers.length === 0 && e.expired.length === 0 && e.stale.length === 0)) return [];
  const note = (n: EntryNote) =>
    `- ${n.key} ${n.rule}${n.test ? ` (${n.test})` : ''}: ${n.why} — ${cell(n.reason)}${[n.owner, n.ticket].filter(Boolean).length ? ` (${[n.owner, n.ticket].filter(Boolean).join(', ')})` : ''}`;
  const lines = [
    '## Expectations',
    '',
    `Layers: ${e.layers.map((l) => `${l.from} (${l.entries})`).join(' + ') || 'none'}.`,
    '',
  ];
  if (e.expired.length > 0) lines.push('**Expired** (no longer excuse)', '', ...e.expired.map(note), '');
  if (e.stale.length > 0) lines.push('**Stale** (matched no test)', '', ...e.stale.map(note), '');
  return lines;
}

export function renderMarkdown(r: MatrixReport): string {
  const lines = [
    ...changesSection(r.changes),
    '## Conformance matrix',
    '',
    `Target: ${r.target?.baseUrl ?? 'unknown'} — version ${r.target?.version ?? 'unknown'}; run ${r.generatedAt}${r.runId ? ` (${r.runId})` : ''}; status ${r.status}.`,
    '',
    `Totals: ${totalsLine(r.totals)}.`,
    '',
    ...(r.targetLost ? [`**No verdict on the target: ${r.targetLost}.**`, ''] : []),
    ...failuresSection(r),
  ];
  if (r.fingerprintChanges.length > 0) {
    lines.push(
      '## Capability changes since the previous run',
      '',
      ...changesLines(r.fingerprintChanges).map((l) => `- ${l}`),
      '',
    );
  }
  lines.push(
    '## Every rule',
    '',
    '| rule | verdict | level | operation | rule text | reason |',
    '|---|---|---|---|---|---|',
  );
  for (const row of r.rules) {
    lines.push(
      `| ${row.id} | ${LABEL[row.verdict]} | ${row.level} | ${row.operation} | ${cell(row.title)} | ${cell(row.reasons.join('; '))} |`,
    );
  }
  lines.push('', ...expectationsSection(r));
  if (r.uncatalogued.length > 0) {
    lines.push('## Tests naming no catalogued rule', '', ...r.uncatalogued.map((t) => `- ${t}`), '');
  }
  return lines.join('\n').replace(/\n+$/, '') + '\n';
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
  lines.push(...changesSummary(r.changes));
  for (const e of r.expectations?.expired ?? [])
    lines.push(`  Expired expectation ${e.key} (${e.rule}): ${e.why}`);
  for (const e of r.expectations?.stale ?? [])
    lines.push(`  Stale expectation ${e.key} (${e.rule}): ${e.why}`);
  if (r.fingerprintChanges.length > 0) {
    lines.push(
      '  Capabilities changed since the previous run:',
      ...changesLines(r.fingerprintChanges).map((l) => `    ${l}`),
    );
  }
  return lines.join('\n') + '\n';
}

/** The closing table's lines on what changed: one per kind that has rules, naming them. */
function changesSummary(c: Changes | undefined): string[] {
  if (c === undefined || c.since === null) return [];
  if (changeCount(c) === 0) return [`  No verdict changed since ${sinceWords(c.since)}.`];
  return [
    `  Changed since ${sinceWords(c.since)}:`,
    ...CHANGE_KINDS.filter((k) => c[k].length > 0).map(
      (k) => `    ${CHANGE_HEADINGS[k]}: ${c[k].map((x) => x.rule).join(', ')}`,
    ),
  ];
}
