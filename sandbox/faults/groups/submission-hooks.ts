// The behaviour switches of the submission faults: the few places a fault changes what the participant does
// (how it reads the body and the command, how it deduplicates, how it answers an undecodable body).
import submitRequestSchema from '../../../schemas/submit-request.json';
import { randomUUID } from 'node:crypto';
import { type FastifyError, type FastifyReply, type FastifyRequest } from 'fastify';
import { type SandboxConfig } from '../../config';
import { type Claims } from '../../claims';
import { BodyDecodeError, TapirDecodeError } from '../../decode-failures';
import { cantonError, internalError, invalidArgument, invalidField, missingField } from '../../errors';
import { ledgerStringError, partyError, uniqueIdentifierError } from '../../ids';
import { type JsCommands } from '../../ledger/decode-commands';
import { changeKey, type DedupResult } from '../../ledger/dedup';
import { type Ledger } from '../../ledger/ledger';
import { type TraceContext } from '../../ledger/trace';
import { type CommittedTx } from '../../ledger/tree';
import { type DedupWindow, type Validated } from '../../ledger/validate';
import type { Json } from './submission-kit';
import { SUBMISSION_FAULT_NAMES, type SubmitFaultName } from './submission';

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

/** Whether a submit-route fault is on: a name of no such fault (a typo, another group's) is a type error. */
type Has = (name: SubmitFaultName) => boolean;

const bodyHook =
  (has: Has) =>
  (raw: unknown): unknown => {
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

const commandsHook =
  (has: Has) =>
  (c: JsCommands, claims: Claims, config: SandboxConfig): JsCommands => {
    const cmds = { ...c };
    idsFaults(has, cmds);
    partiesAndUsersFaults(has, cmds, claims, config);
    timesFaults(has, cmds);
    return cmds;
  };

/** The command, workflow and submission ids as the faulty participant reads them. */
function idsFaults(has: Has, cmds: JsCommands): void {
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
}

/** The parties, the user and the synchronizer as the faulty participant reads them. */
function partiesAndUsersFaults(has: Has, cmds: JsCommands, claims: Claims, config: SandboxConfig): void {
  const first = cmds.actAs[0];
  if (has('sub-party-malformed-dropped')) {
    // Only the first actAs party keeps its syntax check (the JSON layer's); the rest are filtered before
    // authorization and validation could refuse them.
    const wellFormed = (p: string) => partyError(p) === undefined;
    cmds.actAs = cmds.actAs.filter((p, i) => i === 0 || wellFormed(p));
    cmds.readAs = cmds.readAs.filter(wellFormed);
  }
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
}

/** The ledger-time bounds and the deduplication period as the faulty participant reads them. */
function timesFaults(has: Has, cmds: JsCommands): void {
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
}

const submitHook =
  (has: Has) =>
  (ledger: Ledger, v: Validated, trace: TraceContext): CommittedTx => {
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

const keyHook =
  (has: Has) =>
  (v: Validated): string => {
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

const windowHook =
  (has: Has) =>
  (w: DedupWindow, maxMicros: number): DedupWindow => {
    if (w.kind !== 'duration') return w;
    if (has('sub-dedup-period-ignored')) return { kind: 'duration', micros: maxMicros };
    if (has('sub-dedup-period-halved')) return { kind: 'duration', micros: Math.floor(w.micros / 2) };
    return w;
  };

const seenHook =
  (has: Has) =>
  (result: DedupResult, now: number): DedupResult => {
    if (result.kind !== 'duplicate') return result;
    if (has('sub-dedup-ignored')) return { kind: 'new' };
    if (has('sub-dedup-index-lag') && now - result.earlier.acceptedAt < 100_000) return { kind: 'new' };
    return result;
  };

const decodeErrorHandler =
  (has: Has) =>
  (error: FastifyError, request: FastifyRequest, reply: FastifyReply): unknown => {
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

/** The hooks for the enabled `sub-*` faults; undefined when none is enabled (the default path then runs). */
export function submitFaultHooks(names: readonly string[]): SubmitFaultHooks | undefined {
  const on = new Set(names.filter((n) => SUBMISSION_FAULT_NAMES.includes(n)));
  if (on.size === 0) return undefined;
  const has: Has = (name) => on.has(name);

  const body = bodyHook(has);

  const commands = commandsHook(has);

  const submit = submitHook(has);

  const key = keyHook(has);

  const window = windowHook(has);

  const seen = seenHook(has);

  const decodeFaults = has('sub-malformed-json-internal-error') || has('sub-decode-failure-as-canton-error');
  const errorHandler = decodeErrorHandler(has);

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
