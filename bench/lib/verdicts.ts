// A whole-suite run's verdicts, test by test, as the figures that run the suite several ways (8, 9, 11) read and
// compare them: from the rule matrix the run wrote.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { TransientTally } from '../../core/transient-tally';

/** Each test's verdict, by its title. */
export type Verdicts = Record<string, string>;

/** The rule matrix in `reports` (conformance.json): each test's verdict, and the answers the run retried. */
export function readMatrix(reports: string): { verdicts: Verdicts; transientRetried?: TransientTally } {
  const matrix = JSON.parse(readFileSync(join(reports, 'conformance.json'), 'utf8')) as {
    tests: { title: string; verdict: string }[];
    transientRetried?: TransientTally;
  };
  return {
    verdicts: Object.fromEntries(matrix.tests.map((t) => [t.title, t.verdict])),
    transientRetried: matrix.transientRetried,
  };
}

export const count = (verdicts: Verdicts, verdict: string): number =>
  Object.values(verdicts).filter((v) => v === verdict).length;

/** The titles of the tests whose verdict differs between the two runs. */
export function differing(verdicts: Verdicts, reference: Verdicts): string[] {
  const titles = new Set([...Object.keys(verdicts), ...Object.keys(reference)]);
  return [...titles].filter((t) => verdicts[t] !== reference[t]);
}

/** A table's verdicts cell: each kind counted, the inconclusive ones in bold, a failed run's exit code. */
export const verdictsCell = (verdicts: Verdicts, code: number): string =>
  `${count(verdicts, 'pass')} pass, ${count(verdicts, 'known-deviation')} known deviation, ${count(verdicts, 'skip')} skip, ${count(verdicts, 'fail')} fail, **${count(verdicts, 'inconclusive')} inconclusive**${code ? ` (exit ${code})` : ''}`;

/** A table's cell of the tests that differ from the reference run, by rule id. */
export const differingCell = (titles: string[]): string =>
  titles.length === 0 ? 'none' : `${titles.length}: ${titles.map((t) => t.split(' ')[0]).join(', ')}`;
