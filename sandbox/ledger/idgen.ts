// Ids in Canton's forms. Update ids are `1220` + 64 lowercase hex (a multihash of a SHA-256). Contract ids are
// Daml-LF V1: `00` + a 32-byte discriminator + Canton's suffix `ca10` + `1220` + 32 bytes, 138 hex chars.
// Random bytes come from a pooled buffer so the hot path makes one syscall per 128 ids, not one per id.
import { randomBytes } from 'node:crypto';

const POOL_SIZE = 64 * 128;
let pool = randomBytes(POOL_SIZE);
let used = 0;

function hex(bytes: number): string {
  if (used + bytes > POOL_SIZE) {
    pool = randomBytes(POOL_SIZE);
    used = 0;
  }
  const out = pool.toString('hex', used, used + bytes);
  used += bytes;
  return out;
}

export const newUpdateId = (): string => `1220${hex(32)}`;
export const newContractId = (): string => `00${hex(32)}ca101220${hex(32)}`;
/** W3C trace ids: 16 bytes trace id, 8 bytes span id. */
export const newTraceId = (): string => hex(16);
export const newSpanId = (): string => hex(8);
