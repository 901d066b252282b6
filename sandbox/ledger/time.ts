// Ledger time in microseconds since the epoch (Daml timestamps have microsecond precision), printed as Java's
// Instant.toString prints it (Canton's JSON encoder): ISO-8601 UTC, seconds always shown, and a fraction of
// 0, 3 or 6 digits — the shortest of those that is exact (…:36Z, …:36.430Z, …:36.430940Z).

/**
 * The Daml-LF timestamp range: 0001-01-01T00:00:00Z (MIN_MICROS) up to, excluding, 10000-01-01T00:00:00Z
 * (END_MICROS). Microseconds are exact in a double until the year 2255; beyond that they are approximate.
 */
export const MIN_MICROS = -62_135_596_800 * 1_000_000;
export const END_MICROS = 253_402_300_800 * 1_000_000;

/**
 * A microsecond wall clock. performance.now() gives sub-millisecond resolution; Date.now() keeps it on the
 * wall clock (re-anchored when the two drift apart by more than a millisecond, e.g. after an NTP step).
 */
export class MicroClock {
  private anchor = 0;

  constructor() {
    this.reanchor();
  }

  private reanchor(): void {
    this.anchor = Date.now() * 1000 - Math.floor(performance.now() * 1000);
  }

  now(): number {
    let t = this.anchor + Math.floor(performance.now() * 1000);
    const wall = Date.now() * 1000;
    if (t < wall - 1000 || t > wall + 2000) {
      this.reanchor();
      t = this.anchor + Math.floor(performance.now() * 1000);
    }
    return t;
  }
}

const pad = (n: number, width: number): string => String(n).padStart(width, '0');

/**
 * Instant.toString of a microsecond timestamp (within Date's range, ±275 000 years). Years beyond 9999 carry
 * a sign as in Java (`+10000-01-01T00:00:00Z`).
 */
export function formatMicros(micros: number): string {
  const ms = Math.floor(micros / 1000);
  const sub = micros - ms * 1000; // 0..999 microseconds below the millisecond
  const second = Math.floor(ms / 1000);
  const milli = ms - second * 1000;
  const base = secondText(second);
  if (sub === 0 && milli === 0) return `${base}Z`;
  if (sub === 0) return `${base}.${pad(milli, 3)}Z`;
  return `${base}.${pad(milli, 3)}${pad(sub, 3)}Z`;
}

// Consecutive timestamps mostly share their second: format it once (Date#toISOString is the costly part).
let cachedSecond = Number.NaN;
let cachedText = '';
function secondText(second: number): string {
  if (second !== cachedSecond) {
    const iso = new Date(second * 1000).toISOString(); // ±YYYYYY-MM-DDTHH:mm:ss.sssZ outside 0000-9999
    cachedText = iso.slice(0, iso.indexOf('.')).replace(/^([+-])0*(\d{4,})/, '$1$2');
    cachedSecond = second;
  }
  return cachedText;
}

// ISO_INSTANT as Java parses it: date, 'T', HH:mm with optional :ss and a fraction of up to 9 digits,
// then 'Z' or an offset (Java 12+ accepts offsets and converts to UTC).
const INSTANT =
  /^(\d{4}|[+-]\d{4,9})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.(\d{1,9}))?)?(?:(Z)|([+-])(\d{2}):(\d{2})(?::(\d{2}))?)$/i;

/**
 * Parse a request timestamp to microseconds, rounding a sub-microsecond remainder up so that the effective
 * time honouring it is never below the bound. Returns undefined when the text is not an instant; the value
 * may lie outside the LF range (the caller rejects that as Canton does, after decoding).
 */
export function parseInstantMicros(text: string): number | undefined {
  const m = INSTANT.exec(text);
  if (!m) return undefined;
  const [, y, mo, d, h, mi, s = '0', frac = '', , sign, oh = '0', om = '0', os = '0'] = m;
  const year = Number(y);
  const month = Number(mo);
  const day = Number(d);
  const hour = Number(h);
  const minute = Number(mi);
  const second = Number(s);
  if (month < 1 || month > 12 || day < 1 || hour > 23 || minute > 59 || second > 59) return undefined;
  const daysInMonth = new Date(Date.UTC(2000, month, 0)).getUTCDate();
  const leap = (year % 4 === 0 && year % 100 !== 0) || year % 400 === 0;
  if (day > (month === 2 ? (leap ? 29 : 28) : daysInMonth)) return undefined;
  if (Number(oh) > 18 || Number(om) > 59 || Number(os) > 59) return undefined;
  // Years beyond Date's range are far outside the LF range anyway: clamp so the caller sees "out of range".
  if (year > 275_000) return Number.MAX_SAFE_INTEGER;
  if (year < -271_000) return Number.MIN_SAFE_INTEGER;
  const date = new Date(0);
  date.setUTCFullYear(year, month - 1, day);
  date.setUTCHours(hour, minute, second, 0);
  const offsetSeconds = sign
    ? (sign === '-' ? -1 : 1) * (Number(oh) * 3600 + Number(om) * 60 + Number(os))
    : 0;
  const nanos = Number(frac.padEnd(9, '0'));
  const micros = Math.ceil(nanos / 1000);
  return (date.getTime() / 1000 - offsetSeconds) * 1_000_000 + micros;
}

/** A proto Duration {seconds, nanos} in microseconds, rounded up (a bound is never undershot). */
export function durationMicros(seconds: number, nanos: number): number {
  return seconds * 1_000_000 + Math.ceil(nanos / 1000);
}
