// The participant's own API description in a run's report: what the global setup read of GET /docs/openapi
// (reports/description.json), held against the interface document and against the description this target
// published at its previous run (kept beside its history). A section of conformance.md, a line of the closing
// table, a line of the run information; it never changes a verdict.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { againstDocument, driftLine, sinceLast, type DriftLine } from '../core/openapi-drift';
import type { DescriptionRead } from '../core/openapi-read';
import type { DescriptionFacts } from '../spec/facts';
import { readJsonFile } from './json-file';
import { targetHistoryDir } from './run-history';

export interface DescriptionReport {
  state: DescriptionRead['state'];
  /** Why there is no description, when there is none (one line). */
  line: string;
  /** Document → description. */
  document: DriftLine[];
  /** Previous description → this one; null when this target kept none. */
  since: DriftLine[] | null;
  facts?: DescriptionFacts;
}

/** Where the global setup leaves what it read, for the reporters. */
export const descriptionFile = (reports: string): string => join(reports, 'description.json');
const keptFile = (historyDir: string, target: { baseUrl?: string; participantId?: string }): string =>
  join(targetHistoryDir(historyDir, target), 'description.json');

/** The description the target published at its previous run, if one was kept. */
export function previousDescription(
  historyDir: string,
  target: { baseUrl?: string; participantId?: string },
): DescriptionFacts | undefined {
  return readJsonFile<DescriptionFacts>(keptFile(historyDir, target));
}

/** Both comparisons of what was read; undefined when nothing was asked (an older run's files, a merge). */
export function describeDrift(
  read: DescriptionRead | undefined,
  previous: DescriptionFacts | undefined,
): DescriptionReport | undefined {
  if (read === undefined) return undefined;
  if (read.state !== 'read' || read.facts === undefined)
    return { state: read.state, line: read.line, document: [], since: null };
  const facts = read.facts;
  return {
    state: 'read',
    line: read.line,
    document: againstDocument(facts),
    since: previous ? sinceLast(previous, facts) : null,
    facts,
  };
}

/**
 * The reporter's step: this run's description compared, and kept as the next run's "previous" when the target
 * was reached and served one (a run that read none leaves the last one kept).
 */
export function descriptionOfRun(
  reports: string,
  historyDir: string,
  target: { baseUrl?: string; participantId?: string },
  reached: boolean,
): DescriptionReport | undefined {
  const report = describeDrift(
    readJsonFile<DescriptionRead>(descriptionFile(reports)),
    previousDescription(historyDir, target),
  );
  if (reached && report?.facts) {
    const file = keptFile(historyDir, target);
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, JSON.stringify(report.facts) + '\n');
  }
  return report;
}

const knownCount = (lines: DriftLine[]): number => lines.filter((l) => l.known).length;

/** The run information's and the preflight's line: the counts, or why there is no description. */
export function descriptionInfoLine(r: DescriptionReport | undefined): string {
  if (r === undefined) return 'not asked';
  if (r.state !== 'read') return r.line;
  const known = knownCount(r.document);
  const doc = `${r.document.length} difference${r.document.length === 1 ? '' : 's'} from the document${known > 0 ? ` (${known} known)` : ''}`;
  const since =
    r.since === null
      ? 'no earlier description of this target'
      : `${r.since.length} change${r.since.length === 1 ? '' : 's'} since the previous run`;
  return `read: ${doc}; ${since}`;
}

/** conformance.md's section, after "Changes since": nothing when there is no difference to show. */
export function descriptionSection(r: DescriptionReport | undefined): string[] {
  if (r === undefined || (r.document.length === 0 && !r.since?.length)) return [];
  const lines = ["## The participant's API description (GET /docs/openapi)", ''];
  if (r.since && r.since.length > 0)
    lines.push(
      `**Changed since the previous run** (${r.since.length}; before → now)`,
      '',
      ...r.since.map((l) => `- ${driftLine(l)}`),
      '',
    );
  if (r.document.length > 0)
    lines.push(
      `**Otherwise than the document** (${r.document.length}, ${knownCount(r.document)} known; document → description)`,
      '',
      ...r.document.map((l) =>
        `- ${driftLine(l)}${l.known ? `: ${l.known}` : ''}`.replace(' (known):', ' — known:'),
      ),
      '',
    );
  return lines;
}

/** The closing table's line: only when something is worth a look (a change, or a difference nobody listed). */
export function descriptionSummary(r: DescriptionReport | undefined): string[] {
  if (r === undefined) return [];
  const unknown = r.document.filter((l) => !l.known).length;
  if (!r.since?.length && unknown === 0) return [];
  return [
    `  API description: ${descriptionInfoLine(r)}${unknown > 0 ? `, ${unknown} not known` : ''} (conformance.md)`,
  ];
}

/** The webhook message's line: the description's changes since the previous run, or undefined when none. */
export function descriptionChangeLine(raw: unknown, max = 5): string | undefined {
  const since = (raw as Partial<DescriptionReport> | undefined)?.since;
  if (!Array.isArray(since) || since.length === 0) return undefined;
  const fields = since.map((l) => (l.at === '(path)' ? `${l.operation} path` : l.at));
  const more = fields.length > max ? ` and ${fields.length - max} more` : '';
  const rules = new Set(since.flatMap((l) => (Array.isArray(l.rules) ? l.rules : [])));
  const read =
    rules.size === 0 ? 'no rule reads them' : `read by ${rules.size} rule${rules.size === 1 ? '' : 's'}`;
  return `  API description changed: ${since.length} (${fields.slice(0, max).join(', ')}${more}; ${read})`;
}
