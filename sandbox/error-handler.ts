// The one place a rejection becomes a response. Canton has two error shapes: tapir's 400 text/plain for
// input it cannot decode, and JsCantonError (status derived from grpcCodeValue) for everything else.
// Bad input must end as a 4xx here — a 5xx is only ever a bug of the sandbox, never the client's doing.
import type { Duplex } from 'node:stream';
import type { FastifyError, FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import { ajvErrorsToDetails, BodyDecodeError, TapirDecodeError } from './decode';
import { CantonError, internalError } from './errors';
import { sendJson } from './reply';

const TEXT_TYPE = 'text/plain; charset=UTF-8';

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
  // Fastify's own input errors (body too large, bad content-length, unparsable content-type): already 4xx.
  if (typeof fe.statusCode === 'number' && fe.statusCode >= 400 && fe.statusCode < 500) {
    return reply
      .code(fe.statusCode)
      .type(TEXT_TYPE)
      .send(fe.message ?? 'Bad Request');
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

/** Installs the error handler and a Canton-like 404 (text/plain, no JSON) on the root instance. */
export function installErrorHandling(app: FastifyInstance): void {
  app.setErrorHandler(handle);
  app.setNotFoundHandler((_request, reply) =>
    reply.code(404).type(TEXT_TYPE).send('The requested resource could not be found.'),
  );
}
