// Stages 6–7: the gRPC request validation, after authorization, in Canton's order. The tree endpoint first
// validates the transaction format it synthesises from actAs (FormatValidator), then CommandsValidator:
// workflowId → userId → commandId → submissionId → actAs/readAs → synchronizerId → commands non-empty →
// inner commands → min ledger time → dedup period → disclosed contracts → tapsMaxPasses.
// Codes follow FieldValidator: workflowId and parties are INVALID_ARGUMENT, the others INVALID_FIELD, and an
// empty commandId or commands list MISSING_FIELD.
import type { SandboxConfig } from '../config';
import { cantonError, invalidArgument, invalidField, missingField } from '../errors';
import {
  contractIdError,
  ledgerStringError,
  partyError,
  uniqueIdentifierError,
  userIdAllowsParentheses,
  userIdError,
} from '../ids';
import type { JsCommands } from './decode-commands';
import type { Transcoded } from './json-layer';
import { durationMicros, END_MICROS, formatMicros, MIN_MICROS } from './time';

export type DedupWindow = { kind: 'duration'; micros: number } | { kind: 'offset'; offset: number };

/** A submission that passed every check up to interpretation. */
export interface Validated {
  userId: string;
  commandId: string;
  /** "" when absent, as Canton echoes it. */
  workflowId: string;
  /** undefined when absent: the ledger then generates one, as Canton's generateSubmissionIdIfEmpty. */
  submissionId: string | undefined;
  /** Distinct, in request order. */
  actAs: string[];
  /** Distinct, minus actAs (Canton's effectiveSubmitters). */
  readAs: string[];
  synchronizerId: string;
  commands: Transcoded[];
  effectiveAt: number;
  dedup: DedupWindow;
  tapsMaxPasses: number;
}

const distinct = (xs: readonly string[]): string[] => (xs.length === 1 ? [...xs] : [...new Set(xs)]);

let lastVersion = '';
let lastParentheses = true;
/** The user-id grammar of the configured release, computed once per version. */
function parentheses(version: string): boolean {
  if (version !== lastVersion) {
    lastParentheses = userIdAllowsParentheses(version);
    lastVersion = version;
  }
  return lastParentheses;
}

function requireParties(parties: readonly string[]): void {
  for (const p of parties) {
    const err = partyError(p);
    if (err !== undefined) throw invalidArgument(err);
  }
}

/** Java's Instant.toString, also for instants outside the LF range (for the error text). */
function instantText(micros: number): string {
  const ms = Math.floor(micros / 1000);
  return Math.abs(ms) > 8.64e15 ? `${micros} microseconds since the epoch` : formatMicros(micros);
}

function ledgerTime(cmds: JsCommands, receivedAt: number): number {
  const { minLedgerTimeAbs: abs, minLedgerTimeRel: rel } = cmds;
  if (abs !== undefined && rel !== undefined) {
    throw invalidArgument('min_ledger_time_abs cannot be specified at the same time as min_ledger_time_rel');
  }
  // A negative relative bound never moves the ledger time before the receive time (see README).
  const t =
    abs !== undefined
      ? Math.max(receivedAt, abs)
      : rel !== undefined
        ? receivedAt + Math.max(0, durationMicros(rel.seconds, rel.nanos))
        : receivedAt;
  if (!(t >= MIN_MICROS && t < END_MICROS)) {
    throw invalidArgument(`Can not represent command ledger time ${instantText(t)} as a Daml timestamp`);
  }
  return t;
}

