// Transport faults: the environment misbehaves, not the participant's logic. They must never produce a
// "failed" verdict: a slow target still passes (timeouts scale); a reset or a 503 now and then is asked again
// (core/retry.ts), and an outage that outlasts the retries is inconclusive.
import { cantonError } from '../../errors';
import { fault } from '../types';

const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export const transportFaults = [
  fault({
    name: 'transport-slow',
    breaks: 'every response is delayed by 300 ms (a slow network or a loaded participant)',
    rules: [],
    kind: 'transport',
    expect: 'pass',
    onRequest: () => delay(300),
  }),
  fault({
    name: 'transport-reset',
    breaks:
      'every tenth connection is reset before an answer is sent, and so is every call of the 2 s after it (a restart)',
    rules: [],
    kind: 'transport',
    expect: 'inconclusive',
    // A window, not single calls: one reset the harness asks again past (core/retry.ts); a restart outlasts it.
    onRequest: (req, _reply, state) => {
      if (outage(state, 10, 2_000)) req.raw.socket.destroy();
    },
  }),
  fault({
    name: 'transport-unavailable',
    breaks:
      'every twentieth call answers 503 UNAVAILABLE, and so does every call of the 8 s after it, as a participant that is restarting',
    rules: [],
    kind: 'transport',
    expect: 'inconclusive',
    onRequest: async (_req, reply, state) => {
      if (!outage(state, 20, 8_000)) return;
      const err = cantonError(
        'SERVICE_NOT_RUNNING',
        'TransientServerFailure',
        'Ledger API server is shutting down',
      );
      await reply.code(err.status).type('application/json').send(err.body);
    },
  }),
];

/** When each fault's sandbox is down until (its state object is the sandbox's own). */
const downUntil = new WeakMap<object, number>();

/** Whether this call falls in an outage: every `every`-th call starts one that lasts `ms`. */
function outage(state: { calls: number }, every: number, ms: number): boolean {
  const now = Date.now();
  if (now < (downUntil.get(state) ?? 0)) return true;
  if (state.calls % every !== 0) return false;
  downUntil.set(state, now + ms);
  return true;
}
