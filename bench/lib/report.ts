// One figure of the bench: a markdown section with its table, the load around it and notes.
import { load, loadNote, type Load } from './machine';

export type Operation = 'version' | 'list' | 'submit';

export interface Section {
  title: string;
  body: string[];
  /** One-line verdicts for the summary at the top of RESULTS.md. */
  summary: string[];
}

/** Runs `measure` between two load readings and appends the load line to its section. */
export async function measured(
  title: string,
  measure: () => Promise<Omit<Section, 'title'>>,
): Promise<Section> {
  const before: Load = load();
  const t = Date.now();
  process.stdout.write(`bench: ${title} …\n`);
  const part = await measure();
  const after = load();
  process.stdout.write(`bench: ${title} done in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  return {
    title,
    body: [
      ...part.body,
      '',
      `_Machine: ${loadNote(before, after)}; took ${((Date.now() - t) / 1000).toFixed(1)} s._`,
    ],
    summary: part.summary,
  };
}

export function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}
