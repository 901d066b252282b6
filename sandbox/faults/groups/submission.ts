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
import { fault } from '../types';
import { deduplicationFaults } from './deduplication';
import { responseFaults } from './submission-responses';

const behaviourFaults = [
  // How the body is decoded.
  fault({
    name: 'sub-command-id-absent-defaulted',
    breaks: 'a body without commandId is read as commandId "" (MISSING_FIELD) instead of failing to decode',
    rules: ['SUB-COMMANDID-MISSING-CODE'],
  }),
  fault({
    name: 'sub-unknown-fields-rejected',
    breaks: 'request fields the participant does not know are rejected (strict decoding) instead of ignored',
    rules: ['SUB-UNKNOWN-FIELDS'],
  }),
  fault({
    name: 'sub-taps-field-rejected',
    breaks: 'tapsMaxPasses is an unknown field to the participant’s strict decoder: any value is a 400',
    rules: ['SUB-TAPS-WITHIN-LIMIT'],
  }),
  fault({
    name: 'sub-readas-empty-refused',
    breaks:
      'an explicitly empty readAs list is refused as MISSING_FIELD read_as, as if it had to be non-empty like actAs',
    rules: ['SUB-EMPTY-LISTS', 'SUB-DEDUP-READAS'],
  }),
  fault({
    name: 'sub-wrong-types-coerced',
    breaks: 'values of the wrong JSON type are coerced (42 → "42", "p" → ["p"]) instead of failing to decode',
    rules: ['SUB-WRONG-TYPES'],
  }),
  fault({
    name: 'sub-malformed-json-internal-error',
    breaks: 'a body that is not JSON crashes the participant: 500 instead of 400 "Invalid value for: body"',
    rules: ['SUB-MALFORMED-JSON'],
  }),
  fault({
    name: 'sub-decode-failure-as-canton-error',
    breaks: 'an undecodable body is answered with a JSON INVALID_ARGUMENT instead of tapir’s 400 text/plain',
    rules: ['SUB-MALFORMED-JSON', 'SUB-WRONG-TYPES'],
  }),
  // How the command is understood.
  fault({
    name: 'sub-command-id-empty-generated',
    breaks: 'an empty commandId is replaced by a generated one and the command runs',
    rules: ['SUB-COMMANDID-MISSING'],
  }),
  fault({
    name: 'sub-ledgerstring-sanitized',
    breaks:
      'commandId, workflowId and submissionId with forbidden characters or over 255 are cleaned up and accepted',
    rules: ['SUB-LEDGERSTRING-INVALID', 'SUB-LEDGERSTRING-INVALID-CODE'],
  }),
  fault({
    name: 'sub-ledgerstring-no-dot',
    breaks: 'LedgerStrings with "." are rejected (the proto comment’s grammar, stricter than Canton’s code)',
    rules: ['SUB-LEDGERSTRING-BOUNDARY'],
  }),
  fault({
    name: 'sub-ledgerstring-max-254',
    breaks: 'LedgerStrings of 255 characters are rejected (off by one)',
    rules: ['SUB-LEDGERSTRING-BOUNDARY'],
  }),
  fault({
    name: 'sub-party-no-space',
    breaks: 'a first actAs party with a space is rejected as malformed (stricter than PartyIdString)',
    rules: ['SUB-PARTY-BOUNDARY'],
  }),
  fault({
    name: 'sub-party-malformed-dropped',
    breaks:
      'malformed parties after the first actAs party (later actAs, readAs) are silently dropped instead of refused',
    rules: ['SUB-PARTY-INVALID'],
  }),
  fault({
    name: 'sub-userid-body-wins-over-token',
    breaks: 'a userId other than the token user is not refused: the token user silently replaces it',
    rules: ['SUB-USERID-MISMATCH', 'SUB-USERID-INVALID'],
  }),
  fault({
    name: 'sub-userid-not-from-token',
    breaks: 'an omitted userId is not taken from the user token: INVALID_TOKEN "missing a user-id"',
    rules: ['SUB-USERID-FROM-TOKEN'],
  }),
  fault({
    name: 'sub-synchronizer-invalid-ignored',
    breaks: 'a malformed synchronizerId is ignored and the participant routes the command itself',
    rules: ['SUB-SYNCHRONIZER-INVALID', 'SUB-SYNCHRONIZER-INVALID-CODE'],
  }),
  fault({
    name: 'sub-synchronizer-unknown-rerouted',
    breaks:
      'a well-formed synchronizerId of no known synchronizer is ignored and the command routed elsewhere',
    rules: ['SUB-SYNCHRONIZER-UNKNOWN'],
  }),
  fault({
    name: 'sub-min-ledger-time-both-accepted',
    breaks: 'minLedgerTimeAbs and minLedgerTimeRel together are accepted (the relative one is dropped)',
    rules: ['SUB-MIN-LEDGER-TIME-BOTH', 'SUB-MIN-LEDGER-TIME-BOTH-CODE'],
  }),
  fault({
    name: 'sub-min-ledger-time-abs-ignored',
    breaks: 'minLedgerTimeAbs alone is ignored: the effective time may precede it',
    rules: ['SUB-MIN-LEDGER-TIME-ABS'],
  }),
  fault({
    name: 'sub-min-ledger-time-rel-ignored',
    breaks: 'minLedgerTimeRel alone is ignored: the effective time is the receive time',
    rules: ['SUB-MIN-LEDGER-TIME-REL'],
  }),
  fault({
    name: 'sub-min-ledger-time-rel-nanos-dropped',
    breaks: 'minLedgerTimeRel counts whole seconds only: its nanos are dropped',
    rules: ['SUB-MIN-LEDGER-TIME-REL'],
  }),
];

/** Faults of rules that only run with a setting: each carries the profile its sandbox and harness need. */
const profiled = [
  fault({
    name: 'sub-taps-nonpositive-accepted',
    breaks: 'tapsMaxPasses of zero or less is accepted (the participant falls back to its default)',
    rules: ['SUB-TAPS-NONPOSITIVE'],
    profile: PROFILES.taps,
  }),
  fault({
    name: 'sub-userid-no-at-sign',
    breaks: 'userIds with "@" are rejected (stricter than UserIdString)',
    rules: ['SUB-USERID-BOUNDARY'],
    profile: PROFILES.noAuth,
  }),
  fault({
    name: 'sub-tree-not-removed',
    breaks: 'a 3.5 release still serves the transaction tree the document removes in 3.5.0',
    rules: ['SUB-TREE-REMOVED-3-5'],
    profile: PROFILES.treeRemoved35,
  }),
];

export const submissionFaults = [...responseFaults, ...behaviourFaults, ...profiled];

/** Every fault the submit route's hooks may switch on, deduplication's included. */
const submitRoute = [...submissionFaults, ...deduplicationFaults];

/** A name the submit route's hooks may ask for: another group's is a type error there, as a typo is. */
export type SubmitFaultName = (typeof submitRoute)[number]['name'];

export const SUBMISSION_FAULT_NAMES: readonly string[] = submitRoute.map((f) => f.name);
