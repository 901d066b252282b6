// The participant's ledger: offsets, the active contract set and the deduplication state, changed only by
// `submit`. Interpretation, routing, the deduplication check and the commit run synchronously in one call,
// so on Node's single thread concurrent identical submissions cannot interleave: the first commits, the
// rest find it and are DUPLICATE_COMMAND (the in-flight window SUBMISSION_ALREADY_IN_FLIGHT covers in Canton
// never opens). Once `submit` returns, the transaction is in memory: nothing accepted is lost.
import { createHash } from 'node:crypto';
import type { SandboxConfig } from '../config';
import type { VettingTopology } from '../vetting/topology';
import { ContractStore } from './contracts';
import { changeKey, DedupStore, type DedupResult } from './dedup';
import { newContractId, newUpdateId } from './idgen';
import { interpret } from './interpret';
import { changeIdText, dedupPeriodTooEarly, duplicateCommand, unknownSynchronizer } from './ledger-errors';
import { MicroClock } from './time';
import type { TraceContext } from './trace';
import type { CommittedTx } from './tree';
import type { DedupWindow, Validated } from './validate';

/**
 * Canton generates a submissionId when the client sends none (generateSubmissionIdIfEmpty). The sandbox
 * derives it from the offset when first needed (a duplicate's context), so nothing is stored per entry.
 */
function generatedSubmissionId(offset: number): string {
  const h = createHash('sha256').update(`submission-${offset}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Deduplication as a faulty participant would run it (sandbox/faults/groups/submission.ts passes these when a
 * sub-* fault is enabled); absent, the default path runs untouched.
 */
export interface DedupHooks {
  changeKey(v: Validated): string;
  window(w: DedupWindow, maxMicros: number): DedupWindow;
  seen(result: DedupResult, now: number): DedupResult;
}

export class Ledger {
  readonly contracts: ContractStore;
  readonly dedup: DedupStore;
  private readonly clock = new MicroClock();
  private ledgerEnd = 0;
  private lastRecordTime = 0;
  private lastNow = 0;

  /**
   * The synchronizers the participant is connected to: the configured one, and every synchronizer of the
   * vetting topology on which it has an entry (it vets the built-in package on all of them).
   */
  readonly connected: (synchronizerId: string) => boolean;

  constructor(
    private readonly config: SandboxConfig,
    topology?: VettingTopology,
    private readonly faults?: DedupHooks,
  ) {
    this.connected = (id) =>
      id === config.synchronizerId || topology?.entry(id, config.participantId) !== undefined;
    this.contracts = new ContractStore(config.maxContracts ?? 100_000);
    this.dedup = new DedupStore(
      config.maxDeduplicationSeconds * 1_000_000,
      config.maxDedupEntries ?? 250_000,
    );
  }

  /** The ledger clock, in microseconds since the epoch; never goes back (a later request, a later time). */
  now(): number {
    this.lastNow = Math.max(this.lastNow, this.clock.now());
    return this.lastNow;
  }

  /** Interprets, routes, deduplicates and commits; throws the CantonError of the first failing step. */
  submit(v: Validated, trace: TraceContext): CommittedTx {
    const draft = interpret(v.commands, this.contracts, v, v.effectiveAt, newContractId);
    const synchronizerId = v.synchronizerId === '' ? this.config.synchronizerId : v.synchronizerId;
    if (!this.connected(synchronizerId)) throw unknownSynchronizer(synchronizerId);

    const now = this.now();
    const f = this.faults;
    const key = f ? f.changeKey(v) : changeKey(v.userId, v.commandId, v.actAs);
    const window = f ? f.window(v.dedup, this.config.maxDeduplicationSeconds * 1_000_000) : v.dedup;
    const checked = this.dedup.check(key, window, now);
    const seen = f ? f.seen(checked, now) : checked;
    if (seen.kind === 'duplicate') {
      const { offset, submissionId } = seen.earlier;
      const existing = submissionId ?? generatedSubmissionId(offset);
      throw duplicateCommand(offset, existing, changeIdText(v.userId, v.commandId, v.actAs));
    }
    if (seen.kind === 'too-early') throw dedupPeriodTooEarly(seen.earliestOffset);

    // Commit. Record times strictly increase with offsets, even within one microsecond.
    const offset = ++this.ledgerEnd;
    const recordTime = Math.max(now, this.lastRecordTime + 1);
    this.lastRecordTime = recordTime;
    this.contracts.apply(draft.created, draft.archived);
    this.dedup.record({ key, offset, submissionId: v.submissionId, acceptedAt: recordTime });
    return {
      updateId: newUpdateId(),
      commandId: v.commandId,
      workflowId: v.workflowId,
      effectiveAt: v.effectiveAt,
      recordTime,
      offset,
      synchronizerId,
      nodes: draft.nodes,
      transient: draft.transient,
      requesting: v.actAs,
      trace,
    };
  }
}
