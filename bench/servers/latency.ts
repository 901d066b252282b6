// A participant far away: a proxy on 127.0.0.1, port 0, in front of a target (BENCH_UPSTREAM, e.g. a sandbox
// child), holding every answer BENCH_LATENCY_MS (default 40) before it sends it on — the round trip of a
// participant in another region. Requests are forwarded at once, on a keep-alive pool, so answers are held
// concurrently: the proxy adds latency, not a queue. IPC `count`: the requests since the last count.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Agent, request } from 'undici';
import { serveParent } from '../lib/child';

const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'host', 'content-length']);

async function main(): Promise<void> {
  const upstream = process.env.BENCH_UPSTREAM;
  if (!upstream) throw new Error('BENCH_UPSTREAM is unset');
  const delay = Number(process.env.BENCH_LATENCY_MS ?? 40);
  const agent = new Agent({ connections: 64, keepAliveTimeout: 30_000 });
  let requests = 0;
  const server = createServer((req, res) => {
    requests += 1;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: IncomingHttpHeaders = {};
      for (const [k, v] of Object.entries(req.headers)) if (!HOP.has(k)) headers[k] = v;
      const body = Buffer.concat(chunks);
      const held = new Promise((r) => setTimeout(r, delay));
      request(`${upstream}${req.url ?? '/'}`, {
        method: (req.method ?? 'GET') as 'GET',
        headers: headers as Record<string, string>,
        body: body.length > 0 ? body : undefined,
        dispatcher: agent,
      })
        .then(async (up) => {
          const answer = Buffer.from(await up.body.arrayBuffer());
          await held;
          const out: Record<string, string | string[]> = {};
          for (const [k, v] of Object.entries(up.headers)) if (v !== undefined && !HOP.has(k)) out[k] = v;
          res.writeHead(up.statusCode, { ...out, 'content-length': String(answer.length) });
          res.end(answer);
        })
        .catch(async () => {
          await held;
          res.writeHead(502).end();
        });
    });
  });
  server.keepAliveTimeout = 30_000;
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const { port } = server.address() as AddressInfo;
  serveParent((msg) => {
    if (msg.type === 'count') {
      const answer = { requests };
      requests = 0;
      return answer;
    }
    throw new Error(`unknown message ${msg.type}`);
  });
  process.send?.({ type: 'ready', port });
}

main().catch((e: unknown) => {
  console.error('bench latency child:', e);
  process.exit(1);
});
