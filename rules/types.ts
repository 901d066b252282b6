// The shape of a catalogue entry: what a rule is, where the interface document states it, how it is judged.

import type { Need } from './needs';

export type Operation = 'version' | 'vetting-list' | 'submit-tree' | 'all';
export type Level = 'interface' | 'canton';
/**
 * `@readonly`: judged without anything a participant could commit (reads, and inert submissions: core/inert.ts);
 * `@writes`: judged through a command that could be committed (its group says why). Every rule has exactly one.
 */
export type Tag = '@readonly' | '@writes' | '@auth' | '@slow' | '@sandbox-only' | '@flagship';
export type Group = 'VER' | 'VET' | 'SUB' | 'AUTH' | 'GEN';

export interface Rule {
  /** Stable, never reused: `<GROUP>-<WORDS>`. Test titles start with it. */
  id: string;
  /** The rule in the interface's words (or Canton's behaviour, for canton-level rules). */
  title: string;
  operation: Operation;
  /** Section of the interface document and the sentence the rule comes from ("not shown" → Canton's source). */
  clause: { section: string; text: string };
  /** interface: the document states it; canton: the document is silent and Canton is the reference. */
  level: Level;
  tags: Tag[];
  /** What the rule needs of the target and the settings to be judged at all: unmet, its tests skip and the
   * preflight forecasts the skip (core/rule-needs.ts). A row without needs gets none. */
  needs: readonly Need[];
}

export const GROUP_NAMES: Record<Group, string> = {
  VER: 'Version',
  VET: 'Vetting list',
  SUB: 'Submission',
  AUTH: 'Authentication',
  GEN: 'General',
};
