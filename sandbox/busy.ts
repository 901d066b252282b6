// A busy participant, or the gateway in front of one: a seeded fraction of the requests to Canton's API (/v2/…)
// is answered with one of Canton's transient errors instead of being served, and never reaches a route (it
// changes nothing). The answers are Canton's own: 503 INDEX_DB_SQL_TRANSIENT_ERROR, category
// TransientServerFailure (ledger-api-core/ledger/error/IndexErrors.scala), and 409 PARTICIPANT_BACKPRESSURE,
// category ContentionOnSharedResources (ledger-api-core/ledger/error/LedgerApiErrors.scala), each with the
// category's `retryInfo` (base-errors/ErrorCategory.scala). The harness must ask again and reach the verdicts a
// quiet participant gives. Off unless SANDBOX_BUSY is set; the control route (not Canton's) is never busy.
import type { FastifyInstance } from 'fastify';
import type { BusyConfig } from './config';
import { cantonError, type CantonError } from './errors';
import { prng } from './vetting/prng';

/** Canton's transient answers the busy sandbox gives, by HTTP status. */
const ANSWERS: Record<BusyConfig['answers'][number], () => CantonError> = {
  '503': () =>
    cantonError(
      'INDEX_DB_SQL_TRANSIENT_ERROR',
      'TransientServerFailure',
      'Processing the request failed due to a transient database error: connection pool exhausted',
    ),
  '409': () =>
    cantonError(
      'PARTICIPANT_BACKPRESSURE',
      'ContentionOnSharedResources',
      'The participant is overloaded: too many in-flight requests',
      { context: { reason: 'too many in-flight requests' }, definiteAnswer: false },
    ),
};

/** What a busy sandbox answered so far (for its banner and self-tests). */
export interface BusyCounts {
  requests: number;
  busy: number;
}

/** The first hook of every request: a seeded draw decides whether it is served or answered busy. */
export function installBusy(app: FastifyInstance, busy: BusyConfig): BusyCounts {
  const counts: BusyCounts = { requests: 0, busy: 0 };
  if (busy.fraction <= 0) return counts;
  const draw = prng(busy.seed);
  // The draws per million: a fraction as an integer threshold keeps the sequence exact across platforms.
  const threshold = Math.round(busy.fraction * 1_000_000);
  app.addHook('onRequest', async (request, reply) => {
    if (!request.url.startsWith('/v2/')) return;
    counts.requests++;
    const roll = draw.below(1_000_000);
    if (roll >= threshold) return;
    counts.busy++;
    const kind = busy.answers[draw.below(busy.answers.length)]!;
    const err = ANSWERS[kind]();
    const body = { ...err.body, retryInfo: busy.retryInfo ?? err.body.retryInfo };
    await reply.code(err.status).type('application/json').send(body);
    return reply;
  });
  return counts;
}
