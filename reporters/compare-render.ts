// The renderings of a comparison of runs (compare-runs.ts): the Markdown a CI job summary shows, a self-contained
// HTML page (no script, no external style, font or image: it opens offline and from file://, and its
// Content-Security-Policy forbids any load) and the short summary printed at the end. Reasons come from the
// target's answers and may hold any character: every text is escaped where it is written.
import {
  compareDescriptions,
  descriptionsMarkdown,
  descriptionsSummary,
  type DescriptionsCompared,
} from './openapi-drift-compare';
import { escapeHtml, pageHead, VERDICT_PAGE_STYLE } from './html';
import { verdictText } from './verdict-words';
import { boundReason } from './reason';
import { VERDICT_WORDS, type RuleVerdict } from './verdicts';
import {
  ABSENT,
  type RuleHistory,
  type CompareCell,
  type ComparedRun,
  type Comparison,
  type CompareRow,
} from './compare-runs';

/** What a cell says: the rule matrix's label, "not in this run's catalogue", or a verdict this build does not know. */
export function verdictLabel(verdict: string, history: RuleHistory = {}): string {
  if (verdict === ABSENT) return "not in this run's catalogue";
  return Object.hasOwn(VERDICT_WORDS, verdict) ? verdictText(verdict as RuleVerdict, history) : verdict;
}

/** Markdown table cell text: GitHub renders HTML in Markdown, so markup characters are escaped there too. */
const mdCell = (s: string) =>
  s
    .replace(/&/g, '&amp;')
    .replace(/</g, '&lt;')
    .replace(/>/g, '&gt;')
    .replace(/\|/g, '\\|')
    .replace(/\s*\r?\n\s*/g, ' ');

const clip = (s: string, max: number) => (s.length > max ? `${s.slice(0, max - 1)}…` : s);

/** `participant1::1220597b…7291`: a Canton id's namespace fingerprint shortened, as the README writes it. */
export function shortParticipant(id: string): string {
  const [name, ns] = id.split('::', 2);
  return ns !== undefined && ns.length > 16 ? `${name}::${ns.slice(0, 8)}…${ns.slice(-4)}` : id;
}

/** `2026-11-25 02:17 UTC`, or the text as found. */
function shownDate(date: string | undefined): string {
  if (!date) return 'date unknown';
  const d = new Date(date);
  return Number.isNaN(d.getTime()) ? date : `${d.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
}

/** A run's column heading, line by line: participant, version and date, where it ran. */
function headingLines(run: ComparedRun): string[] {
  const t = run.target;
  const where = [t.baseUrl ?? 'target unknown'];
  if (t.sandbox?.mode && t.sandbox.mode !== 'canton') where.push(`mode ${t.sandbox.mode}`);
  if (t.sandbox && t.sandbox.faults.length > 0) where.push(`faults ${t.sandbox.faults.join(', ')}`);
  return [
    t.participantId ? shortParticipant(t.participantId) : 'participant not recorded',
    `${t.version ?? 'version unknown'} · ${shownDate(t.date)}`,
    where.join('; '),
  ];
}

/** A run in the list under the table: everything the heading shortened, and how the run ended. */
function runLine(run: ComparedRun): string {
  const t = run.target;
  const parts = [
    run.folder,
    `participant ${t.participantId ?? 'not recorded'}`,
    `version ${t.version ?? 'unknown'}`,
    shownDate(t.date),
    t.baseUrl ?? 'target unknown',
  ];
  if (t.sandbox) {
    parts.push(`sandbox mode ${t.sandbox.mode ?? 'unknown'}`);
    if (t.sandbox.faults.length > 0) parts.push(`faults ${t.sandbox.faults.join(', ')}`);
  }
  if (t.runId) parts.push(`run id ${t.runId}`);
  if (run.status) parts.push(`status ${run.status}`);
  if (run.targetLost) parts.push(`no verdict on the target: ${run.targetLost}`);
  return parts.join(' — ');
}

const countLine = (c: Comparison) =>
  c.runs.length < 2
    ? `${c.rows.length} rules in one run: nothing to compare it with.`
    : `${c.differing} of ${c.rows.length} rules differ between the ${c.runs.length} runs` +
      (c.differing > 0 ? '; they come first.' : '.');

/** The two parts of every rendering, in their order: the rules that differ, then those that agree. */
const parts = (c: Comparison): [string, CompareRow[]][] => [
  ['Rules that differ', c.rows.filter((r) => r.differs)],
  ['Rules that agree', c.rows.filter((r) => !r.differs)],
];

const reasonText = (cell: CompareCell) => cell.reasons.map((r) => boundReason(r)).join('; ');

function mdRow(row: CompareRow): string {
  const cells = row.cells.map((cell) => {
    const reason = reasonText(cell);
    return mdCell(verdictLabel(cell.verdict, cell) + (reason ? ` — ${clip(reason, 160)}` : ''));
  });
  return `| ${mdCell(row.id)} | ${cells.join(' | ')} |`;
}

/** The side-by-side Markdown: for compare.md and a CI job summary ($GITHUB_STEP_SUMMARY). */
export function renderCompareMarkdown(c: Comparison): string {
  const head = `| rule | ${c.runs.map((run) => headingLines(run).map(mdCell).join('<br>')).join(' | ')} |`;
  const rule = `|---|${c.runs.map(() => '---|').join('')}`;
  const table = (title: string, rows: CompareRow[]) =>
    rows.length === 0 ? [] : [`## ${title} (${rows.length})`, '', head, rule, ...rows.map(mdRow), ''];
  return (
    [
      `# Conformance runs compared`,
      '',
      countLine(c),
      '',
      ...parts(c).flatMap(([title, rows]) => table(title, rows)),
      ...descriptionsMarkdown(compareDescriptions(c.runs)),
      '## Runs',
      '',
      ...c.runs.map((run, i) => `${i + 1}. ${mdCell(runLine(run))}`),
    ].join('\n') + '\n'
  );
}

