// Which answers a busy participant gives that say nothing yet, and how the harness asks again. Canton marks an
// error category retryable, with the delay its `retryInfo` prints (base-errors/ErrorCategory.scala;
// docs/canton-behaviour.md, "What the harness retries"): TransientServerFailure (503), ContentionOnSharedResources
// (409 ABORTED) and DeadlineExceededRequestStateUnknown (504). A gateway's 502/503/504 and a 429 say the same of
// the node behind them, and a connection reset or refused between answers is a restart or a balancer. Nothing
// else is ever retried: a 4xx verdict, a 500 (SystemInternalAssumptionViolated: a participant's defect), any other
// 5xx to bad input — each is judged as it came. SUBMISSION_ALREADY_IN_FLIGHT, an ABORTED of the same category, is
// the deduplication rules' own answer about a change: judged, never retried.
import type { HttpResponse, TransportFailureKind } from './http';
import { TransportFailure } from './http';

export const RETRY = {
  /** Attempts after the first, within a rule's run (at a fifth of answers transient, five in a row are rare). */
  retries: 4,
  /** Before the tests (the first probe, identity, rights, vetting): a participant all 503 is down within seconds. */
  setupRetries: 3,
  /** The delay when the answer names none: short, doubled each time. */
  backoffMs: 250,
  /** A connection refused or reset: asked again quickly, twice, before the target is probed for being gone. */
  transportRetries: 2,
  /** No single wait is longer (Canton's ABORTED_DUE_TO_SHUTDOWN asks for 10 s). */
  maxDelayMs: 10_000,
  /** Before the tests no single wait is longer: a down participant is one verdict, exit 4, in seconds. */
  setupMaxDelayMs: 2_000,
} as const;

/** An answer or a transport failure that Canton (or the gateway in front of it) says to try again. */
export interface Transient {
  /** The answer in a few words: `503 SERVICE_NOT_RUNNING`, `409 SERVER_OVERLOADED`, `connection reset`. */
  what: string;
  /** The wait the answer asks for (retryInfo, Retry-After), undefined: none named. */
  askedMs: number | undefined;
  /**
   * Whether the request may have been carried out (Canton: TransientServerFailure "might or might not have been
   * processed"; DeadlineExceededRequestStateUnknown). False only for contention and a refusal before any work.
   */
  mayHaveRun: boolean;
}

