// JSON replies as Canton's tapir sends them: `Content-Type: application/json`, no charset parameter
// (fastify would append one to a string payload; a Buffer is sent with the type exactly as set).
import type { FastifyReply } from 'fastify';

export const JSON_TYPE = 'application/json';

/** Sends an already serialised body (a string or Buffer), or serialises a value (nulls kept, as circe). */
export function sendJson(reply: FastifyReply, body: unknown, status = 200): FastifyReply {
  // A Buffer is already the serialised body (the version route serialises its document once at start).
  const bytes = Buffer.isBuffer(body)
    ? body
    : Buffer.from(typeof body === 'string' ? body : JSON.stringify(body));
  return reply.code(status).type(JSON_TYPE).send(bytes);
}
