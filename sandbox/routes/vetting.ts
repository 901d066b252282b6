// POST /v2/package-vetting/list (ListVettedPackages). Canton's order: decode the body (tapir, 400 text/plain)
// → resolve the token → authorize (any authenticated user; 401/403) → validate the request
// (PROTO_DESERIALIZATION_FAILURE) → list one page from the stateless token.
import type { FastifyInstance } from 'fastify';
import { requireAuthenticated } from '../auth';
import type { SandboxContext } from '../context';
import { sendJson } from '../reply';
import { listVettedPackages, type ListVettedPackagesResponse } from '../vetting/list';
import { LIST_REQUEST_SCHEMA, parseListRequest, type ListVettedPackagesBody } from '../vetting/request';
import type { Churn } from '../vetting/churn';
import { encodePageToken } from '../vetting/page-token';
import type { VettingTopology } from '../vetting/topology';

export function registerVettingRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  topology: VettingTopology,
  churn?: Pick<Churn, 'onListRequest'>,
): void {
  const { maxVettedPackagesPageSize, mode } = ctx.config;
  const list = (body: ListVettedPackagesBody): ListVettedPackagesResponse =>
    listVettedPackages(
      topology,
      parseListRequest(body, maxVettedPackagesPageSize, ctx.faults),
      mode,
      ctx.faults,
    );
  const faulty = statefulTokenFault(ctx, list) ?? positionTokenFault(ctx, topology, list);
  const listed = (body: ListVettedPackagesBody) => (faulty ? faulty(body) : list(body));

  app.post('/v2/package-vetting/list', { schema: { body: LIST_REQUEST_SCHEMA } }, async (request, reply) => {
    requireAuthenticated(await ctx.auth.resolve(request));
    const body = request.body as ListVettedPackagesBody;
    const page = ownListingFaults(ctx, body, listed);
    churn?.onListRequest();
    return sendJson(reply, page);
  });
}

const POSITION = /^pos-(\d+)$/;

/**
 * vet-token-position (sandbox/faults/groups/vetting.ts): a token holds how many entries came before it, not the
 * last entry. On a quiet participant that is the same place; when an entry joins (or leaves) before it, the
 * next page repeats (or skips) an entry. Only the entries are counted (Canton pages entries before it filters
 * packages); a token the fault did not issue goes the ordinary way.
 */
function positionTokenFault(
  ctx: SandboxContext,
  topology: VettingTopology,
  list: (body: ListVettedPackagesBody) => ListVettedPackagesResponse,
): ((body: ListVettedPackagesBody) => ListVettedPackagesResponse) | undefined {
  if (!ctx.faults.has('vet-token-position')) return undefined;
  return (body) => {
    const m = POSITION.exec(body.pageToken ?? '');
    let offset = 0;
    let request = body;
    if (m) {
      offset = Number(m[1]);
      const opts = parseListRequest(
        { ...body, pageToken: '' },
        ctx.config.maxVettedPackagesPageSize,
        ctx.faults,
      );
      let i = 0;
      let before: { synchronizerId: string; participantId: string } | undefined;
      for (const e of topology.entriesAfter(undefined, opts)) {
        if ((i += 1) === offset) {
          before = { synchronizerId: e.synchronizer.full, participantId: e.participant.full };
          break;
        }
      }
      if (before === undefined) return { vettedPackages: [], nextPageToken: '' };
      request = { ...body, pageToken: encodePageToken(before.synchronizerId, before.participantId) };
    }
    const page = list(request);
    if (page.nextPageToken === '') return page;
    return { ...page, nextPageToken: `pos-${offset + page.vettedPackages.length}` };
  };
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

/** The token vet-first-page-empty hands out: "from the first entry again" (any other use is an invalid token). */
const RESTART = Buffer.from('restart').toString('base64url');

/**
 * The participant's listing broken where a harness's set-up reads it (sandbox/faults/groups/vetting.ts):
 * vet-own-entry-no-packages lists the participant's own entries with no package, whatever the filter;
 * vet-first-page-empty answers the unfiltered first page of the server's size (pageSize 0 or absent) with no
 * entry and a token that starts over.
 */
function ownListingFaults(
  ctx: SandboxContext,
  body: ListVettedPackagesBody,
  list: (body: ListVettedPackagesBody) => ListVettedPackagesResponse,
): ListVettedPackagesResponse {
  const first = (body.pageToken ?? '') === '';
  const filtered = [
    body.packageMetadataFilter?.packageIds,
    body.packageMetadataFilter?.packageNamePrefixes,
    body.topologyStateFilter?.participantIds,
    body.topologyStateFilter?.synchronizerIds,
  ].some((values) => (values?.length ?? 0) > 0);
  const restarted = ctx.faults.has('vet-first-page-empty') && body.pageToken === RESTART;
  const page = list(restarted ? { ...body, pageToken: '' } : body); // a request it rejects stays rejected
  const serverSized = (body.pageSize ?? 0) === 0;
  if (
    ctx.faults.has('vet-first-page-empty') &&
    first &&
    serverSized &&
    !filtered &&
    page.vettedPackages.length > 0
  )
    return { vettedPackages: [], nextPageToken: RESTART };
  if (!ctx.faults.has('vet-own-entry-no-packages')) return page;
  const own = ctx.config.participantId;
  return {
    ...page,
    vettedPackages: page.vettedPackages.map((e) => (e.participantId === own ? { ...e, packages: [] } : e)),
  };
}
