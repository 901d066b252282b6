// Submission faults in the response: the tree or an error body as a broken participant would write it.
import { randomUUID } from 'node:crypto';
import { cantonError, internalError, invalidArgument, invalidField, permissionDenied } from '../../errors';
import { type Fault } from '../types';
import { treeOf, eventsOf, onTree, onError, field, causeHas, conformance, Json } from './submission-kit';

export const responseFaults: Fault[] = [
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
];

// ─── Faults in behaviour (switches read by submitFaultHooks) ─────────────────────────────────────────────────
