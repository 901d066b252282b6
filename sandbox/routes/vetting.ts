// POST /v2/package-vetting/list (ListVettedPackages). Canton's order: decode the body (tapir, 400 text/plain)
// → resolve the token → authorize (any authenticated user; 401/403) → validate the request
// (PROTO_DESERIALIZATION_FAILURE) → list one page from the stateless token.
import type { FastifyInstance } from 'fastify';
import { requireAuthenticated } from '../auth';
import type { SandboxContext } from '../context';
import { sendJson } from '../reply';
import { listVettedPackages, type ListVettedPackagesResponse } from '../vetting/list';
import { LIST_REQUEST_SCHEMA, parseListRequest, type ListVettedPackagesBody } from '../vetting/request';
import type { VettingTopology } from '../vetting/topology';

export function registerVettingRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  topology: VettingTopology,
): void {
  const { maxVettedPackagesPageSize, mode } = ctx.config;
  const list = (body: ListVettedPackagesBody): ListVettedPackagesResponse =>
    listVettedPackages(
      topology,
      parseListRequest(body, maxVettedPackagesPageSize, ctx.faults),
      mode,
      ctx.faults,
    );
  const faulty = statefulTokenFault(ctx, list);

  app.post('/v2/package-vetting/list', { schema: { body: LIST_REQUEST_SCHEMA } }, async (request, reply) => {
    requireAuthenticated(await ctx.auth.resolve(request));
    const body = request.body as ListVettedPackagesBody;
    return sendJson(reply, faulty ? faulty(body) : list(body));
  });
}

/**
 * The faults that keep state between calls, which the document rules out ("the server stores no
 * intermediate results"; sandbox/faults/groups/vetting.ts). Undefined — the stateless path — unless one is on.
 */
function statefulTokenFault(
  ctx: SandboxContext,
  list: (body: ListVettedPackagesBody) => ListVettedPackagesResponse,
): ((body: ListVettedPackagesBody) => ListVettedPackagesResponse) | undefined {
  if (ctx.faults.has('vet-token-cursor')) {
    // A token names a server-side cursor that moves on with every use.
    const cursors = new Map<string, string>();
    let issued = 0;
    return (body) => {
      const cursor = body.pageToken ? cursors.get(body.pageToken) : undefined;
      if (cursor === '') return { vettedPackages: [], nextPageToken: '' };
      const page = list(cursor === undefined ? body : { ...body, pageToken: cursor });
      if (cursor !== undefined) cursors.set(body.pageToken!, page.nextPageToken);
      if (page.nextPageToken === '') return page;
      const id = `cursor-${(issued += 1)}`;
      cursors.set(id, page.nextPageToken);
      return { ...page, nextPageToken: id };
    };
  }
  if (ctx.faults.has('vet-token-stale-cache')) {
    // The page of a token is computed once and served again, whatever was vetted meanwhile.
    const cache = new Map<string, ListVettedPackagesResponse>();
    return (body) => {
      if (!body.pageToken) return list(body);
      const key = JSON.stringify(body);
      const page = cache.get(key) ?? list(body);
      cache.set(key, page);
      return page;
    };
  }
  return undefined;
}