function dedupWindow(cmds: JsCommands, maxMicros: number): DedupWindow {
  const p = cmds.deduplicationPeriod;
  switch (p.kind) {
    case 'Empty':
      return { kind: 'duration', micros: maxMicros };
    case 'DeduplicationDuration': {
      const { seconds, nanos } = p.value;
      if (seconds * 1e9 + nanos < 0) {
        throw invalidField('deduplication_period', 'Duration must be positive');
      }
      return { kind: 'duration', micros: Math.max(0, durationMicros(seconds, nanos)) };
    }
    case 'DeduplicationOffset':
      if (p.value < 0) {
        throw cantonError(
          'NEGATIVE_OFFSET',
          'InvalidIndependentOfSystemState',
          `Offset ${p.value} in deduplication_period is a negative integer: the deduplication offset has to be a non-negative integer and not ${p.value}`,
          { context: { field_name: 'deduplication_period', offset_value: String(p.value) } },
        );
      }
      return { kind: 'offset', offset: p.value };
  }
}

function tapsMaxPasses(cmds: JsCommands, config: SandboxConfig): number {
  const n = cmds.tapsMaxPasses;
  if (n === undefined) return config.tapsMaxPassesDefault;
  if (n <= 0) throw invalidArgument(`taps_max_passes must be strictly positive, but got ${n}.`);
  if (n <= config.tapsMaxPassesLimit) return n;
  // Canton clamps silently (TopologyAwareCommandExecutor); the document says "must not exceed".
  if (config.mode === 'canton') return config.tapsMaxPassesLimit;
  throw invalidArgument(
    `taps_max_passes must not exceed the participant-configured limit of ${config.tapsMaxPassesLimit}, but got ${n}.`,
  );
}

/** Validates in Canton's order; `receivedAt` is when the request arrived (for minLedgerTimeRel). */
export function validate(
  cmds: JsCommands,
  userId: string,
  commands: Transcoded[],
  config: SandboxConfig,
  receivedAt: number,
): Validated {
  requireParties(cmds.actAs); // the synthesised transaction format's filtersByParty
  if (cmds.workflowId !== '') {
    const err = ledgerStringError(cmds.workflowId);
    if (err !== undefined) throw invalidArgument(err);
  }
  const userErr = userIdError(userId, parentheses(config.version));
  if (userErr !== undefined) throw invalidField('user_id', userErr);
  if (cmds.commandId === '') throw missingField('command_id');
  const commandErr = ledgerStringError(cmds.commandId);
  if (commandErr !== undefined) throw invalidField('command_id', commandErr);
  if (cmds.submissionId !== '') {
    const err = ledgerStringError(cmds.submissionId);
    if (err !== undefined) throw invalidField('submission_id', err);
  }
  const actAs = distinct(cmds.actAs);
  const readAs = distinct(cmds.readAs).filter((p) => !actAs.includes(p));
  requireParties(actAs);
  requireParties(readAs);
  if (cmds.synchronizerId !== '') {
    const err = uniqueIdentifierError(cmds.synchronizerId);
    if (err !== undefined) throw invalidField('synchronizer_id', err);
  }
  if (commands.length === 0) throw missingField('commands');
  for (const c of commands) {
    if (c.kind !== 'exercise') continue;
    if (c.contractId === '') throw missingField('contract_id');
    const err = contractIdError(c.contractId);
    if (err !== undefined) throw invalidField('contract_id', err);
  }
  const effectiveAt = ledgerTime(cmds, receivedAt);
  const dedup = dedupWindow(cmds, config.maxDeduplicationSeconds * 1_000_000);
  for (const d of cmds.disclosedContracts) {
    // The sandbox never hands out created-event blobs, so none it receives can be decoded (text not confirmed; the harness asserts only the code).
    if (d.createdEventBlob === '') throw missingField('DisclosedContract.createdEventBlob');
    throw invalidField(
      'DisclosedContract.createdEventBlob',
      'Unable to decode disclosed contract event payload',
    );
  }
  return {
    userId,
    commandId: cmds.commandId,
    workflowId: cmds.workflowId,
    submissionId: cmds.submissionId === '' ? undefined : cmds.submissionId,
    actAs,
    readAs,
    synchronizerId: cmds.synchronizerId,
    commands,
    effectiveAt,
    dedup,
    tapsMaxPasses: tapsMaxPasses(cmds, config),
  };
}
