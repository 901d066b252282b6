// Canton's stateless vetting page token, byte for byte: URL-safe base64 (Java's Base64.getUrlEncoder, with
// padding) of the protobuf `ListVettedPackagesPageTokenPayload { string synchronizer_id = 1;
// string participant_id = 2; }` holding the last returned entry. The message has two string fields, so
// its wire format is written here directly rather than pulling in a protobuf runtime.
import { uid, uidError, type Uid } from './uid';
import type { Position } from './topology';

const utf8 = new TextEncoder();
const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

function varint(n: number): number[] {
  const out: number[] = [];
  while (n > 0x7f) {
    out.push((n & 0x7f) | 0x80);
    n >>>= 7;
  }
  out.push(n);
  return out;
}

function stringField(tag: number, value: string): number[] {
  if (value === '') return []; // proto3 leaves default values out
  const bytes = utf8.encode(value);
  return [tag, ...varint(bytes.length), ...bytes];
}

export function encodePageToken(synchronizerId: string, participantId: string): string {
  const bytes = [...stringField(0x0a, synchronizerId), ...stringField(0x12, participantId)];
  return Buffer.from(bytes).toString('base64').replace(/\+/g, '-').replace(/\//g, '_');
}

/** Java's URL-safe decoder: only the URL alphabet, optional correct padding, no dangling 6-bit unit. */
function base64UrlDecode(s: string): Buffer | undefined {
  const m = /^([A-Za-z0-9_-]*)(={0,2})$/.exec(s);
  if (!m) return undefined;
  const [, data = '', pad = ''] = m;
  if (data.length % 4 === 1) return undefined;
  if (pad.length > 0 && (data.length + pad.length) % 4 !== 0) return undefined;
  return Buffer.from(data, 'base64url');
}

/** Reads fields 1 and 2 (last occurrence wins); unknown fields are skipped, as protobuf parsers do. */
function parsePayload(bytes: Buffer): { synchronizerId: string; participantId: string } | undefined {
  const out = { synchronizerId: '', participantId: '' };
  let i = 0;
  const readVarint = (): number | undefined => {
    let result = 0;
    for (let shift = 0; shift < 64; shift += 7) {
      if (i >= bytes.length) return undefined;
      const b = bytes[i++] as number;
      if (shift < 28) result |= (b & 0x7f) << shift;
      else if (shift < 53) result += (b & 0x7f) * 2 ** shift;
      if ((b & 0x80) === 0) return result >>> 0 === result ? result : Number.MAX_SAFE_INTEGER;
    }
    return undefined; // more than 10 bytes: malformed varint
  };
  while (i < bytes.length) {
    const key = readVarint();
    if (key === undefined || key >>> 3 === 0) return undefined;
    const wireType = key & 7;
    if (wireType === 0) {
      if (readVarint() === undefined) return undefined;
    } else if (wireType === 1 || wireType === 5) {
      i += wireType === 1 ? 8 : 4;
      if (i > bytes.length) return undefined;
    } else if (wireType === 2) {
      const len = readVarint();
      if (len === undefined || i + len > bytes.length) return undefined;
      const chunk = bytes.subarray(i, i + len);
      i += len;
      if (key === 0x0a || key === 0x12) {
        let text: string;
        try {
          text = strictUtf8.decode(chunk);
        } catch {
          return undefined;
        }
        if (key === 0x0a) out.synchronizerId = text;
        else out.participantId = text;
      }
    } else {
      return undefined; // groups and reserved wire types
    }
  }
  return out;
}

const invalid = (suffix: string): string => `Invalid page token for ListVettedPackagesRequest: ${suffix}`;

/** The position after which the page starts, or Canton's reason text for a token it did not issue. */
export function decodePageToken(raw: string): Position | string {
  const bytes = base64UrlDecode(raw);
  if (!bytes) return invalid('Failed base64 decoding');
  const payload = parsePayload(bytes);
  if (!payload) return invalid('Failed proto decoding');
  const syncError = uidError(payload.synchronizerId);
  if (syncError !== undefined) return invalid(`Couldn't extract token's synchronizer ID: ${syncError}`);
  const partError = uidError(payload.participantId);
  if (partError !== undefined) return invalid(`Couldn't extract token's participant ID: ${partError}`);
  const synchronizer: Uid = uid(payload.synchronizerId);
  return { synchronizer, participant: uid(payload.participantId) };
}
