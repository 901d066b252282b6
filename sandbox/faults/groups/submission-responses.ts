// Submission faults in the response: the tree or an error body as a broken participant would write it.
import { randomUUID } from 'node:crypto';
import { cantonError, internalError, invalidArgument, invalidField, permissionDenied } from '../../errors';
import { fault } from '../types';
import { treeOf, eventsOf, onTree, onError, field, causeHas, type Json } from './submission-kit';

export const responseFaults = [
  fault({
    name: 'sub-tree-missing',
    breaks: 'a successful submission answers 200 with an empty body: no transactionTree',
    rules: ['SUB-SHAPE'],
    rewrite: { route: 'submit-tree', apply: (res) => (treeOf(res) ? { ...res, body: {} } : undefined) },
  }),
  fault({
    name: 'sub-offset-as-string',
    breaks: 'the tree’s offset is written as a JSON string ("17") instead of an integer',
    rules: ['SUB-SHAPE', 'SUB-OFFSETS-INCREASE'],
    rewrite: { route: 'submit-tree', apply: onTree((t) => void (t.offset = String(t.offset))) },
  }),
  fault({
    name: 'sub-update-id-dropped',
    breaks: 'the tree leaves out its updateId',
    rules: ['SUB-SHAPE'],
    rewrite: { route: 'submit-tree', apply: onTree((t) => void delete t.updateId) },
  }),
  fault({
    name: 'sub-command-id-not-echoed',
    breaks: 'the tree carries an empty commandId instead of the command’s',
    rules: ['SUB-ECHO-IDS', 'SUB-LEDGERSTRING-BOUNDARY'],
    rewrite: { route: 'submit-tree', apply: onTree((t) => void (t.commandId = '')) },
  }),
  fault({
    name: 'sub-workflow-id-not-echoed',
    breaks: 'the tree carries an empty workflowId instead of the command’s',
    rules: ['SUB-ECHO-IDS', 'SUB-LEDGERSTRING-BOUNDARY'],
    rewrite: { route: 'submit-tree', apply: onTree((t) => void (t.workflowId = '')) },
  }),
  fault({
    name: 'sub-synchronizer-not-echoed',
    breaks: 'the tree names another synchronizer than the one the command was submitted to',
    rules: ['SUB-SYNCHRONIZER-ECHO'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => void (t.synchronizerId = `elsewhere::1220${'ab'.repeat(32)}`)),
    },
  }),
  fault({
    name: 'sub-event-keys-from-one',
    breaks: 'eventsById is keyed from 1 while the events’ nodeIds count from 0',
    rules: ['SUB-EVENTS-WELL-FORMED'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        const byId = (t.eventsById ?? {}) as Json;
        t.eventsById = Object.fromEntries(Object.entries(byId).map(([k, v]) => [String(Number(k) + 1), v]));
      }),
    },
  }),
  fault({
    name: 'sub-last-descendant-before-node',
    breaks: 'an exercised event’s lastDescendantNodeId is below its own nodeId',
    rules: ['SUB-EVENTS-WELL-FORMED'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        for (const e of eventsOf(t)) {
          if (e.kind === 'ExercisedTreeEvent') e.value.lastDescendantNodeId = Number(e.value.nodeId) - 1;
        }
      }),
    },
  }),
  fault({
    name: 'sub-exercise-choice-renamed',
    breaks: 'the exercised event names another choice than the command exercised',
    rules: ['SUB-EVENTS-WELL-FORMED'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        for (const e of eventsOf(t))
          if (e.kind === 'ExercisedTreeEvent') e.value.choice = `${String(e.value.choice)}2`;
      }),
    },
  }),
  fault({
    name: 'sub-create-argument-altered',
    breaks:
      'the created event’s createArgument differs from the command’s createArguments (a text field changed)',
    rules: ['SUB-EVENTS-WELL-FORMED'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        for (const e of eventsOf(t)) {
          const args = e.value.createArgument as Json | undefined;
          if (e.kind !== 'CreatedTreeEvent' || !args) continue;
          const text = Object.keys(args).find(
            (k) => typeof args[k] === 'string' && !String(args[k]).includes('::'),
          );
          if (text !== undefined) args[text] = `${String(args[text])} (altered)`;
        }
      }),
    },
  }),
  fault({
    name: 'sub-witness-outside-actas',
    breaks: 'events list a witness that is none of the requesting actAs parties',
    rules: ['SUB-EVENTS-WELL-FORMED'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        const outsider = `Mallory::1220${'cd'.repeat(32)}`;
        for (const e of eventsOf(t)) {
          e.value.witnessParties = [...((e.value.witnessParties as string[] | undefined) ?? []), outsider];
        }
      }),
    },
  }),
  fault({
    name: 'sub-offsets-decreasing',
    breaks: 'offsets count down: each transaction gets a lower offset than the one before',
    rules: ['SUB-OFFSETS-INCREASE'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        const down = (o: unknown) => 2 ** 40 - Number(o);
        t.offset = down(t.offset);
        for (const e of eventsOf(t)) e.value.offset = down(e.value.offset);
      }),
    },
  }),
  fault({
    name: 'sub-timestamps-offset-notation',
    breaks: 'effectiveAt and recordTime are written with "+00:00" instead of Instant.toString’s "Z"',
    rules: ['SUB-TIMESTAMPS', 'SUB-SHAPE'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        for (const k of ['effectiveAt', 'recordTime']) t[k] = String(t[k]).replace(/Z$/, '+00:00');
      }),
    },
  }),
  fault({
    name: 'sub-created-at-record-time',
    breaks:
      'createdAt of a contract created by the transaction is its recordTime, not its ledger effective time',
    rules: ['SUB-TIMESTAMPS'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        for (const e of eventsOf(t)) if (e.kind === 'CreatedTreeEvent') e.value.createdAt = t.recordTime;
      }),
    },
  }),
  fault({
    name: 'sub-traceparent-dropped',
    breaks: 'the tree’s traceContext is null although the request carried a traceparent',
    rules: ['SUB-TRACEPARENT'],
    rewrite: { route: 'submit-tree', apply: onTree((t) => void (t.traceContext = null)) },
  }),
  fault({
    name: 'sub-traceparent-regenerated',
    breaks: 'the tree’s traceparent starts a new trace instead of continuing the request’s',
    rules: ['SUB-TRACEPARENT'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree((t) => {
        const tc = t.traceContext as Json | null;
        if (tc) tc.traceparent = `00-${randomUUID().replace(/-/g, '')}-${'1'.repeat(16)}-01`;
      }),
    },
  }),
  // ─── Wrong answers to bad requests ────────────────────────────────────────────────────────────────────────
  fault({
    name: 'sub-commands-empty-internal-error',
    breaks: 'an empty commands list crashes the participant: 500 LEDGER_API_INTERNAL_ERROR instead of a 4xx',
    rules: ['SUB-COMMANDS-EMPTY', 'SUB-COMMANDS-EMPTY-CODE'],
    rewrite: { route: 'submit-tree', apply: onError(field('commands'), () => internalError()) },
  }),
  fault({
    name: 'sub-commands-empty-wrong-code',
    breaks: 'an empty commands list is INVALID_FIELD instead of MISSING_FIELD',
    rules: ['SUB-COMMANDS-EMPTY-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(field('commands'), () => invalidField('commands', 'must not be empty')),
    },
  }),
  fault({
    name: 'sub-actas-empty-internal-error',
    breaks: 'an empty actAs list crashes the participant: 500 instead of a 4xx',
    rules: ['SUB-ACTAS-EMPTY', 'SUB-ACTAS-EMPTY-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(
        (e) => e.code === 'MISSING_FIELD' && /act_?as/i.test(e.context.field_name ?? ''),
        () => internalError(),
      ),
    },
  }),
  fault({
    name: 'sub-actas-empty-wrong-code',
    breaks: 'an empty actAs list is INVALID_ARGUMENT instead of MISSING_FIELD',
    rules: ['SUB-ACTAS-EMPTY-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(
        (e) => e.code === 'MISSING_FIELD' && /act_?as/i.test(e.context.field_name ?? ''),
        () => invalidArgument('actAs must not be empty'),
      ),
    },
  }),
  fault({
    name: 'sub-command-id-empty-wrong-code',
    breaks: 'an empty commandId is INVALID_FIELD instead of MISSING_FIELD',
    rules: ['SUB-COMMANDID-MISSING-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(
        (e) => e.code === 'MISSING_FIELD' && field('command_id')(e),
        () => invalidField('command_id', 'Daml-LF Ledger String is empty'),
      ),
    },
  }),
  fault({
    name: 'sub-workflow-id-invalid-field',
    breaks: 'a workflowId that is not a LedgerString is INVALID_FIELD instead of INVALID_ARGUMENT',
    rules: ['SUB-LEDGERSTRING-INVALID-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(
        (e) => e.code === 'INVALID_ARGUMENT' && causeHas('Ledger String')(e),
        (e) => invalidField('workflow_id', e.context.reason ?? e.cause),
      ),
    },
  }),
  fault({
    name: 'sub-party-checked-after-auth',
    breaks:
      'a malformed first actAs party is only found by authorization (403) instead of the JSON layer (400)',
    rules: ['SUB-PARTY-INVALID-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(causeHas('Invalid party in actAs'), () => permissionDenied()),
    },
  }),
  fault({
    name: 'sub-synchronizer-invalid-wrong-code',
    breaks: 'a malformed synchronizerId is INVALID_ARGUMENT instead of INVALID_FIELD',
    rules: ['SUB-SYNCHRONIZER-INVALID-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(
        (e) => e.code === 'INVALID_FIELD' && field('synchronizer_id')(e),
        (e) => invalidArgument(e.context.message ?? e.cause),
      ),
    },
  }),
  fault({
    name: 'sub-min-ledger-time-both-wrong-code',
    breaks: 'both minimum ledger times are FAILED_PRECONDITION instead of INVALID_ARGUMENT',
    rules: ['SUB-MIN-LEDGER-TIME-BOTH-CODE'],
    rewrite: {
      route: 'submit-tree',
      apply: onError(causeHas('min_ledger_time_abs cannot be specified'), (e) =>
        cantonError('INVALID_ARGUMENT', 'InvalidGivenCurrentSystemStateOther', e.cause),
      ),
    },
  }),
];
