// Settings a fault needs to be seen: a few rules only run against a participant configured a certain way
// (a release that knows tapsMaxPasses, no authentication, the document's strict reading, the 3.5 removal of
// the tree endpoint). The mutation runner starts such a fault's sandbox with `sandbox` settings, runs the
// harness with `harness` settings, and judges it against a clean sandbox started with the same profile.
export interface FaultProfile {
  /** kebab-case; names the profile's clean run in the matrix (`clean@<name>`). */
  name: string;
  /** Why the fault needs it, for the matrix. */
  why: string;
  /** SANDBOX_* settings of the fault's sandbox (and of its clean twin). */
  sandbox: Record<string, string>;
  /** LEDGER_* settings of the harness run against them. */
  harness: Record<string, string>;
}

export const PROFILES = {
  taps: {
    name: 'taps',
    why: 'tapsMaxPasses exists from 3.4.12',
    sandbox: { SANDBOX_VERSION: '3.4.12' },
    harness: {},
  },
  noAuth: {
    name: 'no-auth',
    why: 'without authentication a body may name any userId',
    sandbox: { SANDBOX_AUTH: 'none' },
    harness: { LEDGER_AUTH: 'none' },
  },
  strictInterface: {
    name: 'strict-interface',
    why: "the rule is one Canton deviates from: only the document's strict reading can break it",
    sandbox: { SANDBOX_MODE: 'strict-interface' },
    harness: { LEDGER_EXPECTATIONS: 'none' },
  },
  treeRemoved35: {
    name: 'tree-removed-3-5',
    why: 'a 3.5 participant that follows the document (in all things) has removed the tree endpoint',
    sandbox: {
      SANDBOX_VERSION: '3.5.10',
      SANDBOX_REMOVE_TREE_IN_35: 'true',
      SANDBOX_MODE: 'strict-interface',
    },
    harness: { LEDGER_EXPECTATIONS: 'none' },
  },
  live: {
    name: 'live',
    why: 'the fault shows only while the vetting changes during a walk: a change after every listing request',
    sandbox: { SANDBOX_VETTING_CHANGE_EVERY_REQUESTS: '1' },
    harness: {},
  },
  canton35: {
    name: 'canton-3-5',
    why: 'Canton 3.5 still serves the tree endpoint (a known deviation): only a 3.5 release shows it',
    sandbox: { SANDBOX_VERSION: '3.5.10' },
    harness: {},
  },
} as const satisfies Record<string, FaultProfile>;

/** `SANDBOX_MODE=strict-interface; harness: LEDGER_EXPECTATIONS=none`, for a matrix row. */
export function describeProfile(p: FaultProfile): string {
  const pairs = (o: Record<string, string>) => Object.entries(o).map(([k, v]) => `${k}=${v}`);
  const harness = pairs(p.harness);
  return [pairs(p.sandbox).join(' '), harness.length > 0 ? `harness: ${harness.join(' ')}` : '']
    .filter(Boolean)
    .join('; ');
}
