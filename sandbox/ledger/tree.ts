// The response: Canton 3.4 builds the legacy tree from a LEDGER_EFFECTS transaction filtered by the actAs
// parties (wildcard, verbose), so only actAs — not readAs — visibility applies, and a node none of them
// witnesses is left out (node ids keep their numbering). Every field Canton sends is present, with null
// where Canton has no value (contractKey, interfaceId, tracestate) and "" for an absent workflowId.
import type { CreatedNode, ExercisedNode, TxNode } from './interpret';
import { templateIdOf } from './templates';
import { formatMicros } from './time';
import type { TraceContext } from './trace';

export interface CommittedTx {
  updateId: string;
  commandId: string;
  workflowId: string;
  effectiveAt: number;
  recordTime: number;
  offset: number;
  synchronizerId: string;
  nodes: readonly TxNode[];
  transient: ReadonlySet<string>;
  /** The parties the tree is filtered for: actAs. */
  requesting: readonly string[];
  trace: TraceContext;
}

function created(n: CreatedNode, tx: CommittedTx, witnesses: string[], createdAt: string): unknown {
  const c = n.contract;
  return {
    CreatedTreeEvent: {
      value: {
        offset: tx.offset,
        nodeId: n.nodeId,
        contractId: c.contractId,
        templateId: templateIdOf(c.template),
        contractKey: null,
        createArgument: c.args,
        createdEventBlob: '',
        interfaceViews: [],
        witnessParties: witnesses,
        signatories: c.signatories,
        observers: c.observers,
        createdAt,
        packageName: c.template.pkg.packageName,
        representativePackageId: c.template.pkg.packageId,
        acsDelta: !tx.transient.has(c.contractId) && c.stakeholders.some((p) => tx.requesting.includes(p)),
      },
    },
  };
}

function exercised(n: ExercisedNode, tx: CommittedTx, witnesses: string[]): unknown {
  const c = n.contract;
  return {
    ExercisedTreeEvent: {
      value: {
        offset: tx.offset,
        nodeId: n.nodeId,
        contractId: c.contractId,
        templateId: templateIdOf(c.template),
        interfaceId: null,
        choice: n.choice.name,
        choiceArgument: n.choiceArg,
        actingParties: n.actingParties,
        consuming: n.choice.consuming,
        witnessParties: witnesses,
        lastDescendantNodeId: n.lastDescendantNodeId,
        exerciseResult: n.result,
        packageName: c.template.pkg.packageName,
        implementedInterfaces: [],
        acsDelta:
          n.choice.consuming &&
          !tx.transient.has(c.contractId) &&
          c.stakeholders.some((p) => tx.requesting.includes(p)),
      },
    },
  };
}

/** The body of a successful submit-and-wait-for-transaction-tree. */
export function renderTree(tx: CommittedTx): unknown {
  const effectiveAt = formatMicros(tx.effectiveAt);
  const eventsById: Record<string, unknown> = {};
  for (const n of tx.nodes) {
    const witnesses = n.witnesses.filter((p) => tx.requesting.includes(p));
    if (witnesses.length === 0) continue;
    eventsById[String(n.nodeId)] =
      n.kind === 'created' ? created(n, tx, witnesses, effectiveAt) : exercised(n, tx, witnesses);
  }
  return {
    transactionTree: {
      updateId: tx.updateId,
      commandId: tx.commandId,
      workflowId: tx.workflowId,
      effectiveAt,
      offset: tx.offset,
      eventsById,
      synchronizerId: tx.synchronizerId,
      traceContext: { traceparent: tx.trace.traceparent, tracestate: tx.trace.tracestate },
      recordTime: formatMicros(tx.recordTime),
    },
  };
}
