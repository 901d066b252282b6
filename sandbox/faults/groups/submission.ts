// Faults that break the submission and deduplication rules (SUB-*): at least one per rule, more where a
// rule can break in several ways. Each is one small deviation a real participant could have.
//
// Two kinds, as sandbox/faults/README.md describes:
// - response rewrites (`rewrite`): the tree or an error body as a broken participant would write it;
// - behaviour switches: `submitFaultHooks(names)` gives the submit route and the ledger the few places a
//   fault changes what the participant does (how it reads the body and the command, how it deduplicates,
//   how it answers an undecodable body). With no `sub-*` fault enabled it is undefined and the default
//   path runs untouched.
//
// A few rules are only observable with a setting (no authentication, a release that knows tapsMaxPasses,
// the 3.5 tree removal): their faults carry the profile (../profiles.ts) the mutation runner starts them with.
import { randomUUID } from 'node:crypto';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import type { SandboxConfig } from '../../config';
import type { Claims } from '../../claims';
import { BodyDecodeError, TapirDecodeError } from '../../decode';
import {
  cantonError,
  internalError,
  invalidArgument,
  invalidField,
  missingField,
  permissionDenied,
  type CantonError,
  type JsCantonError,
} from '../../errors';
import { ledgerStringError, uniqueIdentifierError } from '../../ids';
import type { JsCommands } from '../../ledger/decode';
import { changeKey, type DedupResult } from '../../ledger/dedup';
import type { Ledger } from '../../ledger/ledger';
import type { TraceContext } from '../../ledger/trace';
import type { CommittedTx } from '../../ledger/tree';
import type { DedupWindow, Validated } from '../../ledger/validate';
import submitRequestSchema from '../../../schemas/submit-request.json';
import { PROFILES } from '../profiles';
import type { Fault, ResponseView } from '../types';

// ─── Reading and writing responses ──────────────────────────────────────────────────────────────────────────

type Json = Record<string, unknown>;
type EventEntry = { kind: string; value: Json };

function treeOf(res: ResponseView): Json | undefined {
  if (res.status !== 200) return undefined;
  const tree = (res.body as { transactionTree?: unknown } | null)?.transactionTree;
  return tree !== null && typeof tree === 'object' ? (tree as Json) : undefined;
}

function eventsOf(tree: Json): EventEntry[] {
  const byId = (tree.eventsById ?? {}) as Record<string, Record<string, { value: Json }>>;
  return Object.values(byId).flatMap((entry) =>
    Object.entries(entry).map(([kind, v]) => ({ kind, value: v.value })),
  );
}

/** A rewrite of successful trees: `change` edits the tree in place (the body is a fresh parse). */
const onTree =
  (change: (tree: Json, req: FastifyRequest) => void) =>
  (res: ResponseView, req: FastifyRequest): ResponseView | undefined => {
    const tree = treeOf(res);
    if (tree === undefined) return undefined;
    change(tree, req);
    return res;
  };

const errorOf = (res: ResponseView): JsCantonError | undefined =>
  res.status >= 400 && res.body !== null && typeof res.body === 'object' && 'code' in res.body
    ? (res.body as JsCantonError)
    : undefined;

/** A rewrite of the Canton errors `match` selects into `replace(error)`. */
const onError =
  (match: (e: JsCantonError) => boolean, replace: (e: JsCantonError) => CantonError) =>
  (res: ResponseView): ResponseView | undefined => {
    const e = errorOf(res);
    if (e === undefined || !match(e)) return undefined;
    const next = replace(e);
    return { ...res, status: next.status, body: next.body };
  };

const field = (name: string) => (e: JsCantonError) => e.context.field_name === name;
const causeHas = (text: string) => (e: JsCantonError) => e.cause.includes(text);

const conformance = (
  name: string,
  breaks: string,
  rules: string[],
  rewrite?: (res: ResponseView, req: FastifyRequest) => ResponseView | undefined,
): Fault => ({
  name,
  breaks,
  rules,
  kind: 'conformance',
  ...(rewrite ? { rewrite: { route: 'submit-tree' as const, apply: rewrite } } : {}),
});

