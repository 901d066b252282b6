// The participants' own API descriptions side by side in `npm run compare`: each run's description (kept in its
// conformance.json) held against the first run's, field by field, in the words of the drift report.
import { driftLine, sinceLast, type DriftLine } from '../core/openapi-drift';
import { descriptionInfoLine, type DescriptionReport } from './openapi-drift';

/** What a run's conformance.json says of the description, when it says anything readable. */
export function descriptionOfMatrix(raw: unknown): DescriptionReport | undefined {
  if (raw === null || typeof raw !== 'object') return undefined;
  const r = raw as Partial<DescriptionReport>;
  if (typeof r.state !== 'string' || !Array.isArray(r.document)) return undefined;
  return {
    state: r.state,
    line: typeof r.line === 'string' ? r.line : '',
    document: r.document,
    since: Array.isArray(r.since) ? r.since : null,
    ...(r.facts && typeof r.facts === 'object' ? { facts: r.facts } : {}),
  };
}

export interface DescriptionsCompared {
  /** Per run, its line (as the run information's). */
  lines: string[];
  /** Per run after the first: what its description says otherwise than the first run's; null when either has none. */
  against: (DriftLine[] | null)[];
}

export function compareDescriptions(
  runs: readonly { description?: DescriptionReport }[],
): DescriptionsCompared | undefined {
  if (runs.every((r) => r.description === undefined)) return undefined;
  const first = runs[0]?.description?.facts;
  return {
    lines: runs.map((r) => descriptionInfoLine(r.description)),
    against: runs
      .slice(1)
      .map((r) => (first && r.description?.facts ? sinceLast(first, r.description.facts) : null)),
  };
}

/** compare.md's section: each run's description, then each against run 1's (run 1 → run n). */
export function descriptionsMarkdown(d: DescriptionsCompared | undefined): string[] {
  if (d === undefined) return [];
  const lines = [
    '## API descriptions (GET /docs/openapi)',
    '',
    ...d.lines.map((l, i) => `${i + 1}. ${l}`),
    '',
  ];
  d.against.forEach((diff, i) => {
    const title = `Run 1 → run ${i + 2}`;
    if (diff === null) lines.push(`${title}: not comparable (a run read no description).`, '');
    else if (diff.length === 0) lines.push(`${title}: the same description.`, '');
    else lines.push(`**${title}** (${diff.length})`, '', ...diff.map((l) => `- ${driftLine(l)}`), '');
  });
  return lines;
}

/** The printed summary's line per run after the first. */
export function descriptionsSummary(d: DescriptionsCompared | undefined): string[] {
  if (d === undefined) return [];
  return d.against.map(
    (diff, i) =>
      `  description, run 1 → run ${i + 2}: ${diff === null ? 'not comparable' : diff.length === 0 ? 'the same' : `${diff.length} difference${diff.length === 1 ? '' : 's'} (compare.md)`}`,
  );
}
