// The one place a rejection becomes a response. Canton has two error shapes: tapir's 400 text/plain for
// input it cannot decode, and JsCantonError (status derived from grpcCodeValue) for everything else.
// Bad input must end as a 4xx here — a 5xx is only ever a bug of the sandbox, never the client's doing.
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ajvErrorsToDetails, BodyDecodeError, TapirDecodeError } from './decode-failures';
import { CantonError, internalError } from './errors';
import { sendJson } from './reply';

const TEXT_TYPE = 'text/plain; charset=UTF-8';

/**
 * Canton's JSON API takes bodies up to maxInboundMessageSize, by default ServerConfig.defaultMaxInboundMessageSize
 * (10 MiB, community/base/…/config/ServerConfig.scala; HttpService sets it as pekko's max-content-length).
 */
export const BODY_LIMIT = 10 * 1024 * 1024;

/** Sends a JsCantonError exactly as Canton does: JSON, nulls kept, status from the gRPC code. */
export function sendCantonError(reply: FastifyReply, err: CantonError): FastifyReply {
  return sendJson(reply, err.body, err.status);
}

function handle(error: unknown, request: FastifyRequest, reply: FastifyReply): FastifyReply {
  if (error instanceof CantonError) return sendCantonError(reply, error);
  if (error instanceof TapirDecodeError) return reply.code(400).type(TEXT_TYPE).send(error.message);

  const fe = error as Partial<FastifyError>;
  if (fe.validation && fe.validationContext === 'body') {
    const failure = new BodyDecodeError(ajvErrorsToDetails(fe.validation as never, request.body));
    return reply.code(400).type(TEXT_TYPE).send(failure.message);
  }
  // Fastify's own input errors never show fastify's words: pekko's answer for the same input instead.
  if (fe.code === 'FST_ERR_CTP_BODY_TOO_LARGE') {
    const length = request.headers['content-length'];
    return sendPekko(
      reply,
      413,
      length === undefined
        ? `Aggregated data length of request entity exceeds the configured limit of ${BODY_LIMIT} bytes`
        : `Request Content-Length of ${length} bytes exceeds the configured limit of ${BODY_LIMIT} bytes`,
    );
  }
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    // A body shorter than its Content-Length and the like: pekko's entity-stream errors are 400s (wording unknown).
    return sendPekko(reply, 400, 'Entity stream truncation');
  }
  request.log.error({ err: error }, 'unexpected error in the sandbox');
  return sendCantonError(reply, internalError());
}

const CLIENT_ERRORS: Record<string, [number, string]> = {
  ERR_HTTP_REQUEST_TIMEOUT: [408, 'Request Timeout'],
  HPE_HEADER_OVERFLOW: [431, 'Request Header Fields Too Large'],
};

/**
 * Requests Node's HTTP parser refuses (a malformed chunk, a body shorter than its Content-Length, headers over
 * the size limit) never reach fastify's routes. Canton's HTTP layer (pekko) answers them with a text/plain
 * status text, so the sandbox does too — fastify's default would send a JSON body that is not a JsCantonError.
 * (The exact texts of pekko are not matched.)
 */
export function clientErrorHandler(error: NodeJS.ErrnoException, socket: Duplex): void {
  if (error.code === 'ECONNRESET' || socket.destroyed) return;
  const [status, text] = CLIENT_ERRORS[error.code ?? ''] ?? [400, 'Bad Request'];
  if (socket.writable) {
    socket.write(
      `HTTP/1.1 ${status} ${text}\r\nContent-Type: ${TEXT_TYPE}\r\nContent-Length: ${Buffer.byteLength(text)}\r\n` +
        `Connection: close\r\n\r\n${text}`,
    );
  }
  socket.destroy(error);
}

/**
 * Installs the error handler and Canton's answers to requests no endpoint takes. tapir's interpreter
 * (PekkoHttpServerInterpreter with PekkoHttpServerOptions.default, Canton's V2Routes) first keeps the endpoints
 * whose path shape fits (FilterServerEndpoints); if one fits but not with this method, DefaultRejectHandler
 * (tapir server/core …/interceptor/reject/RejectHandler.scala) answers 405 "Method Not Allowed" as a string
 * body (text/plain). Otherwise tapir rejects, and Canton's HttpService concatenates EndpointsCompanion.notFound:
 * 404, application/json, ErrorResponse {errors: ["<METHOD>, uri: <effective URI>"], status: 404,
 * ledgerApiError: null} (derived circe encoder, printed with nulls; pekko's HttpServerBluePrint makes the URI
 * absolute from the Host header).
 */
