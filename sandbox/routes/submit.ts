// POST /v2/commands/submit-and-wait-for-transaction-tree, in Canton's check order (docs/canton-behaviour.md §1.3):
// decode the body → resolve the token's claims (an unknown user is a 403 here) → JSON layer (actAs presence
// and first party, package references, transcoding; before authorization) → authorization → field validation
// → interpretation → routing → deduplication → commit. Each step lives in sandbox/ledger/.
import type { FastifyInstance } from 'fastify';
import type { SandboxConfig } from '../config';
import type { SandboxContext } from '../context';
import { BodyDecodeError } from '../decode-failures';
import { CantonError } from '../errors';
import { submitFaultHooks } from '../faults/groups/submission-hooks';
import { authorizeSubmission } from '../ledger/authorize';
import { decodeJsCommands } from '../ledger/decode-commands';
import { jsonLayer } from '../ledger/json-layer';
import { Ledger } from '../ledger/ledger';
import { knowsTapsMaxPasses, releaseAtLeast } from '../ledger/release';
import { traceContext } from '../ledger/trace';
import { renderTree } from '../ledger/tree';
import { validate } from '../ledger/validate';
import { sendJson } from '../reply';

export const SUBMIT_TREE_PATH = '/v2/commands/submit-and-wait-for-transaction-tree';

/**
 * The document announces the tree's removal in 3.5.0; real 3.5.x still serves it (deprecated). The sandbox
 * follows Canton unless SANDBOX_REMOVE_TREE_IN_35 asks for the removal, for any 3.5+ release line
 * (pre-releases such as 3.5.0-SNAPSHOT included).
 */
export const treeRemoved = (config: SandboxConfig): boolean =>
  config.removeTreeIn35 && releaseAtLeast(config.version, 3, 5, 0);

/** Canton's errors carry the request's trace id (ErrorInfo `tid`); redacted ones carry nothing. */
function withTraceId(error: unknown, traceId: string): unknown {
  if (error instanceof CantonError && error.body.code !== 'NA' && error.body.traceId === null) {
    error.body.traceId = traceId;
    error.body.context.tid = traceId;
  }
  return error;
}

export function registerSubmitRoutes(app: FastifyInstance, ctx: SandboxContext): void {
  // Faults (sandbox/faults/groups/submission.ts): undefined unless a sub-* fault is enabled.
  const faults = submitFaultHooks(ctx.faults.names);
  if (treeRemoved(ctx.config) && !faults?.keepTree) return; // unregistered: the app's 404, as for any unknown path
  const ledger = new Ledger(ctx.config, ctx.topology, faults);
  const knowsTaps = knowsTapsMaxPasses(ctx.config.version, ctx.config.mode);

  app.post(SUBMIT_TREE_PATH, faults?.routeOptions ?? {}, async (request, reply) => {
    const receivedAt = ledger.now(); // minLedgerTimeRel counts from here
    const trace = traceContext(request.headers.traceparent, request.headers.tracestate);
    try {
      const decoded = decodeJsCommands(faults ? faults.body(request.body) : request.body, knowsTaps);
      if (!decoded.ok) throw new BodyDecodeError(decoded.details);
      const claims = await ctx.auth.resolve(request);
      const cmds = faults ? faults.commands(decoded.value, claims, ctx.config) : decoded.value;
      const commands = jsonLayer(cmds, ctx.config, ledger.connected);
      const userId = authorizeSubmission(claims, cmds);
      const submission = validate(cmds, userId, commands, ctx.config, receivedAt);
      const tx = faults ? faults.submit(ledger, submission, trace) : ledger.submit(submission, trace);
      return sendJson(reply, renderTree(tx));
    } catch (error) {
      throw withTraceId(error, trace.traceId);
    }
  });
}