// ─── Faults in the response ─────────────────────────────────────────────────────────────────────────────────

const responseFaults: Fault[] = [
  conformance(
    'sub-tree-missing',
    'a successful submission answers 200 with an empty body: no transactionTree',
    ['SUB-SHAPE'],
    (res) => (treeOf(res) ? { ...res, body: {} } : undefined),
  ),
  conformance(
    'sub-offset-as-string',
    'the tree’s offset is written as a JSON string ("17") instead of an integer',
    ['SUB-SHAPE', 'SUB-OFFSETS-INCREASE'],
    onTree((t) => void (t.offset = String(t.offset))),
  ),
  conformance(
    'sub-update-id-dropped',
    'the tree leaves out its updateId',
    ['SUB-SHAPE'],
    onTree((t) => void delete t.updateId),
  ),
  conformance(
    'sub-command-id-not-echoed',
    'the tree carries an empty commandId instead of the command’s',
    ['SUB-ECHO-IDS', 'SUB-LEDGERSTRING-BOUNDARY'],
    onTree((t) => void (t.commandId = '')),
  ),
  conformance(
    'sub-workflow-id-not-echoed',
    'the tree carries an empty workflowId instead of the command’s',
    ['SUB-ECHO-IDS', 'SUB-LEDGERSTRING-BOUNDARY'],
    onTree((t) => void (t.workflowId = '')),
  ),
  conformance(
    'sub-synchronizer-not-echoed',
    'the tree names another synchronizer than the one the command was submitted to',
    ['SUB-SYNCHRONIZER-ECHO'],
    onTree((t) => void (t.synchronizerId = `elsewhere::1220${'ab'.repeat(32)}`)),
  ),
  conformance(
    'sub-event-keys-from-one',
    'eventsById is keyed from 1 while the events’ nodeIds count from 0',
    ['SUB-EVENTS-WELL-FORMED'],
    onTree((t) => {
      const byId = (t.eventsById ?? {}) as Json;
      t.eventsById = Object.fromEntries(Object.entries(byId).map(([k, v]) => [String(Number(k) + 1), v]));
    }),
  ),
  conformance(
    'sub-last-descendant-before-node',
    'an exercised event’s lastDescendantNodeId is below its own nodeId',
    ['SUB-EVENTS-WELL-FORMED'],
    onTree((t) => {
      for (const e of eventsOf(t)) {
        if (e.kind === 'ExercisedTreeEvent') e.value.lastDescendantNodeId = Number(e.value.nodeId) - 1;
      }
    }),
  ),
  conformance(
    'sub-exercise-choice-renamed',
    'the exercised event names another choice than the command exercised',
    ['SUB-EVENTS-WELL-FORMED'],
    onTree((t) => {
      for (const e of eventsOf(t))
        if (e.kind === 'ExercisedTreeEvent') e.value.choice = `${String(e.value.choice)}2`;
    }),
  ),
  conformance(
    'sub-create-argument-altered',
    'the created event’s createArgument differs from the command’s createArguments (a text field changed)',
    ['SUB-EVENTS-WELL-FORMED'],
    onTree((t) => {
      for (const e of eventsOf(t)) {
        const args = e.value.createArgument as Json | undefined;
        if (e.kind !== 'CreatedTreeEvent' || !args) continue;
        const text = Object.keys(args).find(
          (k) => typeof args[k] === 'string' && !String(args[k]).includes('::'),
        );
        if (text !== undefined) args[text] = `${String(args[text])} (altered)`;
      }
    }),
  ),
  conformance(
    'sub-witness-outside-actas',
    'events list a witness that is none of the requesting actAs parties',
    ['SUB-EVENTS-WELL-FORMED'],
    onTree((t) => {
      const outsider = `Mallory::1220${'cd'.repeat(32)}`;
      for (const e of eventsOf(t)) {
        e.value.witnessParties = [...((e.value.witnessParties as string[] | undefined) ?? []), outsider];
      }
    }),
  ),
  conformance(
    'sub-offsets-decreasing',
    'offsets count down: each transaction gets a lower offset than the one before',
    ['SUB-OFFSETS-INCREASE'],
    onTree((t) => {
      const down = (o: unknown) => 2 ** 40 - Number(o);
      t.offset = down(t.offset);
      for (const e of eventsOf(t)) e.value.offset = down(e.value.offset);
    }),
  ),
  conformance(
    'sub-timestamps-offset-notation',
    'effectiveAt and recordTime are written with "+00:00" instead of Instant.toString’s "Z"',
    ['SUB-TIMESTAMPS', 'SUB-SHAPE'],
    onTree((t) => {
      for (const k of ['effectiveAt', 'recordTime']) t[k] = String(t[k]).replace(/Z$/, '+00:00');
    }),
  ),
  conformance(
    'sub-created-at-record-time',
    'createdAt of a contract created by the transaction is its recordTime, not its ledger effective time',
    ['SUB-TIMESTAMPS'],
    onTree((t) => {
      for (const e of eventsOf(t)) if (e.kind === 'CreatedTreeEvent') e.value.createdAt = t.recordTime;
    }),
  ),
  conformance(
    'sub-traceparent-dropped',
    'the tree’s traceContext is null although the request carried a traceparent',
    ['SUB-TRACEPARENT'],
    onTree((t) => void (t.traceContext = null)),
  ),
  conformance(
    'sub-traceparent-regenerated',
    'the tree’s traceparent starts a new trace instead of continuing the request’s',
    ['SUB-TRACEPARENT'],
    onTree((t) => {
      const tc = t.traceContext as Json | null;
      if (tc) tc.traceparent = `00-${randomUUID().replace(/-/g, '')}-${'1'.repeat(16)}-01`;
    }),
  ),
  // ─── Wrong answers to bad requests ────────────────────────────────────────────────────────────────────────
  conformance(
    'sub-commands-empty-internal-error',
    'an empty commands list crashes the participant: 500 LEDGER_API_INTERNAL_ERROR instead of a 4xx',
    ['SUB-COMMANDS-EMPTY', 'SUB-COMMANDS-EMPTY-CODE'],
    onError(field('commands'), () => internalError()),
  ),
  conformance(
    'sub-commands-empty-wrong-code',
    'an empty commands list is INVALID_FIELD instead of MISSING_FIELD',
    ['SUB-COMMANDS-EMPTY-CODE'],
    onError(field('commands'), () => invalidField('commands', 'must not be empty')),
  ),
  conformance(
    'sub-actas-empty-internal-error',
    'an empty actAs list crashes the participant: 500 instead of a 4xx',
    ['SUB-ACTAS-EMPTY', 'SUB-ACTAS-EMPTY-CODE'],
    onError(
      (e) => e.code === 'MISSING_FIELD' && /act_?as/i.test(e.context.field_name ?? ''),
      () => internalError(),
    ),
  ),
  conformance(
    'sub-actas-empty-wrong-code',
    'an empty actAs list is INVALID_ARGUMENT instead of MISSING_FIELD',
    ['SUB-ACTAS-EMPTY-CODE'],
    onError(
      (e) => e.code === 'MISSING_FIELD' && /act_?as/i.test(e.context.field_name ?? ''),
      () => invalidArgument('actAs must not be empty'),
    ),
  ),
  conformance(
    'sub-command-id-empty-wrong-code',
    'an empty commandId is INVALID_FIELD instead of MISSING_FIELD',
    ['SUB-COMMANDID-MISSING-CODE'],
    onError(
      (e) => e.code === 'MISSING_FIELD' && field('command_id')(e),
      () => invalidField('command_id', 'Daml-LF Ledger String is empty'),
    ),
  ),
  conformance(
    'sub-workflow-id-invalid-field',
    'a workflowId that is not a LedgerString is INVALID_FIELD instead of INVALID_ARGUMENT',
    ['SUB-LEDGERSTRING-INVALID-CODE'],
    onError(
      (e) => e.code === 'INVALID_ARGUMENT' && causeHas('Ledger String')(e),
      (e) => invalidField('workflow_id', e.context.reason ?? e.cause),
    ),
  ),
  conformance(
    'sub-party-checked-after-auth',
    'a malformed first actAs party is only found by authorization (403) instead of the JSON layer (400)',
    ['SUB-PARTY-INVALID-CODE'],
    onError(causeHas('Invalid party in actAs'), () => permissionDenied()),
  ),
  conformance(
    'sub-synchronizer-invalid-wrong-code',
    'a malformed synchronizerId is INVALID_ARGUMENT instead of INVALID_FIELD',
    ['SUB-SYNCHRONIZER-INVALID-CODE'],
    onError(
      (e) => e.code === 'INVALID_FIELD' && field('synchronizer_id')(e),
      (e) => invalidArgument(e.context.message ?? e.cause),
    ),
  ),
  conformance(
    'sub-min-ledger-time-both-wrong-code',
    'both minimum ledger times are FAILED_PRECONDITION instead of INVALID_ARGUMENT',
    ['SUB-MIN-LEDGER-TIME-BOTH-CODE'],
    onError(causeHas('min_ledger_time_abs cannot be specified'), (e) =>
      cantonError('INVALID_ARGUMENT', 'InvalidGivenCurrentSystemStateOther', e.cause),
    ),
  ),
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
];

