// The pictures of the last nights: each rule's verdicts over its target's judged runs, one mark per run, oldest
// first, in the marks and words of the console and the matrix. As text for conformance.md, and as a page that
// loads nothing (reports/last-nights.html: styles inline, no script, a CSP forbidding the rest).
import { escapeHtml, pageHead, VERDICT_PAGE_STYLE } from './html';
import type { LastNights, RuleStrip } from './last-nights';
import { VERDICT_WORDS, type RuleVerdict } from './verdicts';

export const STATE_WORDS: Record<RuleStrip['state'], string> = {
  intermittent: 'intermittent',
  broken: 'broken',
  stable: 'stable',
  'not judged': 'not judged',
};

const markOf = (v: RuleVerdict | null) => VERDICT_WORDS[v ?? 'not-run'].mark;

/** What one run's cell says in words: the verdict, and a re-check's outcome. */
export function cellWords(v: RuleVerdict | null, again: 'passed' | 'failed' | null): string {
  const words = VERDICT_WORDS[v ?? 'not-run'].word;
  return again === 'passed'
    ? `${words} (passed on re-check: intermittent)`
    : again
      ? `${words} (failed on re-check)`
      : words;
}

/** How the rule reads under the pictures. */
export function ruleWords(n: LastNights['rule']): string {
  return (
    `A rule is intermittent when its status (passes or fails) changed more than once within its last ${n.window} ` +
    `judged runs before tonight and tonight's, counted after its last streak of ${n.settle} identical ones ` +
    '(a pass → FAIL → pass recovery excepted), as Allure 3 marks a test flaky; broken: it fails steadily. ' +
    `A collapsed run counts for no rule. The target keeps its last ${n.runs} judged runs.`
  );
}

/** conformance.md's section: one line per rule, its state and its marks, oldest first. */
export function lastNightsSection(n: LastNights | undefined): string[] {
  if (n === undefined || n.runs.length === 0) return [];
  const width = Math.max(10, ...n.rules.map((r) => r.id.length));
  const collapsed = n.runs
    .map((r, i) => (r.collapsed ? `- run ${i + 1} (${r.generatedAt}) collapsed: ${r.collapsed}` : undefined))
    .filter((l): l is string => l !== undefined);
  return [
    `## The last nights (${n.runs.length} judged run${n.runs.length === 1 ? '' : 's'} of this target, oldest first)`,
    '',
    ruleWords(n.rule),
    '',
    ...(collapsed.length > 0 ? [...collapsed, ''] : []),
    '```',
    ...n.rules.map(
      (r) => `${r.id.padEnd(width)}  ${STATE_WORDS[r.state].padEnd(12)}  ${r.verdicts.map(markOf).join('')}`,
    ),
    '```',
    '',
    `Marks: ${(['pass', 'fail', 'known-deviation', 'inconclusive', 'setup', 'skip', 'not-run'] as const).map((v) => `${VERDICT_WORDS[v].mark} ${VERDICT_WORDS[v].word}`).join(', ')}. The page reports/last-nights.html draws the same, a run's date and version on each mark.`,
    '',
  ];
}

const STYLE = `${VERDICT_PAGE_STYLE}
td.mark { text-align: center; min-width: 1.4em; padding: 2px 4px; }
td.collapsed { outline: 2px dashed #888; outline-offset: -3px; }
td.state-intermittent { background: #fde9d8; font-weight: bold; }
td.state-broken { background: #fbe3e3; font-weight: bold; }
td.state-not_judged { color: #555; }
`;

const verdictClass = (v: RuleVerdict | null) => `v-${v ?? 'not-run'}`;

function stripRow(r: RuleStrip, n: LastNights): string {
  const cells = r.verdicts.map((v, i) => {
    const run = n.runs[i]!;
    const words = cellWords(v, r.rechecked[i] ?? null);
    const title = `run ${i + 1}: ${run.generatedAt}${run.version ? `, version ${run.version}` : ''} — ${words}${run.collapsed ? ' (collapsed run)' : ''}`;
    const collapsed = run.collapsed ? ' collapsed' : '';
    return `<td class="mark ${verdictClass(v)}${collapsed}" title="${escapeHtml(title)}">${escapeHtml(markOf(v))}</td>`;
  });
  return `<tr data-rule="${escapeHtml(r.id)}" data-state="${r.state}"><td class="rule"><code>${escapeHtml(r.id)}</code></td><td class="state-${r.state.replace(' ', '_')}">${STATE_WORDS[r.state]}</td>${cells.join('')}</tr>`;
}

/** reports/last-nights.html. */
export function renderLastNightsHtml(n: LastNights, target: string | undefined): string {
  const heads = n.runs.map((r, i) => `<th title="${escapeHtml(r.generatedAt)}">${i + 1}</th>`).join('');
  return [
    ...pageHead('The last nights', STYLE),
    `<h1>The last nights of ${escapeHtml(target ?? 'unknown target')}</h1>`,
    `<p>${escapeHtml(n.runs.length === 0 ? 'No judged run of this target yet.' : `${n.runs.length} judged runs, oldest first. ${ruleWords(n.rule)}`)}</p>`,
    '<table>',
    `<thead><tr><th>rule</th><th>state</th>${heads}</tr></thead>`,
    '<tbody>',
    ...n.rules.map((r) => stripRow(r, n)),
    '</tbody>',
    '</table>',
    '</body>',
    '</html>',
  ].join('\n');
}
