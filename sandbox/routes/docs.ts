// GET /docs/openapi: the participant's own API description, YAML as text/plain (Canton's JsApiDocsService
// answers with tapir's stringBody, the OpenAPI of its release; it asks the version service with the caller's
// token, so it is authenticated exactly as GET /v2/version). Here the description of the configured version's
// release line, trimmed to the three operations (openapi/description.ts).
import type { FastifyInstance } from 'fastify';
import { stringify } from 'yaml';
import { requireAuthenticated } from '../auth';
import type { SandboxContext } from '../context';
import { documentOf, factsFor } from '../openapi/description';

/** The served text: built on the first request, as most runs never ask (the fault runner builds many apps). */
function describe(ctx: SandboxContext): string {
  const facts = factsFor(ctx.config.version);
  // Fault description-drift: the description alone changes; every answer of the API stays as it was.
  if (ctx.faults.has('description-drift')) {
    const tree = facts.components.JsTransactionTree;
    delete tree?.properties?.offset;
    if (tree?.required) tree.required = tree.required.filter((name) => name !== 'offset');
    facts.operations.vettingList = {
      ...facts.operations.vettingList,
      method: 'post',
      path: '/v2/package-vetting/query',
    };
  }
  return stringify(documentOf(facts));
}

export function registerDocsRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  let body: string | undefined;
  const strict = ctx.config.mode === 'strict-interface';
  app.get('/docs/openapi', async (request, reply) => {
    if (strict) requireAuthenticated(await ctx.auth.resolve(request));
    body ??= describe(ctx);
    return reply.code(200).type('text/plain; charset=UTF-8').send(body);
  });
}
