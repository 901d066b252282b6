// Canton unique identifiers `<identifier>::<namespace>` and their order. Canton sorts vetting entries by
// identifier first, then namespace (orderingIdentifierThenNamespace), not by the whole string:
// `da::1220…` sorts before `da1::1220…`, although ':' > '1' puts it after in plain string order.
import { uniqueIdentifierError } from '../ids';

export interface Uid {
  readonly identifier: string;
  readonly namespace: string;
  /** The id as sent on the wire: identifier + '::' + namespace. */
  readonly full: string;
}

/** Splits a valid id at its first `::` (the identifier cannot contain `::`). */
export function uid(full: string): Uid {
  const pos = full.indexOf('::');
  return { identifier: full.slice(0, pos), namespace: full.slice(pos + 2), full };
}

/** Canton's reason why this is not a unique identifier, or undefined when it is one. */
export const uidError = (s: string): string | undefined => uniqueIdentifierError(s);

/** Java String.compareTo: UTF-16 code units, the same as JavaScript's `<`. */
const cmp = (a: string, b: string): number => (a < b ? -1 : a > b ? 1 : 0);

export const compareUid = (a: Uid, b: Uid): number =>
  cmp(a.identifier, b.identifier) || cmp(a.namespace, b.namespace);
