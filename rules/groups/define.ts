import type { Level, Operation, Rule, Tag } from '../types';

/** One catalogue entry, written as a row: id, level, tags, the clause, the rule. */
export function rule(
  id: string,
  operation: Operation,
  level: Level,
  tags: Tag[],
  section: string,
  text: string,
  title: string,
): Rule {
  return { id, operation, level, tags, clause: { section, text }, title };
}