/** A class name for the verdict: only letters and dashes, whatever the file said. */
const verdictClass = (verdict: string) => `v-${verdict.replace(/[^a-z-]/gi, '_')}`;

function htmlCell(cell: CompareCell): string {
  const reason = reasonText(cell);
  const title = reason ? ` title="${escapeHtml(cell.reasons.map((r) => boundReason(r)).join('\n'))}"` : '';
  const below = reason ? `<div class="reason">${escapeHtml(clip(reason, 300))}</div>` : '';
  return `<td class="verdict ${verdictClass(cell.verdict)}"${title}><span class="label">${escapeHtml(verdictLabel(cell.verdict, cell))}</span>${below}</td>`;
}

function htmlRows(title: string, rows: CompareRow[], columns: number): string[] {
  if (rows.length === 0) return [];
  return [
    `<tbody class="${rows[0]!.differs ? 'differ' : 'agree'}">`,
    `<tr class="group"><th colspan="${columns + 1}">${escapeHtml(title)} (${rows.length})</th></tr>`,
    ...rows.map(
      (row) =>
        `<tr class="${row.differs ? 'differs' : 'agrees'}" data-rule="${escapeHtml(row.id)}">` +
        `<td class="rule"><code>${escapeHtml(row.id)}</code>` +
        (row.title ? `<div class="title">${escapeHtml(row.title)}</div>` : '') +
        `</td>${row.cells.map(htmlCell).join('')}</tr>`,
    ),
    '</tbody>',
  ];
}

/** The descriptions' section of the HTML: the Markdown's lines, escaped. */
const descriptionsHtml = (d: DescriptionsCompared | undefined): string[] => {
  const md = descriptionsMarkdown(d);
  return md.length === 0
    ? []
    : ['<h2>API descriptions (GET /docs/openapi)</h2>', `<pre>${escapeHtml(md.slice(2).join('\n'))}</pre>`];
};

/** The comparison as one HTML file that loads nothing: styles inline, no script, a CSP that forbids the rest. */
export function renderCompareHtml(c: Comparison): string {
  const heads = c.runs.map((run, i) => {
    const full = run.target.participantId ? ` title="${escapeHtml(run.target.participantId)}"` : '';
    return `<th class="run"${full}>${headingLines(run)
      .map((l) => escapeHtml(l))
      .join('<br>')}<div class="reason">run ${i + 1}</div></th>`;
  });
  return [
    ...pageHead('Conformance runs compared', VERDICT_PAGE_STYLE),
    '<h1>Conformance runs compared</h1>',
    `<p class="count">${escapeHtml(countLine(c))}</p>`,
    '<table>',
    `<thead><tr><th>rule</th>${heads.join('')}</tr></thead>`,
    ...parts(c).flatMap(([title, rows]) => htmlRows(title, rows, c.runs.length)),
    '</table>',
    ...descriptionsHtml(compareDescriptions(c.runs)),
    '<h2>Runs</h2>',
    '<ol>',
    ...c.runs.map((run) => `<li>${escapeHtml(runLine(run))}</li>`),
    '</ol>',
    '</body>',
    '</html>',
  ].join('\n');
}

/** What `npm run compare` prints: the count, then each differing rule with its verdicts (at most `max`). */
export function renderCompareSummary(c: Comparison, max = 20): string {
  const differ = c.rows.filter((r) => r.differs);
  const width = Math.max(10, ...differ.slice(0, max).map((r) => r.id.length));
  const lines = [
    `Compared ${c.runs.length} runs: ${countLine(c)}`,
    ...c.runs.map((run, i) => `  run ${i + 1}: ${runLine(run)}`),
    ...differ
      .slice(0, max)
      .map((r) => `  ${r.id.padEnd(width)}  ${r.cells.map((x) => verdictLabel(x.verdict, x)).join(' | ')}`),
  ];
  if (differ.length > max) lines.push(`  … and ${differ.length - max} more (compare.md)`);
  lines.push(...descriptionsSummary(compareDescriptions(c.runs)));
  return lines.join('\n') + '\n';
}
