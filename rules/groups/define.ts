import type { Rule } from '../types';

/**
 * One catalogue entry, its fields named: the id, the operation, the level, the tags, the clause of the interface
 * document it comes from, its title, and what it needs of the target and the settings to be judged at all.
 */
export type RuleRow = Omit<Rule, 'needs'> & Partial<Pick<Rule, 'needs'>>;

export function rule(row: RuleRow): Rule {
  return { ...row, needs: row.needs ?? [] };
}
