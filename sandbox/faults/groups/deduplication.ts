// Faults that break the deduplication rules (SUB-DEDUP-*, tests/deduplication.spec.ts): at least one per
// rule. Those in the answer rewrite the error body (helpers in submission-kit.ts); those in behaviour are
// switched by name in submission-hooks.ts, where the ledger computes the change ID, applies the period and
// reads its index.
import { cantonError, invalidArgument } from '../../errors';
import { fault } from '../types';
import { errorOf, field, onError } from './submission-kit';

export const deduplicationFaults = [
  // In the answer.
  fault({
    name: 'sub-duplicate-wrong-offset',
    breaks: 'DUPLICATE_COMMAND names the offset after the earlier completion’s',
    rules: ['SUB-DEDUP-COMPLETION-OFFSET'],
    rewrite: {
      route: 'submit-tree',
      apply: (res) => {
        const e = errorOf(res);
        if (e?.code !== 'DUPLICATE_COMMAND') return undefined;
        e.context.completion_offset = String(Number(e.context.completion_offset) + 1);
        return res;
      },
    },
  }),
  fault({
    name: 'sub-duplicate-as-bad-request',
    breaks: 'a duplicate is answered 400 INVALID_ARGUMENT (category 8) instead of 409 ALREADY_EXISTS',
    rules: ['SUB-DEDUP-COMPLETION-OFFSET', 'SUB-DEDUP-PARALLEL'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(
        (e) => e.code === 'DUPLICATE_COMMAND',
        (e) =>
          cantonError('DUPLICATE_COMMAND', 'InvalidIndependentOfSystemState', e.cause, {
            context: e.context,
          }),
      ),
    },
  }),
  fault({
    name: 'sub-negative-dedup-wrong-code',
    breaks: 'a negative deduplication duration is INVALID_ARGUMENT instead of INVALID_FIELD',
    rules: ['SUB-DEDUP-NEGATIVE-PERIOD'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(field('deduplication_period'), (e) => invalidArgument(e.context.message ?? e.cause)),
    },
  }),
  // How the period is read.
  fault({
    name: 'sub-negative-dedup-accepted',
    breaks: 'a negative deduplication duration is accepted (read as no period given)',
    rules: ['SUB-DEDUP-NEGATIVE-PERIOD'],
  }),
  // How the ledger deduplicates.
  fault({
    name: 'sub-dedup-ignored',
    breaks: 'no deduplication: every submission of a change ID is accepted',
    rules: ['SUB-DEDUP-SAME-CHANGE-ID', 'SUB-DEDUP-PARALLEL'],
  }),
  fault({
    name: 'sub-dedup-actas-ordered',
    breaks: 'the change ID takes actAs as a list: the same parties in another order are a new change',
    rules: ['SUB-DEDUP-ACTAS-ORDER'],
  }),
  fault({
    name: 'sub-dedup-submission-id-in-key',
    breaks: 'the change ID includes the submissionId: a retry with a new submissionId is a new change',
    rules: ['SUB-DEDUP-SUBMISSION-ID'],
  }),
  fault({
    name: 'sub-dedup-readas-in-key',
    breaks: 'the change ID includes readAs: another readAs is a new change',
    rules: ['SUB-DEDUP-READAS'],
  }),
  fault({
    name: 'sub-dedup-command-id-only',
    breaks: 'the change ID is the commandId alone: the same commandId for other actAs parties is a duplicate',
    rules: ['SUB-DEDUP-NEW-ACTAS'],
  }),
  fault({
    name: 'sub-dedup-command-id-truncated',
    breaks: 'the change ID keeps only the first 40 characters of the commandId: different commandIds collide',
    rules: ['SUB-DEDUP-NEW-COMMAND-ID'],
  }),
  fault({
    name: 'sub-dedup-rejected-recorded',
    breaks: 'a submission rejected when its commands run still registers its change ID, blocking the retry',
    rules: ['SUB-DEDUP-REJECTED-RETRY'],
  }),
  fault({
    name: 'sub-dedup-period-ignored',
    breaks: 'the requested deduplication period is ignored: the maximum (7 days) always applies',
    rules: ['SUB-DEDUP-EXPIRY'],
  }),
  fault({
    name: 'sub-dedup-period-halved',
    breaks: 'the deduplication period ends after half the requested duration',
    rules: ['SUB-DEDUP-EXPIRY'],
  }),
  fault({
    name: 'sub-dedup-index-lag',
    breaks: 'acceptances reach the deduplication index 100 ms late: quick or parallel duplicates get through',
    rules: ['SUB-DEDUP-PARALLEL', 'SUB-DEDUP-SAME-CHANGE-ID'],
  }),
  // The default suite runs this rule: against the in-process sandbox the harness acts as a second dev user.
  fault({
    name: 'sub-dedup-user-ignored',
    breaks: 'the change ID leaves out the userId: the same command of another user is a duplicate',
    rules: ['SUB-DEDUP-NEW-USER-ID'],
  }),
];
