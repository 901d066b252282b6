// The active contract set. Archived contracts are dropped at once (an archived and an unknown contract are
// both CONTRACT_NOT_FOUND, as in Canton); the set is bounded: beyond `capacity` the oldest active contracts
// are forgotten, as if pruned, so memory stays bounded under sustained load. Map iteration order is insertion
// order, so the oldest entry is always the first key (O(1) eviction).
import type { Template } from './templates';
import type { RecordValue } from './values';

export interface Contract {
  contractId: string;
  template: Template;
  args: RecordValue;
  signatories: string[];
  observers: string[];
  /** Sorted union of signatories and observers. */
  stakeholders: string[];
  createdAt: number;
}

export class ContractStore {
  private readonly active = new Map<string, Contract>();

  constructor(private readonly capacity: number) {}

  get(contractId: string): Contract | undefined {
    return this.active.get(contractId);
  }

  get size(): number {
    return this.active.size;
  }

  /** Applies a committed transaction's effects. */
  apply(created: Iterable<Contract>, archived: Iterable<string>): void {
    for (const id of archived) this.active.delete(id);
    for (const c of created) this.active.set(c.contractId, c);
    while (this.active.size > this.capacity) {
      const oldest = this.active.keys().next();
      if (oldest.done) break;
      this.active.delete(oldest.value);
    }
  }
}
