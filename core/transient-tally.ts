// How many transient answers a run asked again, per operation: each test's annotations (fixtures/ledger.ts) and
// the checks before the tests (reports/target.json) add up here, for the run information and conformance.md.
import type { Retried } from './retry';

/** Per operation (`POST /v2/…`), per answer (`503 SERVICE_NOT_RUNNING`): how many were sent again. */
export type TransientTally = Record<string, Record<string, number>>;

/** A test annotation's description for one retried answer. */
export const retriedNote = (operation: string, r: Retried): string => `${operation}: ${r.transient.what}`;

/** Adds one retried answer, or a whole tally, to `into`. */
export function addToTally(into: TransientTally, operation: string, what: string, n = 1): TransientTally {
  const row = (into[operation] ??= {});
  row[what] = (row[what] ?? 0) + n;
  return into;
}

/** The notes of retried answers (annotations' descriptions) and other tallies, added up. */
export function tallyOf(notes: readonly string[], ...others: (TransientTally | undefined)[]): TransientTally {
  const tally: TransientTally = {};
  for (const other of others)
    for (const [op, row] of Object.entries(other ?? {}))
      for (const [what, n] of Object.entries(row)) addToTally(tally, op, what, n);
  for (const note of notes) {
    const at = note.lastIndexOf(': ');
    if (at > 0) addToTally(tally, note.slice(0, at), note.slice(at + 2));
  }
  return tally;
}

export const tallyTotal = (t: TransientTally): number =>
  Object.values(t).reduce((n, row) => n + Object.values(row).reduce((a, b) => a + b, 0), 0);

/** "12 (POST /v2/…: 503 SERVICE_NOT_RUNNING ×9, 409 SERVER_OVERLOADED ×3; GET /v2/version: 503 …)", or "none". */
export function tallyWords(t: TransientTally): string {
  const total = tallyTotal(t);
  if (total === 0) return 'none';
  const ops = Object.entries(t)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(
      ([op, row]) =>
        `${op}: ${Object.entries(row)
          .map(([what, n]) => (n > 1 ? `${what} ×${n}` : what))
          .join(', ')}`,
    );
  return `${total} (${ops.join('; ')})`;
}
