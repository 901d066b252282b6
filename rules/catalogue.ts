// The rule catalogue: the single list the suite, the report, the rule matrix and the coverage self-test read.
// Ids are stable and never reused; retire a rule by deleting it, never by renaming another into its place.
import type { Rule } from './types';
import type { Need } from './needs';
import { versionRules } from './groups/version';
import { vettingRules } from './groups/vetting';
import { submissionRules } from './groups/submission';
import { deduplicationRules } from './groups/deduplication';
import { authRules } from './groups/auth';
import { generalRules } from './groups/general';

export type { Rule, Level, Tag, Operation, Group } from './types';
export { GROUP_NAMES } from './types';

const ROWS = [
  ...versionRules,
  ...vettingRules,
  ...submissionRules,
  ...deduplicationRules,
  ...authRules,
  ...generalRules,
];

/** The id of a catalogued rule: a literal naming none is a type error wherever an id is typed `RuleId`. */
export type RuleId = (typeof ROWS)[number]['id'];

export const RULES: readonly Rule[] = ROWS;

const byId = new Map(RULES.map((r) => [r.id, r]));

export function ruleById(id: string): Rule | undefined {
  return byId.get(id);
}

/** The rule id a test title starts with (`VET-PAGE-ORDER entries are sorted…` → `VET-PAGE-ORDER`). */
export function ruleIdOfTitle(title: string): string | undefined {
  const m = /^([A-Z]+(?:-[A-Z0-9]+)+)(?:\s|$)/.exec(title);
  return m?.[1];
}

/** The rule behind a test title, or undefined when the title names no catalogued rule. */
export function ruleOfTitle(title: string): Rule | undefined {
  const id = ruleIdOfTitle(title);
  return id === undefined ? undefined : byId.get(id);
}

/** What rule `id` needs of the target and the settings (its row's `needs`; none for an unknown id). */
export function needsOf(id: string): readonly Need[] {
  return byId.get(id)?.needs ?? [];
}
