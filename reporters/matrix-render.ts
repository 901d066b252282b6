// Text renderings of the rule matrix: the Markdown file a QA engineer reads and the short end-of-run table.
import { TARGET_GONE } from './classify';
import type { EntryNote } from './expectations-status';
import type { FingerprintChange } from './fingerprint';
import { descriptionSection, descriptionSummary, type DescriptionReport } from './openapi-drift';
import { CHANGE_KINDS, changeCount, type ChangeKind, type ChangeRow, type Changes } from './run-history';
import { ORDER, VERDICT_WORDS, type RuleRow, type RuleVerdict } from './verdicts';
import { verdictText } from './verdict-words';
import { boundBodies, boundReason } from './reason';
import type { LastNights } from './last-nights';
import { lastNightsSection } from './last-nights-render';
import { tallyTotal, tallyWords, type TransientTally } from '../core/transient-tally';

export interface MatrixReport {
  generatedAt: string;
  status: string;
  runId?: string;
  target?: { baseUrl?: string; version?: string; participantId?: string };
  changes?: Changes;
  expectations?: { layers: { from: string; entries: number }[]; expired: EntryNote[]; stale: EntryNote[] };
  tests?: {
    ruleId?: string;
    title: string;
    verdict: string;
    reason?: string;
    rerun?: string;
    recheck?: 'passed' | 'failed';
    intermittent?: boolean;
  }[];
  fingerprintChanges: FingerprintChange[];
  totals: Record<RuleVerdict, number>;
  rules: RuleRow[];
  uncatalogued: string[];
  /** Why the run could not judge the target: down from the start, or lost during the run. */
  targetLost?: string;
  /** Credentials that went over plain http in this run, in core/cleartext.ts's words. */
  cleartext?: string;
  /** Each rule's verdicts over the target's judged runs (reporters/last-nights.ts). */
  lastNights?: LastNights;
  description?: DescriptionReport;
  /** Transient answers asked again, per operation and answer (core/transient-tally.ts). */
  transientRetried?: TransientTally;
}

