// The rejections raised at or after interpretation. Over JSON they reach the client decoded from a gRPC
// status, so the body's definiteAnswer is null even where context.definite_answer is "true", and resource
// keys print as Scala's `ErrorResource(KIND)` (docs/canton-behaviour.md §1.1).
import { cantonError, type CantonError, type CategoryName } from '../errors';

function decoded(
  code: string,
  category: CategoryName,
  cause: string,
  opts: { context?: Record<string, string>; resources?: string[][]; definiteAnswer?: boolean } = {},
): CantonError {
  const err = cantonError(code, category, cause, opts);
  err.body.definiteAnswer = null;
  return err;
}

/** Scala's Set.toString as ChangeId prints it in the duplicate's context (rendering not confirmed; the harness does not assert the context beyond completion_offset). */
function scalaSet(items: readonly string[]): string {
  return items.length <= 4 ? `Set(${items.join(', ')})` : `HashSet(${[...items].sort().join(', ')})`;
}

export const changeIdText = (userId: string, commandId: string, actAs: readonly string[]): string =>
  `ChangeId(${userId},${commandId},${scalaSet(actAs)})`;

/** DUPLICATE_COMMAND (409): the change ID was accepted within the deduplication period. */
export const duplicateCommand = (completionOffset: number, existingSubmissionId: string, changeId: string) =>
  decoded(
    'DUPLICATE_COMMAND',
    'InvalidGivenCurrentSystemStateResourceExists',
    'Command submission already exists.',
    {
      definiteAnswer: true,
      context: {
        completion_offset: String(completionOffset),
        accepted: 'true',
        existingSubmissionId: `Some(${existingSubmissionId})`,
        changeId,
      },
    },
  );

/** INVALID_DEDUPLICATION_PERIOD (400): the period reaches behind what the sandbox still remembers. */
export const dedupPeriodTooEarly = (earliestOffset: number) =>
  decoded(
    'INVALID_DEDUPLICATION_PERIOD',
    'InvalidGivenCurrentSystemStateOther',
    'Deduplication period starts too early. The error metadata field earliest_offset contains the earliest deduplication offset currently allowed.',
    { definiteAnswer: true, context: { earliest_offset: String(earliestOffset) } },
  );

/** CONTRACT_NOT_FOUND (404): unknown, archived, or not visible to actAs ∪ readAs. */
export const contractNotFound = (contractId: string) =>
  decoded(
    'CONTRACT_NOT_FOUND',
    'InvalidGivenCurrentSystemStateResourceMissing',
    `Contract could not be found with id ${contractId}`,
    { resources: [['ErrorResource(CONTRACT_ID)', contractId]] },
  );

/** CONTRACT_NOT_ACTIVE (404): consumed earlier in the same transaction. */
export const contractNotActive = (contractId: string, templateId: string) =>
  decoded(
    'CONTRACT_NOT_ACTIVE',
    'InvalidGivenCurrentSystemStateResourceMissing',
    `Interpretation error: Error: Update failed due to fetch of an inactive contract ${contractId} (${templateId}).`,
    {
      resources: [
        ['ErrorResource(TEMPLATE_ID)', templateId],
        ['ErrorResource(CONTRACT_ID)', contractId],
      ],
    },
  );

/** DAML_AUTHORIZATION_ERROR (400): a node needs authorizers the submission does not provide. */
export const authorizationError = (
  nodeId: number,
  templateId: string,
  what: string,
  required: string[],
  given: string[],
) =>
  decoded(
    'DAML_AUTHORIZATION_ERROR',
    'InvalidIndependentOfSystemState',
    `Interpretation error: Error: node NodeId(${nodeId}) (${templateId}) requires ${what} ${required.join(', ')}, but only ${given.join(', ')} were given`,
  );

/** INVALID_PRESCRIBED_SYNCHRONIZER_ID (400): routing to a synchronizer the participant is not connected to. */
export const unknownSynchronizer = (synchronizerId: string) =>
  decoded(
    'INVALID_PRESCRIBED_SYNCHRONIZER_ID',
    'InvalidGivenCurrentSystemStateOther',
    `Cannot submit transaction to prescribed synchronizer \`${synchronizerId}\` because: the participant is not connected to it`,
  );
