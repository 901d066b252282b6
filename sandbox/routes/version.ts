// GET /v2/version: the configured SemVer and the FeaturesDescriptor with Canton's defaults
// (docs/canton-behaviour.md §3). Canton's VersionService has no authorization check, so in `canton` mode it answers
// without a token; in `strict-interface` mode the document's "the header is required" applies.
import type { FastifyInstance } from 'fastify';
import { requireAuthenticated } from '../auth';
import type { SandboxConfig } from '../config';
import type { SandboxContext } from '../context';
import { sendJson } from '../reply';

/** The response body, fields in the proto's order; only the page size and version are configurable. */
export function versionResponse(config: SandboxConfig): unknown {
  return {
    version: config.version,
    features: {
      experimental: {
        staticTime: { supported: false },
        commandInspectionService: { supported: true },
      },
      userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
      partyManagement: { maxPartiesPageSize: 10000 },
      // index-service offset-checkpoint-cache-update-interval (15 s) + idle-stream-offset-checkpoint-timeout
      // (1 min), serialised as a proto Duration object including the empty unknownFields.
      offsetCheckpoint: {
        maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } },
      },
      packageFeature: { maxVettedPackagesPageSize: config.maxVettedPackagesPageSize },
    },
  };
}

export function registerVersionRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // The answer never changes while the app runs: serialise it once (this route is the benchmark's hot path).
  const body = Buffer.from(JSON.stringify(versionResponse(ctx.config)));
  // Fault ver-auth-flipped: the mode's Authorization behaviour of this operation, inverted.
  const strict = (ctx.config.mode === 'strict-interface') !== ctx.faults.has('ver-auth-flipped');

  app.get('/v2/version', async (request, reply) => {
    if (strict) requireAuthenticated(await ctx.auth.resolve(request));
    return sendJson(reply, body);
  });
}