// ─── Faults in behaviour (switches read by submitFaultHooks) ─────────────────────────────────────────────────

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
  // The default suite runs this rule: against the in-process sandbox the harness acts as a second dev user.
  conformance(
    'sub-dedup-user-ignored',
    'the change ID leaves out the userId: the same command of another user is a duplicate',
    ['SUB-DEDUP-NEW-USER-ID'],
  ),
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

/** Every submission fault name (for the hooks and their self-test). */
export const SUBMISSION_FAULT_NAMES: readonly string[] = [
  ...responseFaults,
  ...behaviourFaults,
  ...profiled,
].map((f) => f.name);

// ─── The behaviour switches ─────────────────────────────────────────────────────────────────────────────────

/** The document's request fields (§2.1): the strict decoder of `sub-unknown-fields-rejected` knows these. */
/** The fields of JsCommands (schemas/submit-request.json): what a strict decoder would know. */
const KNOWN_FIELDS = new Set(Object.keys(submitRequestSchema.properties));

const LEDGER_STRING_EXTRA = /[^A-Za-z0-9._:#/ -]/g;

export interface SubmitFaultHooks {
  /** Before decoding: the raw body as the faulty participant reads it (may throw a decode failure). */
  body(raw: unknown): unknown;
  /** After decoding and claim resolution: the command as the faulty participant understands it. */
  commands(cmds: JsCommands, claims: Claims, config: SandboxConfig): JsCommands;
  /** The ledger's submit, as the faulty participant runs it. */
  submit(ledger: Ledger, v: Validated, trace: TraceContext): CommittedTx;
  /** The change ID's key as the faulty deduplication computes it. */
  changeKey(v: Validated): string;
  /** The deduplication window as the faulty deduplication applies it. */
  window(w: DedupWindow, maxMicros: number): DedupWindow;
  /** The deduplication verdict as the faulty index gives it. */
  seen(result: DedupResult, now: number): DedupResult;
  /** Route options: an error handler for the faults that answer undecodable bodies differently. */
  routeOptions: {
    errorHandler?: (error: FastifyError, request: FastifyRequest, reply: FastifyReply) => unknown;
  };
  /** The tree stays served on a 3.5 release that should remove it. */
  keepTree: boolean;
}

/** The hooks for the enabled `sub-*` faults; undefined when none is enabled (the default path then runs). */
export function submitFaultHooks(names: readonly string[]): SubmitFaultHooks | undefined {
  const on = new Set(names.filter((n) => SUBMISSION_FAULT_NAMES.includes(n)));
  if (on.size === 0) return undefined;
  const has = (name: string) => on.has(name);

  const body = (raw: unknown): unknown => {
    if (raw === null || typeof raw !== 'object' || Array.isArray(raw)) return raw;
    const b = { ...(raw as Json) };
    if (has('sub-command-id-absent-defaulted') && !('commandId' in b)) b.commandId = '';
    if (has('sub-unknown-fields-rejected')) {
      const unknown = Object.keys(b).find((k) => !KNOWN_FIELDS.has(k));
      if (unknown !== undefined) throw new BodyDecodeError([`Unexpected field '${unknown}'`]);
    }
    if (has('sub-taps-field-rejected') && 'tapsMaxPasses' in b) {
      throw new BodyDecodeError([`Unexpected field 'tapsMaxPasses'`]);
    }
    if (has('sub-readas-empty-refused') && Array.isArray(b.readAs) && b.readAs.length === 0) {
      throw missingField('read_as');
    }
    if (has('sub-wrong-types-coerced')) {
      for (const k of ['commandId', 'workflowId', 'submissionId', 'userId']) {
        if (typeof b[k] === 'number') b[k] = String(b[k]);
      }
      for (const k of ['actAs', 'readAs']) {
        if (typeof b[k] === 'string') b[k] = [b[k]];
        else if (b[k] !== undefined && !Array.isArray(b[k])) b[k] = [];
      }
      if (b.commands !== null && typeof b.commands === 'object' && !Array.isArray(b.commands))
        b.commands = [];
    }
    if (has('sub-taps-nonpositive-accepted') && typeof b.tapsMaxPasses === 'number' && b.tapsMaxPasses <= 0) {
      delete b.tapsMaxPasses;
    }
    return b;
  };

  const commands = (c: JsCommands, claims: Claims, config: SandboxConfig): JsCommands => {
    const cmds = { ...c };
    if (has('sub-command-id-empty-generated') && cmds.commandId === '') cmds.commandId = randomUUID();
    if (has('sub-ledgerstring-sanitized')) {
      const clean = (s: string) => s.replace(LEDGER_STRING_EXTRA, '').slice(0, 255);
      cmds.commandId = cmds.commandId === '' ? '' : clean(cmds.commandId) || 'x';
      cmds.workflowId = clean(cmds.workflowId);
      cmds.submissionId = clean(cmds.submissionId);
    }
    for (const [name, s] of [
      ['command_id', cmds.commandId],
      ['workflow_id', cmds.workflowId],
      ['submission_id', cmds.submissionId],
    ] as const) {
      if (has('sub-ledgerstring-no-dot') && s.includes('.')) {
        throw invalidField(name, `non expected character 0x2e in Daml-LF Ledger String "${s}"`);
      }
      if (has('sub-ledgerstring-max-254') && s.length > 254 && ledgerStringError(s) === undefined) {
        throw invalidField(name, 'Daml-LF Ledger String is too long (max: 254)');
      }
    }
    const first = cmds.actAs[0];
    if (has('sub-party-no-space') && first?.includes(' ')) {
      throw invalidArgument(
        `Invalid party in actAs/act_as: non expected character 0x20 in Daml-LF Party "${first}"`,
      );
    }
    if (claims.kind === 'user') {
      if (has('sub-userid-body-wins-over-token') && cmds.userId !== '') cmds.userId = claims.userId;
      if (has('sub-userid-not-from-token') && cmds.userId === '') {
        throw cantonError(
          'INVALID_TOKEN',
          'InvalidIndependentOfSystemState',
          'The submitted request is missing a user-id: Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?',
        );
      }
    }
    if (has('sub-userid-no-at-sign') && cmds.userId.includes('@')) {
      throw invalidField(
        'user_id',
        `User ID "${cmds.userId}" does not match regex "[a-zA-Z0-9^$.!\`\\-#+'~_|:()]{1,128}"`,
      );
    }
    if (cmds.synchronizerId !== '') {
      const malformed = uniqueIdentifierError(cmds.synchronizerId) !== undefined;
      if (has('sub-synchronizer-invalid-ignored') && malformed) cmds.synchronizerId = '';
      else if (
        has('sub-synchronizer-unknown-rerouted') &&
        !malformed &&
        cmds.synchronizerId !== config.synchronizerId
      ) {
        cmds.synchronizerId = '';
      }
    }
    const { minLedgerTimeAbs: abs, minLedgerTimeRel: rel } = cmds;
    if (has('sub-min-ledger-time-both-accepted') && abs !== undefined && rel !== undefined) {
      cmds.minLedgerTimeRel = undefined;
    }
    if (has('sub-min-ledger-time-abs-ignored') && abs !== undefined && rel === undefined) {
      cmds.minLedgerTimeAbs = undefined;
    }
    if (has('sub-min-ledger-time-rel-ignored') && rel !== undefined && abs === undefined) {
      cmds.minLedgerTimeRel = undefined;
    }
    if (has('sub-min-ledger-time-rel-nanos-dropped') && rel !== undefined) {
      cmds.minLedgerTimeRel = { ...rel, nanos: 0 };
    }
    const p = cmds.deduplicationPeriod;
    if (
      has('sub-negative-dedup-accepted') &&
      p.kind === 'DeduplicationDuration' &&
      p.value.seconds * 1e9 + p.value.nanos < 0
    ) {
      cmds.deduplicationPeriod = { kind: 'Empty' };
    }
    return cmds;
  };

  const submit = (ledger: Ledger, v: Validated, trace: TraceContext): CommittedTx => {
    if (!has('sub-dedup-rejected-recorded')) return ledger.submit(v, trace);
    try {
      return ledger.submit(v, trace);
    } catch (error) {
      // The change ID was registered before the commands ran, and the failure does not release it.
      const key = changeKey(v.userId, v.commandId, v.actAs);
      const now = ledger.now();
      if (ledger.dedup.check(key, v.dedup, now).kind === 'new') {
        ledger.dedup.record({ key, offset: 0, submissionId: v.submissionId, acceptedAt: now });
      }
      throw error;
    }
  };

  const key = (v: Validated): string => {
    let { userId, commandId } = v;
    let actAs: readonly string[] = v.actAs;
    if (has('sub-dedup-actas-ordered')) actAs = [actAs.join('\u0001')];
    if (has('sub-dedup-submission-id-in-key')) commandId += `\u0000${v.submissionId ?? ''}`;
    if (has('sub-dedup-readas-in-key')) commandId += `\u0000${[...v.readAs].sort().join('\u0001')}`;
    if (has('sub-dedup-command-id-only')) [userId, actAs] = ['', []];
    if (has('sub-dedup-command-id-truncated')) commandId = commandId.slice(0, 40);
    if (has('sub-dedup-user-ignored')) userId = '';
    return changeKey(userId, commandId, actAs);
  };

  const window = (w: DedupWindow, maxMicros: number): DedupWindow => {
    if (w.kind !== 'duration') return w;
    if (has('sub-dedup-period-ignored')) return { kind: 'duration', micros: maxMicros };
    if (has('sub-dedup-period-halved')) return { kind: 'duration', micros: Math.floor(w.micros / 2) };
    return w;
  };

  const seen = (result: DedupResult, now: number): DedupResult => {
    if (result.kind !== 'duplicate') return result;
    if (has('sub-dedup-ignored')) return { kind: 'new' };
    if (has('sub-dedup-index-lag') && now - result.earlier.acceptedAt < 100_000) return { kind: 'new' };
    return result;
  };

  const decodeFaults = has('sub-malformed-json-internal-error') || has('sub-decode-failure-as-canton-error');
  const errorHandler = (error: FastifyError, request: FastifyRequest, reply: FastifyReply): unknown => {
    if (error instanceof TapirDecodeError) {
      // The global preValidation hook leaves the body a string when it is not JSON at all.
      const notJson = typeof request.body === 'string';
      const answer =
        has('sub-malformed-json-internal-error') && notJson
          ? internalError()
          : has('sub-decode-failure-as-canton-error')
            ? invalidArgument(error.message)
            : undefined;
      if (answer) return reply.code(answer.status).type('application/json').send(JSON.stringify(answer.body));
    }
    throw error; // the app's error handler answers everything else
  };

  return {
    body,
    commands,
    submit,
    changeKey: key,
    window,
    seen,
    routeOptions: decodeFaults ? { errorHandler } : {},
    keepTree: has('sub-tree-not-removed'),
  };
}
