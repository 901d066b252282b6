import { rule } from './define';

const op = 'submit-tree' as const;
// Deduplication is judged against an accepted submission, which is committed: every DEDUP rule writes.
const W = '@writes' as const;
const CHANGE_ID =
  'The triple (userId, actAs as a set of party names, commandId) is the change ID; it matches intended ledger changes to their completions.';

export const deduplicationRules = [
  rule({
    id: 'SUB-DEDUP-SAME-CHANGE-ID',
    operation: op,
    level: 'interface',
    tags: [W, '@flagship'],
    clause: { section: '2.1 commandId', text: CHANGE_ID },
    title: 'a second submission of the same change ID within the period is rejected as a duplicate',
  }),
  rule({
    id: 'SUB-DEDUP-COMPLETION-OFFSET',
    operation: op,
    level: 'canton',
    tags: [W],
    clause: {
      section: '2.1 deduplicationPeriod',
      text: 'Deduplication period for the change ID. (Canton: DUPLICATE_COMMAND, 409, context.completion_offset of the first.)',
    },
    title: 'the duplicate rejection is DUPLICATE_COMMAND carrying the first completion offset',
  }),
  rule({
    id: 'SUB-DEDUP-ACTAS-ORDER',
    operation: op,
    level: 'interface',
    tags: [W],
    clause: { section: '2.1 commandId', text: CHANGE_ID },
    title: 'actAs in another order is the same change ID',
    needs: ['two-act-as'],
  }),
  rule({
    id: 'SUB-DEDUP-SUBMISSION-ID',
    operation: op,
    level: 'interface',
    tags: [W],
    clause: {
      section: '2.1 submissionId',
      text: 'Distinguishes completions of different submissions with the same change ID.',
    },
    title: 'another submissionId is still the same change ID',
  }),
  rule({
    id: 'SUB-DEDUP-READAS',
    operation: op,
    level: 'interface',
    tags: [W],
    clause: { section: '2.1 commandId', text: CHANGE_ID },
    title: 'another readAs is still the same change ID',
  }),
  rule({
    id: 'SUB-DEDUP-NEW-COMMAND-ID',
    operation: op,
    level: 'interface',
    tags: [W],
    clause: { section: '2.1 commandId', text: CHANGE_ID },
    title: 'another commandId is a new change',
  }),
  rule({
    id: 'SUB-DEDUP-NEW-USER-ID',
    operation: op,
    level: 'interface',
    tags: [W, '@auth'],
    clause: { section: '2.1 commandId', text: CHANGE_ID },
    title: 'another userId is a new change',
    needs: ['another-user'],
  }),
  rule({
    id: 'SUB-DEDUP-NEW-ACTAS',
    operation: op,
    level: 'interface',
    tags: [W],
    clause: { section: '2.1 commandId', text: CHANGE_ID },
    title: 'another actAs set is a new change',
    needs: ['two-act-as'],
  }),
  rule({
    id: 'SUB-DEDUP-REJECTED-RETRY',
    operation: op,
    level: 'canton',
    tags: [W],
    clause: {
      section: '2.1 submissionId',
      text: 'a different value is used for each retry. (Canton: only accepted submissions deduplicate.)',
    },
    title: 'a rejected submission does not block its retry',
  }),
  rule({
    id: 'SUB-DEDUP-EXPIRY',
    operation: op,
    level: 'interface',
    tags: [W, '@slow'],
    clause: { section: '2.1 deduplicationPeriod', text: 'Deduplication period for the change ID.' },
    title: 'after the deduplication period the same change ID is accepted again',
  }),
  rule({
    id: 'SUB-DEDUP-PARALLEL',
    operation: op,
    level: 'canton',
    tags: [W, '@flagship'],
    clause: {
      section: '2.1 commandId',
      text: 'The change ID matches intended ledger changes to their completions. (Canton: of N parallel identical submissions exactly one is accepted.)',
    },
    title: 'of parallel identical submissions exactly one is accepted',
  }),
  rule({
    id: 'SUB-DEDUP-NEGATIVE-PERIOD',
    operation: op,
    level: 'canton',
    tags: [W],
    clause: {
      section: '2.3',
      text: 'DeduplicationDuration: a Duration. (Canton: a negative duration is INVALID_FIELD.)',
    },
    title: 'a negative deduplication duration is rejected',
  }),
];
