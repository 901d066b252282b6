// The floor: a bare fastify on 127.0.0.1, port 0, in its own process like the sandbox. GET /hello is the
// hello-world; POST /hello parses a JSON body and answers the same small document; POST /page parses a JSON
// body and answers a fixed document of BENCH_FLOOR_PAGE_BYTES bytes (the size of a sandbox page, so a walk
// has a floor moving the same bytes).
import Fastify from 'fastify';
import type { AddressInfo } from 'node:net';
import { serveParent } from '../lib/child';

async function main(): Promise<void> {
  const app = Fastify({ logger: false });
  const pageBytes = Number(process.env.BENCH_FLOOR_PAGE_BYTES ?? 1024);
  const filler = 'x'.repeat(Math.max(0, pageBytes - 13));
  const page = JSON.stringify({ filler });
  app.get('/hello', async () => ({ hello: 'world' }));
  app.post('/hello', async () => ({ hello: 'world' }));
  app.post('/page', async (_request, reply) => reply.type('application/json').send(page));
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  serveParent((msg) => {
    throw new Error(`unknown message ${msg.type}`);
  });
  process.send?.({ type: 'ready', port });
}

main().catch((e: unknown) => {
  console.error('bench floor child:', e);
  process.exit(1);
});
