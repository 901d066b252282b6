// Inert submissions: what a rule that must not write sends. A participant authorizes and validates a submission
// before it interprets the commands (Canton: docs/canton-behaviour.md §1.3), so one led by an exercise of a
// contract that cannot exist gets every answer a valid one would up to interpretation — and there, where the
// transaction would be built, it fails on any participant, whichever check before it is broken. A transaction
// is atomic: the commands after the exercise are never committed either.
import type { Command } from './api-types';

/**
 * A contract id no participant holds: Daml-LF V1 syntax (`00`, a 32-byte discriminator, Canton's `ca10` suffix and a
 * SHA-256 multihash) whose discriminator and hash are all zeros. Both are hash outputs, so no contract ever gets
 * this id; it passes every syntax check and fails only when the participant looks the contract up.
 */
export const NO_SUCH_CONTRACT_ID = `00${'0'.repeat(64)}ca101220${'0'.repeat(64)}`;

/**
 * An exercise of NO_SUCH_CONTRACT_ID on the template of `cmd`, with its choice and argument when it names one
 * (they transcode, since the command does), else the Archive every Daml template has.
 */
export function noSuchContractExercise(cmd: Command): Command {
  const body = (Object.values(cmd)[0] ?? {}) as Record<string, unknown>;
  const named = typeof body.choice === 'string';
  return {
    ExerciseCommand: {
      templateId: body.templateId,
      contractId: NO_SUCH_CONTRACT_ID,
      choice: named ? body.choice : 'Archive',
      choiceArgument: named ? (body.choiceArgument ?? {}) : {},
    },
  };
}

/** Whether parsed commands lead with the exercise of NO_SUCH_CONTRACT_ID; anything but a list, or none, runs nothing. */
function leadsWithNoSuchContract(commands: unknown): boolean {
  if (!Array.isArray(commands) || commands.length === 0) return true;
  const first = (commands[0] as { ExerciseCommand?: { contractId?: unknown } } | null | undefined)
    ?.ExerciseCommand;
  return first?.contractId === NO_SUCH_CONTRACT_ID;
}

/**
 * Whether a submission body (an object, or the text or bytes sent as is) cannot be committed: its commands lead
 * with the exercise of NO_SUCH_CONTRACT_ID, or it holds no list of commands at all. Text that does not parse
 * counts only when it names no commands or carries the exercise (a lenient parser must find nothing to run).
 */
export function isInertSubmission(body: unknown): boolean {
  if (typeof body !== 'string' && !Buffer.isBuffer(body)) {
    return leadsWithNoSuchContract((body as { commands?: unknown } | null | undefined)?.commands);
  }
  const text = body.toString();
  try {
    const parsed: unknown = JSON.parse(text);
    return leadsWithNoSuchContract((parsed as { commands?: unknown } | null)?.commands);
  } catch {
    return !text.includes('"commands"') || text.includes(NO_SUCH_CONTRACT_ID);
  }
}
