import type { Rule } from '../types';

/**
 * One catalogue entry, its fields named: the id, the operation, the level, the tags, the clause of the interface
 * document it comes from, its title, and what it needs of the target and the settings to be judged at all.
 */
export type RuleRow = Omit<Rule, 'needs'> & Partial<Pick<Rule, 'needs'>>;

/** One rule, its id kept as a literal type (the catalogue's `RuleId` is the union of them). */
export function rule<const Id extends string>(row: RuleRow & { id: Id }): Rule & { id: Id } {
  return { ...row, needs: row.needs ?? [] };
}