/** A rule whose every test ended because the target was gone (core/target-lost.ts words the reason). */
const goneOnly = (row: RuleRow) =>
  row.verdict === 'inconclusive' && row.reasons.length > 0 && row.reasons.every((x) => TARGET_GONE.test(x));

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** A rule's reasons in one line: the first, bounded, and how many more its tests gave (each under "Failures"). */
const ruleReasons = (reasons: readonly string[], bound = boundReason): string =>
  reasons.length === 0
    ? ''
    : `${bound(reasons[0]!)}${reasons.length > 1 ? `; and ${reasons.length - 1} more (its tests' own)` : ''}`;

function totalsLine(t: Record<RuleVerdict, number>): string {
  return (Object.keys(VERDICT_WORDS) as RuleVerdict[])
    .filter((v) => t[v] > 0)
    .map((v) => `${t[v]} ${VERDICT_WORDS[v].word}`)
    .join(', ');
}

function changesLines(changes: FingerprintChange[]): string[] {
  return changes.map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`);
}

export const CHANGE_HEADINGS: Record<ChangeKind, string> = {
  newFailures: 'New failures',
  fixed: 'Fixed',
  deviationsAppeared: 'Known deviations that appeared',
  deviationsGone: 'Known deviations that went',
  newSkips: 'New skips',
  nowRuns: 'Skipped before, run now',
  becameIntermittent: 'Became intermittent (its status flips between runs: its flips are no longer news)',
  settled: 'Settled (intermittent before, stable again)',
  nowWaived: 'Now waived (an expectations file changed, not the participant)',
  waiverEnded: 'No longer waived (an expectations file or its date, not the participant)',
  expectationsChanged: 'Expectations changed (not the participant)',
  harnessDefects: 'Harness defects (no verdict on the participant)',
  firstVerdicts: 'First verdicts (the rule was not judged before)',
  intermittentFlips: 'Flips of intermittent rules (not news: see "The last nights")',
};

const verdictWord = (v: RuleVerdict | 'absent') =>
  v === 'absent' ? 'not in that run' : VERDICT_WORDS[v].word;

/** How an expectations file's change reads: by whom a rule is now excused, or why it no longer is. */
export function expectationWords(c: ChangeRow): string | undefined {
  if (c.layer === undefined) return undefined;
  const by = c.layer === 'canton' ? "Canton's baseline (canton)" : c.layer;
  if (c.after === 'known-deviation')
    return c.layer === 'canton' ? `now excused by ${by}` : `now waived by ${by}`;
  return c.expired ? `waiver expired (${by})` : `no longer waived by ${by}`;
}

const changeLine = (c: ChangeRow) => {
  const why = expectationWords(c);
  return `- ${c.rule}: ${verdictWord(c.before)} → ${verdictWord(c.after)}${why ? `, ${why}` : ''}${c.reason ? ` — ${cell(boundReason(c.reason))}` : ''}`;
};

/** Which run this one was compared with, in words: its date, target, version and run id. */
export function sinceWords(since: NonNullable<Changes['since']>): string {
  const what = since.kind === 'named' ? `the baseline "${since.name}"` : 'the previous run';
  const target = since.target.baseUrl ?? 'unknown target';
  return `${what} of ${since.generatedAt} (${target}, version ${since.target.version ?? 'unknown'}${since.runId ? `, run ${since.runId}` : ''})`;
}

/** The section a nightly's reader reads first: what changed since the baseline run of this target. */
function changesSection(c: Changes | undefined, targetLost: string | undefined): string[] {
  if (c === undefined) return [];
  if (c.judgedNothing) {
    return [
      '## Changes since: nothing to compare',
      '',
      `This run judged no rule${targetLost ? ` (${targetLost})` : ''}: nothing is compared, and the run compared with stays the baseline of the next one.`,
      '',
    ];
  }
  if (c.since === null) {
    return [
      '## Changes since: no earlier run of this target',
      '',
      'Nothing to compare with (the first run kept in reports/history for this target, or no baseline of that name): the next run compares with this one.',
      '',
    ];
  }
  const lines = [`## Changes since ${sinceWords(c.since)}`, ''];
  if (c.collapsed)
    lines.push(
      `**This run collapsed**: ${c.collapsed}. Its verdicts stand, but they make no rule intermittent and the next run compares with the one before it.`,
      '',
    );
  const unjudged = noVerdictLine(c);
  if (changeCount(c) === 0) return [...lines, 'No verdict changed.', '', ...unjudged];
  for (const kind of CHANGE_KINDS) {
    if (c[kind].length === 0) continue;
    lines.push(`**${CHANGE_HEADINGS[kind]}** (${c[kind].length})`, '', ...c[kind].map(changeLine), '');
  }
  return [...lines, ...unjudged];
}

/** Rules without a verdict this run are no change: they keep the verdict they last had. */
function noVerdictLine(c: Changes): string[] {
  const n = c.noVerdict ?? 0;
  if (n === 0) return [];
  return [
    `${n} rule${n === 1 ? '' : 's'} got no verdict in this run (inconclusive or a harness defect): not compared, their earlier verdicts kept for the next run.`,
    '',
  ];
}

/** The order the rules that did not pass are listed in: what needs a look first. */
const NOT_PASSED_ORDER = ORDER.filter((v) => v !== 'pass' && v !== 'not-run');

/** Every rule that did not pass, worst first, each with its whole reason: the top of conformance.md. */
function notPassedSection(r: MatrixReport): string[] {
  const gone = r.rules.filter(goneOnly);
  const rows = NOT_PASSED_ORDER.flatMap((v) => r.rules.filter((row) => row.verdict === v && !goneOnly(row)));
  if (rows.length === 0 && gone.length === 0) return [];
  const lines = ['## Rules that did not pass', ''];
  for (const row of rows) {
    // Whole reasons here (a known deviation's pinned words), bodies cut: the table and the console cut the rest.
    const reasons = cell(ruleReasons(row.reasons, boundBodies));
    // A reason that opens with the verdict's words ("known deviation of canton …") is not prefixed again.
    const said = reasons.toLowerCase().startsWith(VERDICT_WORDS[row.verdict].word.toLowerCase());
    const words = verdictText(row.verdict, row);
    const text = said
      ? words === VERDICT_WORDS[row.verdict].word
        ? reasons
        : `${words}: ${reasons}`
      : `${words}${reasons ? `: ${reasons}` : ''}`;
    lines.push(`- **${row.id}** — ${text}`);
  }
  if (gone.length > 0)
    lines.push(`- ${gone.length} rules inconclusive: ${r.targetLost ?? 'the target was gone'}`);
  return [...lines, ''];
}

/** `text` whole when it fits in `max` characters, else cut at the last word boundary before, with an ellipsis. */
export function cutAtWord(text: string, max: number): string {
  if (text.length <= max) return text;
  const head = text.slice(0, max - 1);
  const space = head.search(/\s\S*$/);
  return `${(space > max / 2 ? head.slice(0, space) : head).replace(/[\s,;:—-]+$/, '')}…`;
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
    const words = Object.hasOwn(VERDICT_WORDS, t.verdict)
      ? verdictText(t.verdict as RuleVerdict, t)
      : t.verdict;
    lines.push(`- **${t.title}** — ${words}: ${cell(boundReason(t.reason ?? ''))}`);
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
    ...changesSection(r.changes, r.targetLost),
    ...descriptionSection(r.description),
    ...notPassedSection(r),
    '## Conformance matrix',
    '',
    `Target: ${r.target?.baseUrl ?? 'unknown'} — version ${r.target?.version ?? 'unknown'}; run ${r.generatedAt}${r.runId ? ` (${r.runId})` : ''}; status ${r.status}.`,
    '',
    ...(r.cleartext ? [`**Plain http:** ${r.cleartext}.`, ''] : []),
    `Totals: ${totalsLine(r.totals)}.`,
    '',
    ...(tallyTotal(r.transientRetried ?? {}) > 0
      ? [`Transient answers retried: ${tallyWords(r.transientRetried ?? {})}.`, '']
      : []),
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
      `| ${row.id} | ${verdictText(row.verdict, row)} | ${row.level} | ${row.operation} | ${cell(row.title)} | ${cell(ruleReasons(row.reasons))} |`,
    );
  }
  lines.push('', ...lastNightsSection(r.lastNights), ...expectationsSection(r));
  if (r.uncatalogued.length > 0) {
    lines.push('## Tests naming no catalogued rule', '', ...r.uncatalogued.map((t) => `- ${t}`), '');
  }
  return lines.join('\n').replace(/\n+$/, '') + '\n';
}

