// Wires the enabled faults into an app: transport faults first (onRequest), response rewrites last
// (onSend). The set the routes ask for behavioural faults (`ctx.faults.has(name)`) is registry.ts's.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { ConfigError } from '../config';
import { JSON_TYPE } from '../reply';
import { FAULTS, faultByName } from './catalogue';
import type { Fault, FaultRoute } from './types';

// The registry is a leaf (registry.ts); re-exported here for the callers that wire faults into an app.
export { NO_FAULTS, type FaultSet } from './registry';

/** A ConfigError: main.ts prints it and stops, as any other bad setting. */
export class UnknownFaultError extends ConfigError {}

/** Resolves names to faults; an unknown name is an error listing the known ones (a typo must not run clean). */
export function resolveFaults(names: readonly string[]): Fault[] {
  return names.map((name) => {
    const fault = faultByName(name);
    if (!fault) {
      throw new UnknownFaultError(
        `SANDBOX_FAULTS names an unknown fault "${name}": use names from sandbox/faults (${FAULTS.map((f) => f.name).join(', ')})`,
      );
    }
    return fault;
  });
}

/** The banner printed wherever a faulty sandbox starts: a broken participant must never pass unnoticed. */
export function faultBanner(faults: readonly Fault[]): string {
  const lines = faults.map((f) => `!!   ${f.name}: ${f.breaks}`);
  return ['!! SANDBOX FAULTS ENABLED — this participant is deliberately broken:', ...lines].join('\n');
}

const ROUTES: Record<Exclude<FaultRoute, 'any'>, string> = {
  version: '/v2/version',
  'vetting-list': '/v2/package-vetting/list',
  'submit-tree': '/v2/commands/submit-and-wait-for-transaction-tree',
};

function routeMatches(route: FaultRoute, req: FastifyRequest): boolean {
  return route === 'any' || req.routeOptions.url === ROUTES[route];
}

/**
 * Whether the faults apply to each request, in arrival order: always, or on a seeded share of them
 * (SANDBOX_FAULTS_FRACTION, SANDBOX_FAULTS_SEED). mulberry32: small, and the same draws on every machine.
 */
function faultDraws(fraction: number, seed: number): () => boolean {
  if (fraction >= 1) return () => true;
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296 < fraction;
  };
}

const FAULTY = Symbol('faulty');
type Drawn = FastifyRequest & { [FAULTY]?: boolean };

export function installFaults(
  app: FastifyInstance,
  faults: readonly Fault[],
  { fraction = 1, seed = 1 }: { fraction?: number; seed?: number } = {},
): void {
  if (faults.length === 0) return;
  const draw = faultDraws(fraction, seed);
  // Only the requests a fault can touch draw: a request to another route (the API description, the control
  // route) leaves the same requests broken.
  const routes = faults.map((f) => f.rewrite?.route ?? 'any');
  app.addHook('onRequest', async (req) => {
    (req as Drawn)[FAULTY] = routes.some((r) => routeMatches(r, req)) && draw();
  });
  const transport = faults.filter((f) => f.onRequest);
  if (transport.length > 0) {
    const state = { calls: 0 };
    app.addHook('onRequest', async (req, reply) => {
      if (!(req as Drawn)[FAULTY]) return;
      state.calls += 1;
      for (const f of transport) {
        await f.onRequest!(req, reply, state);
        if (reply.sent) return reply;
      }
    });
  }
  const rewrites = faults.filter((f) => f.rewrite);
  if (rewrites.length === 0) return;
  app.addHook('onSend', async (req, reply, payload) => {
    if (!(req as Drawn)[FAULTY]) return payload;
    const type = String(reply.getHeader('content-type') ?? '');
    if (!type.startsWith(JSON_TYPE)) return payload;
    const text = Buffer.isBuffer(payload)
      ? payload.toString('utf8')
      : typeof payload === 'string'
        ? payload
        : undefined;
    if (text === undefined) return payload;
    let view = { status: reply.statusCode, body: JSON.parse(text) as unknown, contentType: type };
    for (const f of rewrites) {
      if (routeMatches(f.rewrite!.route, req)) view = f.rewrite!.apply(view, req) ?? view;
    }
    reply.code(view.status).header('content-type', view.contentType);
    return typeof view.body === 'string' && !view.contentType.startsWith(JSON_TYPE)
      ? view.body
      : JSON.stringify(view.body);
  });
}
