// The rules a run blocks when a check resting on the participant's own answers found the template's package
// missing from its vetting listing (scripts/preflight/checks.ts): only those whose commands need that package,
// each skipping with what the listing said. The VET- rules still judge the listing; the run then exits 1 when
// one of them fails (the participant is broken) and 2, naming the setting, when they all pass.
import type { Rule } from '../rules/catalogue';
import { handOff, runContext } from './run-context';

type Env = Record<string, string | undefined>;

export interface Blocked {
  /** The one line naming the setting, as the preflight prints it. */
  line: string;
  /** What the participant answered. */
  answered: string;
}

/** A rule whose commands could commit (so name the template's package) on the submission endpoint. */
export const needsVettedTemplate = (rule: Pick<Rule, 'tags' | 'operation'>): boolean =>
  rule.tags.includes('@writes') && rule.operation === 'submit-tree';

export function handOffBlocked(blocked: Blocked | undefined, env: Env = process.env): void {
  handOff({ blocked: blocked && JSON.stringify(blocked) }, env);
}

export function blockedOf(env: Env = process.env): Blocked | undefined {
  const text = runContext(env).blocked;
  return text === undefined ? undefined : (JSON.parse(text) as Blocked);
}

/** The skip reason of a blocked rule: what the listing said, and who judges it. */
export const blockedReason = (b: Blocked): string =>
  `blocked by the participant's vetting listing: ${b.answered}; the VET- rules judge that listing`;
