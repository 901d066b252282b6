// Command deduplication by change ID (userId, commandId, set of actAs), over accepted submissions only.
// Entries live in a Map (lookup) and a FIFO queue ordered by acceptance time (eviction): expired entries are
// popped from the head as time passes — amortised O(1) per submission, never a scan. Memory is bounded twice:
// - by time: entries older than the maximum deduplication duration are forgotten. That moves a horizon, and
//   a request whose period reaches behind it (a period longer than the maximum) is rejected as Canton rejects
//   a period starting before its pruning point (INVALID_DEDUPLICATION_PERIOD): never a silent pass;
// - by count, a safety valve against sustained load: beyond `maxEntries` the oldest acceptances are dropped
//   early. Periods up to the maximum must get a definite answer (Canton guarantees them), so for those the
//   guarantee then covers the newest `maxEntries` acceptances only (README.md; `forgotten` counts them).
import { createHash } from 'node:crypto';
import type { DedupWindow } from './validate';

export interface Acceptance {
  key: string;
  offset: number;
  /** undefined when the client sent none (the ledger derives one from the offset on demand). */
  submissionId: string | undefined;
  acceptedAt: number;
}

export type DedupResult =
  | { kind: 'new' }
  | { kind: 'duplicate'; earlier: Acceptance }
  | { kind: 'too-early'; earliestOffset: number };

/** A compact, collision-resistant key: the change ID's parts can be long (255-char ids, many parties). */
export function changeKey(userId: string, commandId: string, actAs: readonly string[]): string {
  const h = createHash('sha256').update(userId).update('\0').update(commandId);
  for (const p of [...actAs].sort()) h.update('\0').update(p);
  return h.digest().toString('base64url', 0, 16); // 128 bits: collision-free in practice, half the memory
}

export class DedupStore {
  private readonly latest = new Map<string, Acceptance>();
  private queue: Acceptance[] = [];
  private head = 0;
  /** Acceptance time and offset of the newest expired entry. */
  private horizonAt = Number.NEGATIVE_INFINITY;
  private horizonOffset = 0;
  /** Acceptances dropped by the count bound before they expired. */
  forgotten = 0;

  constructor(
    private readonly retentionMicros: number,
    private readonly maxEntries: number,
  ) {}

  get size(): number {
    return this.latest.size;
  }

  check(key: string, window: DedupWindow, now: number): DedupResult {
    this.expire(now);
    const earlier = this.latest.get(key);
    if (window.kind === 'duration') {
      const start = now - window.micros;
      if (earlier && earlier.acceptedAt > start) return { kind: 'duplicate', earlier };
      if (!earlier && start < this.horizonAt)
        return { kind: 'too-early', earliestOffset: this.horizonOffset + 1 };
    } else {
      if (earlier && earlier.offset > window.offset) return { kind: 'duplicate', earlier };
      if (!earlier && window.offset < this.horizonOffset) {
        return { kind: 'too-early', earliestOffset: this.horizonOffset + 1 };
      }
    }
    return { kind: 'new' };
  }

  record(entry: Acceptance): void {
    this.latest.set(entry.key, entry);
    this.queue.push(entry);
    while (this.latest.size > this.maxEntries && this.pop(false)) {
      /* drop the oldest until within bounds */
    }
  }

  private expire(now: number): void {
    const limit = now - this.retentionMicros;
    let next = this.queue[this.head];
    while (next !== undefined && next.acceptedAt < limit) {
      this.pop(true);
      next = this.queue[this.head];
    }
  }

  /** Forgets the oldest queued entry; a queue item superseded by a newer acceptance is just dropped. */
  private pop(expired: boolean): boolean {
    const oldest = this.queue[this.head];
    if (oldest === undefined) return false;
    this.head++;
    if (this.latest.get(oldest.key) === oldest) {
      this.latest.delete(oldest.key);
      if (!expired) this.forgotten++;
    }
    if (expired) {
      this.horizonAt = Math.max(this.horizonAt, oldest.acceptedAt);
      this.horizonOffset = Math.max(this.horizonOffset, oldest.offset);
    }
    if (this.head >= 1024 && this.head * 2 >= this.queue.length) {
      this.queue = this.queue.slice(this.head);
      this.head = 0;
    }
    return true;
  }
}