/** The console's width for the closing table: the terminal's, else a wide log's. */
const consoleWidth = (): number => Math.max(80, process.stdout.columns || 160);

/** The end-of-run table: only what needs a look (not passes, nor rules outside the selection), then the totals. */
export function renderSummary(r: MatrixReport, width = consoleWidth()): string {
  // Rules that ended only because the target was gone are one line, not a hundred of the same reason.
  const gone = r.rules.filter(goneOnly);
  const notable = NOT_PASSED_ORDER.flatMap((v) =>
    r.rules.filter((row) => row.verdict === v && !goneOnly(row)),
  );
  const idWidth = Math.max(10, ...notable.map((row) => row.id.length));
  const lines = ['', 'Conformance by rule:'];
  let cut = false;
  for (const row of notable) {
    const head = `  ${row.id.padEnd(idWidth)}  ${verdictText(row.verdict, row).padEnd(16)}`;
    const reason = row.reasons[0] ? ` — ${row.reasons[0].replace(/\s+/g, ' ')}` : '';
    const shown = cutAtWord(reason, Math.max(40, width - head.length));
    cut ||= shown !== reason;
    lines.push(head + shown);
  }
  if (cut) lines.push('  (whole reasons: conformance.md, "Rules that did not pass")');
  if (r.uncatalogued.length > 0) {
    lines.push(`  Tests naming no catalogued rule (harness defects): ${r.uncatalogued.length}`);
    lines.push(...r.uncatalogued.map((t) => `    ${cutAtWord(t, width - 4)}`));
  }
  if (gone.length > 0)
    lines.push(`  ${gone.length} rules inconclusive: ${r.targetLost ?? 'the target was gone'}`);
  lines.push(`  ${totalsLine(r.totals)} (of ${r.rules.length} rules)`);
  if (tallyTotal(r.transientRetried ?? {}) > 0)
    lines.push(`  Transient answers retried: ${tallyWords(r.transientRetried ?? {})}`);
  lines.push(...changesSummary(r.changes));
  lines.push(...descriptionSummary(r.description));
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
  if (c?.judgedNothing)
    return ['  No verdict to compare: this run judged no rule (the baseline stays as it was).'];
  if (c === undefined || c.since === null) return [];
  const collapsed = c.collapsed ? [`  This run collapsed: ${c.collapsed}.`] : [];
  if (changeCount(c) === 0) return [...collapsed, `  No verdict changed since ${sinceWords(c.since)}.`];
  return [
    ...collapsed,
    `  Changed since ${sinceWords(c.since)}:`,
    ...CHANGE_KINDS.filter((k) => c[k].length > 0).map(
      (k) =>
        `    ${CHANGE_HEADINGS[k]}: ${c[k].map((x) => (x.layer ? `${x.rule} (${expectationWords(x)})` : x.rule)).join(', ')}`,
    ),
  ];
}