const parse = (text: string): Record<string, unknown> | undefined => {
  try {
    const v: unknown = JSON.parse(text);
    return v !== null && typeof v === 'object' ? (v as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
};

/** Canton's category number of ContentionOnSharedResources (base-errors/ErrorCategory.scala). */
const CONTENTION = 2;
/** A change's own submission still in flight: the deduplication rules' verdict, not contention to wait out. */
const IN_FLIGHT = 'SUBMISSION_ALREADY_IN_FLIGHT';

/** Whether an HTTP answer is one to ask again, and what it says about the wait. */
export function transientAnswer(res: HttpResponse): Transient | undefined {
  const { status } = res;
  if (status !== 409 && status !== 429 && status !== 502 && status !== 503 && status !== 504)
    return undefined;
  const body = parse(res.text);
  const code = typeof body?.code === 'string' ? body.code : undefined;
  if (status === 409 && (body?.errorCategory !== CONTENTION || code === IN_FLIGHT)) return undefined;
  const askedMs = retryInfoMs(body?.retryInfo) ?? retryAfterMs(res.headers['retry-after']);
  return {
    what: `${status}${code ? ` ${code}` : ''}`,
    askedMs,
    mayHaveRun: status !== 409 && status !== 429,
  };
}

/** Refused or reset: the connection, not an answer; anything else (a timeout, DNS, TLS) is never retried. */
const RETRIED_FAILURES: Partial<Record<TransportFailureKind, string>> = {
  refused: 'connection refused',
  reset: 'connection reset',
};

export function transientFailure(e: unknown): Transient | undefined {
  const what = e instanceof TransportFailure ? RETRIED_FAILURES[e.kind] : undefined;
  return what === undefined
    ? undefined
    : { what, askedMs: undefined, mayHaveRun: what !== 'connection refused' };
}

const UNIT_MS: Record<string, number> = {
  nanosecond: 1e-6,
  microsecond: 1e-3,
  millisecond: 1,
  second: 1_000,
  minute: 60_000,
  hour: 3_600_000,
  day: 86_400_000,
};

/** Scala's `Duration.toString` as Canton prints `retryInfo`: "1 second", "5 seconds", "500 milliseconds". */
export function retryInfoMs(v: unknown): number | undefined {
  if (typeof v !== 'string') return undefined;
  const m = /^(\d+(?:\.\d+)?) ([a-z]+?)s?$/.exec(v.trim());
  const unit = m ? UNIT_MS[m[2]!] : undefined;
  return m && unit !== undefined ? Math.round(Number(m[1]) * unit) : undefined;
}

/** HTTP's Retry-After in seconds (a gateway's, a 429's); a date form is not worth a wait computed from clocks. */
function retryAfterMs(v: string | undefined): number | undefined {
  return v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) * 1000 : undefined;
}

/** One try: an answer, or the error of a request that got none. */
export type Attempt = { res: HttpResponse; error?: undefined } | { res?: undefined; error: unknown };

export interface RetryPolicy {
  retries: number;
  maxDelayMs: number;
  /** What is left of the caller's time budget; a wait that leaves less than `reserveMs` of it is not made. */
  leftMs?: () => number;
  reserveMs?: number;
}

export interface Retried {
  transient: Transient;
  waitedMs: number;
}

export interface Retrying {
  last: Attempt;
  /** Each transient answer asked again, in order. */
  retried: Retried[];
  /** Set when the last attempt was still transient: why no further one was made. */
  gaveUp?: string;
}

const wait = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** The wait before retry number `n` (from 0): the one asked for, else the backoff; at most the policy's cap. */
export function delayFor(t: Transient, n: number, maxDelayMs: number): number {
  return Math.min(maxDelayMs, t.askedMs ?? RETRY.backoffMs * 2 ** n);
}

/**
 * Sends, and sends again while the answer is transient: at most the policy's retries (a connection refused or
 * reset: at most RETRY.transportRetries), each after its delay, never past the budget.
 */
export async function sendRetrying(
  send: () => Promise<Attempt>,
  policy: RetryPolicy,
  onRetry: (r: Retried) => void = () => {},
): Promise<Retrying> {
  const retried: Retried[] = [];
  for (;;) {
    const last = await send();
    const t = last.res ? transientAnswer(last.res) : transientFailure(last.error);
    if (t === undefined) return { last, retried };
    const n = retried.length;
    const limit = last.res ? policy.retries : Math.min(policy.retries, RETRY.transportRetries);
    if (n >= limit)
      return { last, retried, gaveUp: `still ${t.what} after ${n} ${n === 1 ? 'retry' : 'retries'}` };
    const ms = delayFor(t, n, policy.maxDelayMs);
    const left = policy.leftMs?.();
    if (left !== undefined && left - ms < (policy.reserveMs ?? 0))
      return {
        last,
        retried,
        gaveUp: `${t.what}, and the rule's time budget left no room for another retry (after ${n}; it asked for ${ms} ms)`,
      };
    const r = { transient: t, waitedMs: ms };
    retried.push(r);
    onRetry(r);
    await wait(ms);
  }
}

/** `retried` counted by answer: "503 SERVICE_NOT_RUNNING ×2, 409 SERVER_OVERLOADED". */
export function retriedWords(retried: readonly Retried[]): string {
  const counts = new Map<string, number>();
  for (const r of retried) counts.set(r.transient.what, (counts.get(r.transient.what) ?? 0) + 1);
  return [...counts].map(([what, n]) => (n > 1 ? `${what} ×${n}` : what)).join(', ');
}
