// W3C trace context: a valid `traceparent` request header is propagated into the tree's traceContext (and
// its trace id into error bodies), as Canton does; without one the sandbox starts a new trace, as Canton's
// ledger API server does. tracestate is kept only alongside a valid traceparent, else null.
import { newSpanId, newTraceId } from './idgen';

export interface TraceContext {
  traceparent: string;
  tracestate: string | null;
  traceId: string;
}

const TRACEPARENT = /^([0-9a-f]{2})-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})(-.*)?$/;

const header = (v: string | string[] | undefined): string | undefined =>
  (Array.isArray(v) ? v[0] : v)?.trim();

export function traceContext(
  traceparent: string | string[] | undefined,
  tracestate: string | string[] | undefined,
): TraceContext {
  const m = TRACEPARENT.exec(header(traceparent) ?? '');
  if (m) {
    const [, version = '', traceId = '', spanId = '', flags = '', rest] = m;
    const valid =
      version !== 'ff' &&
      (version !== '00' || rest === undefined) &&
      !/^0+$/.test(traceId) &&
      !/^0+$/.test(spanId);
    if (valid)
      return {
        traceparent: `00-${traceId}-${spanId}-${flags}`,
        tracestate: header(tracestate) || null,
        traceId,
      };
  }
  const traceId = newTraceId();
  return { traceparent: `00-${traceId}-${newSpanId()}-01`, tracestate: null, traceId };
}
