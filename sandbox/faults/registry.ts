// The failpoint registry (as tikv/fail-rs's `fail_point!` or etcd's gofail): the set of enabled fault names
// that the sandbox's code asks at the one place a behavioural fault deviates (`faults.has('vet-page-skip')`).
// A leaf module on purpose: it loads nothing, so context.ts, the routes and vetting/ can hold a FaultSet
// without loading the catalogue (whose groups import the sandbox's code), and no import cycle can form. It
// takes only the type of a fault's name from the catalogue, so a switch naming no catalogued fault is a type
// error. What a fault does lives in groups/; wiring it into an app (hooks, name checks) in install.ts.
import type { FaultName } from './catalogue';

export type { FaultName } from './catalogue';

export interface FaultSet {
  readonly names: readonly string[];
  readonly has: (name: FaultName) => boolean;
}

export const NO_FAULTS: FaultSet = { names: [], has: () => false };

/** The set of these names (duplicates kept once, order of first appearance). */
export function faultSet(names: readonly string[]): FaultSet {
  const set = new Set(names);
  return { names: [...set], has: (name) => set.has(name) };
}
