// Faults that break the deduplication rules (SUB-DEDUP-*, tests/deduplication.spec.ts): at least one per
// rule. Those in the answer rewrite the error body (helpers in submission-kit.ts); those in behaviour are
// switched by name in submission-hooks.ts, where the ledger computes the change ID, applies the period and
// reads its index.
import { cantonError, invalidArgument } from '../../errors';
import { type Fault } from '../types';
import { conformance, errorOf, field, onError } from './submission-kit';

export const deduplicationFaults: Fault[] = [
  // In the answer.
  conformance(
    'sub-duplicate-wrong-offset',
    'DUPLICATE_COMMAND names the offset after the earlier completion’s',
    ['SUB-DEDUP-COMPLETION-OFFSET'],
    (res) => {
      const e = errorOf(res);
      if (e?.code !== 'DUPLICATE_COMMAND') return undefined;
      e.context.completion_offset = String(Number(e.context.completion_offset) + 1);
      return res;
    },
  ),
  conformance(
    'sub-duplicate-as-bad-request',
    'a duplicate is answered 400 INVALID_ARGUMENT (category 8) instead of 409 ALREADY_EXISTS',
    ['SUB-DEDUP-COMPLETION-OFFSET', 'SUB-DEDUP-PARALLEL'],
    onError(
      (e) => e.code === 'DUPLICATE_COMMAND',
      (e) =>
        cantonError('DUPLICATE_COMMAND', 'InvalidIndependentOfSystemState', e.cause, { context: e.context }),
    ),
  ),
  conformance(
    'sub-negative-dedup-wrong-code',
    'a negative deduplication duration is INVALID_ARGUMENT instead of INVALID_FIELD',
    ['SUB-DEDUP-NEGATIVE-PERIOD'],
    onError(field('deduplication_period'), (e) => invalidArgument(e.context.message ?? e.cause)),
  ),
  // How the period is read.
  conformance(
    'sub-negative-dedup-accepted',
    'a negative deduplication duration is accepted (read as no period given)',
    ['SUB-DEDUP-NEGATIVE-PERIOD'],
  ),
  // How the ledger deduplicates.
  conformance('sub-dedup-ignored', 'no deduplication: every submission of a change ID is accepted', [
    'SUB-DEDUP-SAME-CHANGE-ID',
    'SUB-DEDUP-PARALLEL',
  ]),
  conformance(
    'sub-dedup-actas-ordered',
    'the change ID takes actAs as a list: the same parties in another order are a new change',
    ['SUB-DEDUP-ACTAS-ORDER'],
  ),
  conformance(
    'sub-dedup-submission-id-in-key',
    'the change ID includes the submissionId: a retry with a new submissionId is a new change',
    ['SUB-DEDUP-SUBMISSION-ID'],
  ),
  conformance('sub-dedup-readas-in-key', 'the change ID includes readAs: another readAs is a new change', [
    'SUB-DEDUP-READAS',
  ]),
  conformance(
    'sub-dedup-command-id-only',
    'the change ID is the commandId alone: the same commandId for other actAs parties is a duplicate',
    ['SUB-DEDUP-NEW-ACTAS'],
  ),
  conformance(
    'sub-dedup-command-id-truncated',
    'the change ID keeps only the first 40 characters of the commandId: different commandIds collide',
    ['SUB-DEDUP-NEW-COMMAND-ID'],
  ),
  conformance(
    'sub-dedup-rejected-recorded',
    'a submission rejected when its commands run still registers its change ID, blocking the retry',
    ['SUB-DEDUP-REJECTED-RETRY'],
  ),
  conformance(
    'sub-dedup-period-ignored',
    'the requested deduplication period is ignored: the maximum (7 days) always applies',
    ['SUB-DEDUP-EXPIRY'],
  ),
  conformance('sub-dedup-period-halved', 'the deduplication period ends after half the requested duration', [
    'SUB-DEDUP-EXPIRY',
  ]),
  conformance(
    'sub-dedup-index-lag',
    'acceptances reach the deduplication index 100 ms late: quick or parallel duplicates get through',
    ['SUB-DEDUP-PARALLEL', 'SUB-DEDUP-SAME-CHANGE-ID'],
  ),
  // The default suite runs this rule: against the in-process sandbox the harness acts as a second dev user.
  conformance(
    'sub-dedup-user-ignored',
    'the change ID leaves out the userId: the same command of another user is a duplicate',
    ['SUB-DEDUP-NEW-USER-ID'],
  ),
];
