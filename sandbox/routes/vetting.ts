// POST /v2/package-vetting/list (ListVettedPackages). Canton's order: decode the body (tapir, 400 text/plain)
// → resolve the token → authorize (any authenticated user; 401/403) → validate the request
// (PROTO_DESERIALIZATION_FAILURE) → list one page from the stateless token.
import type { FastifyInstance } from 'fastify';
import { requireAuthenticated } from '../auth';
import type { SandboxContext } from '../context';
import { sendJson } from '../reply';
import { listVettedPackages } from '../vetting/list';
import { LIST_REQUEST_SCHEMA, parseListRequest, type ListVettedPackagesBody } from '../vetting/request';
import type { VettingTopology } from '../vetting/topology';

export function registerVettingRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  topology: VettingTopology,
): void {
  const { maxVettedPackagesPageSize, mode } = ctx.config;
  const finalPageEmptyToken = mode === 'strict-interface';

  app.post('/v2/package-vetting/list', { schema: { body: LIST_REQUEST_SCHEMA } }, async (request, reply) => {
    requireAuthenticated(await ctx.auth.resolve(request));
    const opts = parseListRequest(request.body as ListVettedPackagesBody, maxVettedPackagesPageSize);
    return sendJson(reply, listVettedPackages(topology, opts, finalPageEmptyToken));
  });
}
