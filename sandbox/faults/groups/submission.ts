// Faults that break the submission rules (SUB-*, tests/submission-*.spec.ts; the SUB-DEDUP-* ones are in
// deduplication.ts): at least one per rule, more where a rule can break in several ways. Each is one small
// deviation a real participant could have.
//
// Two kinds, as sandbox/faults/README.md describes:
// - response rewrites (`rewrite`, submission-responses.ts): the tree or an error body as a broken participant
//   would write it (helpers in submission-kit.ts);
// - behaviour switches (here, switched on in submission-hooks.ts): `submitFaultHooks(names)` gives the submit
//   route and the ledger the few places a fault changes what the participant does (how it reads the body and
//   the command, how it deduplicates, how it answers an undecodable body). With no `sub-*` fault enabled it is
//   undefined and the default path runs untouched. The route imports the hooks from their own file: they read
//   this file's names, so a re-export from here would close an import cycle.
//
// A few rules are only observable with a setting (no authentication, a release that knows tapsMaxPasses,
// the 3.5 tree removal): their faults carry the profile (../profiles.ts) the mutation runner starts them with.
import { PROFILES } from '../profiles';
import { type Fault } from '../types';
import { deduplicationFaults } from './deduplication';
import { conformance } from './submission-kit';
import { responseFaults } from './submission-responses';

const behaviourFaults: Fault[] = [
  // How the body is decoded.
  conformance(
    'sub-command-id-absent-defaulted',
    'a body without commandId is read as commandId "" (MISSING_FIELD) instead of failing to decode',
    ['SUB-COMMANDID-MISSING-CODE'],
  ),
  conformance(
    'sub-unknown-fields-rejected',
    'request fields the participant does not know are rejected (strict decoding) instead of ignored',
    ['SUB-UNKNOWN-FIELDS'],
  ),
  conformance(
    'sub-taps-field-rejected',
    'tapsMaxPasses is an unknown field to the participant’s strict decoder: any value is a 400',
    ['SUB-TAPS-WITHIN-LIMIT'],
  ),
  conformance(
    'sub-readas-empty-refused',
    'an explicitly empty readAs list is refused as MISSING_FIELD read_as, as if it had to be non-empty like actAs',
    ['SUB-EMPTY-LISTS', 'SUB-DEDUP-READAS'],
  ),
  conformance(
    'sub-wrong-types-coerced',
    'values of the wrong JSON type are coerced (42 → "42", "p" → ["p"]) instead of failing to decode',
    ['SUB-WRONG-TYPES'],
  ),
  conformance(
    'sub-malformed-json-internal-error',
    'a body that is not JSON crashes the participant: 500 instead of 400 "Invalid value for: body"',
    ['SUB-MALFORMED-JSON'],
  ),
  conformance(
    'sub-decode-failure-as-canton-error',
    'an undecodable body is answered with a JSON INVALID_ARGUMENT instead of tapir’s 400 text/plain',
    ['SUB-MALFORMED-JSON', 'SUB-WRONG-TYPES'],
  ),
  // How the command is understood.
  conformance(
    'sub-command-id-empty-generated',
    'an empty commandId is replaced by a generated one and the command runs',
    ['SUB-COMMANDID-MISSING'],
  ),
  conformance(
    'sub-ledgerstring-sanitized',
    'commandId, workflowId and submissionId with forbidden characters or over 255 are cleaned up and accepted',
    ['SUB-LEDGERSTRING-INVALID', 'SUB-LEDGERSTRING-INVALID-CODE'],
  ),
  conformance(
    'sub-ledgerstring-no-dot',
    'LedgerStrings with "." are rejected (the proto comment’s grammar, stricter than Canton’s code)',
    ['SUB-LEDGERSTRING-BOUNDARY'],
  ),
  conformance('sub-ledgerstring-max-254', 'LedgerStrings of 255 characters are rejected (off by one)', [
    'SUB-LEDGERSTRING-BOUNDARY',
  ]),
  conformance(
    'sub-party-no-space',
    'a first actAs party with a space is rejected as malformed (stricter than PartyIdString)',
    ['SUB-PARTY-BOUNDARY'],
  ),
  conformance(
    'sub-party-malformed-dropped',
    'malformed parties after the first actAs party (later actAs, readAs) are silently dropped instead of refused',
    ['SUB-PARTY-INVALID'],
  ),
  conformance(
    'sub-userid-body-wins-over-token',
    'a userId other than the token user is not refused: the token user silently replaces it',
    ['SUB-USERID-MISMATCH', 'SUB-USERID-INVALID'],
  ),
  conformance(
    'sub-userid-not-from-token',
    'an omitted userId is not taken from the user token: INVALID_TOKEN "missing a user-id"',
    ['SUB-USERID-FROM-TOKEN'],
  ),
  conformance(
    'sub-synchronizer-invalid-ignored',
    'a malformed synchronizerId is ignored and the participant routes the command itself',
    ['SUB-SYNCHRONIZER-INVALID', 'SUB-SYNCHRONIZER-INVALID-CODE'],
  ),
  conformance(
    'sub-synchronizer-unknown-rerouted',
    'a well-formed synchronizerId of no known synchronizer is ignored and the command routed elsewhere',
    ['SUB-SYNCHRONIZER-UNKNOWN'],
  ),
  conformance(
    'sub-min-ledger-time-both-accepted',
    'minLedgerTimeAbs and minLedgerTimeRel together are accepted (the relative one is dropped)',
    ['SUB-MIN-LEDGER-TIME-BOTH', 'SUB-MIN-LEDGER-TIME-BOTH-CODE'],
  ),
  conformance(
    'sub-min-ledger-time-abs-ignored',
    'minLedgerTimeAbs alone is ignored: the effective time may precede it',
    ['SUB-MIN-LEDGER-TIME-ABS'],
  ),
  conformance(
    'sub-min-ledger-time-rel-ignored',
    'minLedgerTimeRel alone is ignored: the effective time is the receive time',
    ['SUB-MIN-LEDGER-TIME-REL'],
  ),
  conformance(
    'sub-min-ledger-time-rel-nanos-dropped',
    'minLedgerTimeRel counts whole seconds only: its nanos are dropped',
    ['SUB-MIN-LEDGER-TIME-REL'],
  ),
];

/** Faults of rules that only run with a setting: each carries the profile its sandbox and harness need. */
const profiled: Fault[] = [
  {
    ...conformance(
      'sub-taps-nonpositive-accepted',
      'tapsMaxPasses of zero or less is accepted (the participant falls back to its default)',
      ['SUB-TAPS-NONPOSITIVE'],
    ),
    profile: PROFILES.taps,
  },
  {
    ...conformance('sub-userid-no-at-sign', 'userIds with "@" are rejected (stricter than UserIdString)', [
      'SUB-USERID-BOUNDARY',
    ]),
    profile: PROFILES.noAuth,
  },
  {
    ...conformance(
      'sub-tree-not-removed',
      'a 3.5 release still serves the transaction tree the document removes in 3.5.0',
      ['SUB-TREE-REMOVED-3-5'],
    ),
    profile: PROFILES.treeRemoved35,
  },
];

export const submissionFaults: Fault[] = [...responseFaults, ...behaviourFaults, ...profiled];

/** Every fault name the submit route's hooks switch on, deduplication's included (for the hooks and their self-test). */
export const SUBMISSION_FAULT_NAMES: readonly string[] = [
  ...responseFaults,
  ...behaviourFaults,
  ...profiled,
  ...deduplicationFaults,
].map((f) => f.name);
