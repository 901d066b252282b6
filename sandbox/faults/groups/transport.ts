// Transport faults: the environment misbehaves, not the participant's logic. They must never produce a
// "failed" verdict: a slow target still passes (timeouts scale), resets and 5xx are inconclusive.
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
    breaks: 'every third connection is reset before an answer is sent',
    rules: [],
    kind: 'transport',
    expect: 'inconclusive',
    onRequest: (req, _reply, state) => {
      if (state.calls % 3 === 0) req.raw.socket.destroy();
    },
  }),
  fault({
    name: 'transport-unavailable',
    breaks: 'every third call answers 503 UNAVAILABLE, as a participant that is restarting',
    rules: [],
    kind: 'transport',
    expect: 'inconclusive',
    onRequest: async (_req, reply, state) => {
      if (state.calls % 3 !== 0) return;
      const err = cantonError(
        'SERVICE_NOT_RUNNING',
        'TransientServerFailure',
        'Ledger API server is shutting down',
      );
      await reply.code(err.status).type('application/json').send(err.body);
    },
  }),
];