export function installErrorHandling(app: FastifyInstance): void {
  // The methods of every registered path, read as routes are added (hasRoute would read a path as a pattern).
  const methods = new Map<string, Set<string>>();
  app.addHook('onRoute', (route) => {
    const set = methods.get(route.url) ?? new Set<string>();
    for (const m of [route.method].flat()) set.add(m);
    methods.set(route.url, set);
  });
  app.setErrorHandler(handle);
  app.setNotFoundHandler((request, reply) => {
    const url = request.url;
    const path = url.split('?')[0] ?? url;
    const otherMethod = [...(methods.get(path) ?? [])].some((method) => method !== request.method);
    if (otherMethod) return reply.code(405).type(TEXT_TYPE).send('Method Not Allowed');
    return sendNotFound(request, reply);
  });
  // pekko parses the whole request-target strictly (uri-parsing-mode = strict): a % not followed by two hex
  // digits, in the path or in the query, is a 400 before any route runs.
  app.addHook('onRequest', async (request, reply) => {
    const illegal = illegalRequestTarget(request.raw.url ?? request.url);
    if (illegal !== undefined) return sendPekko(reply, 400, illegal);
    // tapir decodes a JSON body whatever the Content-Type says (no content-type input on Canton's endpoints), and
    // pekko keeps a Content-Type it cannot parse as a raw header: the body is still read. Fastify would refuse
    // the request (415), so such a header is dropped before it looks.
    const type = request.headers['content-type'];
    if (type !== undefined && !MEDIA_TYPE.test(type)) {
      delete request.headers['content-type'];
      delete request.raw.headers['content-type'];
    }
  });
}

const MEDIA_TYPE = /^[\w!#$&^.+-]+\/[\w!#$&^.+-]+\s*(;.*)?$/;

/**
 * pekko's answer to a request it refuses before routing (HttpServerBluePrint.finishWithIllegalRequestError with
 * DefaultParsingErrorHandler, verbose-error-messages off): the ErrorInfo summary as text/plain, and the
 * connection closed.
 */
export function sendPekko(reply: FastifyReply, status: number, summary: string): FastifyReply {
  return reply.code(status).type(TEXT_TYPE).header('connection', 'close').send(summary);
}

/**
 * pekko's UriParser (strict) on the request-target: `Illegal request-target: ` + parboiled's error, e.g.
 * "Invalid input 'z', expected HEXDIG (line 1, column 6)" (the form pekko's UriSpec asserts for queries).
 * Only the percent-encoding is checked here: Node's parser already refuses other illegal characters.
 */
export function illegalRequestTarget(target: string): string | undefined {
  const bad = /%(?![0-9A-Fa-f]{2})/.exec(target);
  if (bad === null) return undefined;
  const at =
    target[bad.index + 1] !== undefined && /[0-9A-Fa-f]/.test(target[bad.index + 1]!)
      ? bad.index + 2
      : bad.index + 1;
  const input = target[at];
  const problem = input === undefined ? 'Unexpected end of input' : `Invalid input '${input}'`;
  return `Illegal request-target: ${problem}, expected HEXDIG (line 1, column ${at + 1})`;
}

/** EndpointsCompanion.notFound's answer (see installErrorHandling). */
function sendNotFound(request: FastifyRequest, reply: FastifyReply): FastifyReply {
  const host = request.headers.host ?? 'localhost';
  const uri = `http://${host}${request.raw.url ?? request.url}`;
  return sendJson(
    reply,
    { errors: [`${request.method}, uri: ${uri}`], status: 404, ledgerApiError: null },
    404,
  );
}

/**
 * fastify's own answer to a path it cannot decode (FST_ERR_BAD_URL) replaced by Canton's: pekko's 400 for a
 * malformed percent-encoding; a well-formed one that is not UTF-8 pekko decodes with replacement characters,
 * so no endpoint matches and the answer is the 404 of EndpointsCompanion.notFound.
 */
export function frameworkErrors(_error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const illegal = illegalRequestTarget(request.raw.url ?? request.url);
  void (illegal === undefined ? sendNotFound(request, reply) : sendPekko(reply, 400, illegal));
}
