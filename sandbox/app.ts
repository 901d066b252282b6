// Builds the sandbox participant without listening (tests and the harness inject into it; main.ts listens).
// Set up as Canton's JSON API behaves: any content type is read as JSON (tapir does not insist on one),
// unknown fields are ignored, nothing is coerced or stripped, and every failure goes through one handler.
import { createRequire } from 'node:module';
import Fastify, { type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { createAuthenticator, emptyBearerHook } from './auth';
import type { SandboxConfig } from './config';
import type { SandboxContext } from './context';
import { parseJsonBody } from './decode-failures';
import { BODY_LIMIT, clientErrorHandler, frameworkErrors, installErrorHandling } from './error-handler';
import { installFaults, resolveFaults } from './faults/install';
import { installBusy } from './busy';
import { faultSet } from './faults/registry';
import { registerControlRoutes } from './routes/control';
import { registerDocsRoutes } from './routes/docs';
import { registerIdentityRoutes } from './routes/identity';
import { registerSubmitRoutes } from './routes/submit';
import { registerVersionRoutes } from './routes/version';
import { registerVettingRoutes } from './routes/vetting';
import { startChurn } from './vetting/churn';
import { generateTopology } from './vetting/generate';

/** pekko's default max-uri-length is 2k: no path parameter is longer than the URI that carries it. */
const MAX_PARAM_LENGTH = 2048;

type ValidatorFactory = NonNullable<
  NonNullable<NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']>['buildValidator']
>;

/**
 * fastify's own validator compilers (the `@fastify/ajv-compiler` it depends on, so its defaults), one pool for
 * every sandbox of the process: fastify makes a new pool per app, so each app built its own Ajv and compiled
 * the same schemas again — most of a sandbox's start-up, paid per fault by the fault runner and per test by
 * the self-tests. One pool holds one Ajv per set of options, which compiles each schema once.
 */
const SHARED_VALIDATORS = (
  createRequire(require.resolve('fastify'))('@fastify/ajv-compiler') as () => ValidatorFactory
)();

export async function buildApp(config: SandboxConfig): Promise<FastifyInstance> {
  const faults = resolveFaults(config.faults);
  const app = Fastify({
    logger: config.logLevel ? { level: config.logLevel } : false,
    bodyLimit: BODY_LIMIT,
    // A path parameter (a user id in /v2/users/{user-id}/rights) may be far longer than fastify's default
    // 100 characters: a valid one has up to 128, and a longer one deserves Canton's INVALID_ARGUMENT.
    routerOptions: { maxParamLength: MAX_PARAM_LENGTH },
    schemaController: { compilersFactory: { buildValidator: SHARED_VALIDATORS } },
    clientErrorHandler, // malformed HTTP: text/plain, as pekko, never fastify's JSON
    frameworkErrors, // a path fastify cannot decode: pekko's 400, never fastify's JSON
    ajv: {
      customOptions: {
        coerceTypes: false, // "5" is not 5
        removeAdditional: false, // Canton ignores unknown fields, it does not strip them
        useDefaults: false, // absent stays absent: routes apply Canton's defaults themselves
        allErrors: true, // circe accumulates every failure of a body, joined by ", "
        verbose: true, // the failing value goes into "Got value '…' with wrong type"
      },
    },
  });

  // The body stays a string until a route needs it, so an unknown path answers 404 whatever it was sent.
  app.removeAllContentTypeParsers();
  app.addContentTypeParser('*', { parseAs: 'string' }, (_request, body, done) => done(null, body));
  app.addHook('preValidation', async (request) => {
    if (request.is404 || request.method === 'GET' || request.method === 'HEAD') return;
    request.body = parseJsonBody(request.body);
    return Promise.resolve();
  });
  // First: a busy participant answers before it reads anything of the request.
  installBusy(app, config.busy);
  app.addHook('onRequest', emptyBearerHook(config));
  installErrorHandling(app);
  installFaults(app, faults, { fraction: config.faultsFraction, seed: config.faultsSeed });

  const topology = generateTopology(config);
  const churn = startChurn(topology, config);
  app.addHook('onClose', async () => churn.stop());
  const ctx: SandboxContext = {
    config,
    auth: createAuthenticator(config),
    topology,
    faults: faultSet(faults.map((f) => f.name)),
  };
  registerVersionRoutes(app, ctx);
  registerVettingRoutes(app, ctx, topology, churn);
  registerSubmitRoutes(app, ctx);
  registerIdentityRoutes(app, ctx, topology);
  registerDocsRoutes(app, ctx);
  // Not Canton's API: only when asked for, so a default sandbox exposes nothing Canton does not.
  if (config.control) registerControlRoutes(app, ctx, topology);

  await app.ready();
  return app;
}
