// The failpoint registry (as tikv/fail-rs's `fail_point!` or etcd's gofail): the set of enabled fault names
// that the sandbox's code asks at the one place a behavioural fault deviates (`faults.has('vet-page-skip')`).
// A leaf module on purpose: it imports nothing, so context.ts, the routes and vetting/ can hold a FaultSet
// without depending on the catalogue (whose groups import the sandbox's code), and no import cycle can form.
// What a fault does lives in groups/; wiring it into an app (hooks, name checks) in install.ts.

export interface FaultSet {
  readonly names: readonly string[];
  has(name: string): boolean;
}

export const NO_FAULTS: FaultSet = { names: [], has: () => false };

/** The set of these names (duplicates kept once, order of first appearance). */
export function faultSet(names: readonly string[]): FaultSet {
  const set = new Set(names);
  return { names: [...set], has: (name) => set.has(name) };
}
