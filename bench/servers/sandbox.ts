// The sandbox in a child process of the bench: `buildApp(loadConfig(env))` listening on 127.0.0.1, port 0,
// with the SANDBOX_* settings the bench passes. Over IPC it answers `gc` (heap after a full GC; needs
// --expose-gc), `cpu` (its CPU seconds so far) and, when BENCH_RECORD=1, `records` (every exchange it served:
// method, url, headers, the raw body bytes, status, arrival and finish times), written to the file the message
// names.
import { writeFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { performance } from 'node:perf_hooks';
import { buildApp } from '../../sandbox/app';
import { loadConfig } from '../../sandbox/config';
import { serveParent } from '../lib/child';

export interface RecordedExchange {
  method: string;
  url: string;
  headers: Record<string, string | string[] | undefined>;
  /** The body bytes as received (base64), whether or not the sandbox read them. */
  body: string;
  status: number;
  /** Arrival and finish, epoch milliseconds (performance.timeOrigin + now: comparable across processes). */
  start: number;
  end: number;
}

const records: RecordedExchange[] = [];
const now = (): number => performance.timeOrigin + performance.now();

/**
 * Taps the server before fastify's own 'request' listener: the body is captured where the HTTP parser pushes
 * it (IncomingMessage#push, raw bytes, before any decoding), so the tap never reads the stream, never changes
 * its flowing mode and costs fastify nothing but an array push per chunk.
 */
function record(req: IncomingMessage, res: ServerResponse): void {
  const start = now();
  const chunks: Buffer[] = [];
  const push = req.push.bind(req);
  req.push = (chunk: unknown, encoding?: BufferEncoding): boolean => {
    if (chunk !== null && chunk !== undefined) chunks.push(Buffer.from(chunk as Buffer));
    return push(chunk, encoding);
  };
  res.once('finish', () => {
    records.push({
      method: req.method ?? 'GET',
      url: req.url ?? '/',
      headers: { ...req.headers },
      body: Buffer.concat(chunks).toString('base64'),
      status: res.statusCode,
      start,
      end: now(),
    });
  });
}

async function main(): Promise<void> {
  const config = loadConfig({ ...process.env, SANDBOX_HOST: '127.0.0.1', SANDBOX_PORT: '0' });
  const app = await buildApp(config);
  if (process.env.BENCH_RECORD === '1') app.server.prependListener('request', record);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  serveParent((msg) => {
    if (msg.type === 'gc') {
      const gc = (globalThis as { gc?: () => void }).gc;
      if (!gc) throw new Error('start the sandbox child with --expose-gc');
      gc();
      gc();
      return { memory: process.memoryUsage() };
    }
    // The child's own CPU (user + system, all its threads): the bench reads it before and after a suite run.
    if (msg.type === 'cpu') {
      const { user, system } = process.cpuUsage();
      return { seconds: (user + system) / 1e6 };
    }
    if (msg.type === 'records') {
      writeFileSync(String(msg.file), JSON.stringify(records));
      return { count: records.length };
    }
    throw new Error(`unknown message ${msg.type}`);
  });
  process.send?.({ type: 'ready', port });
}

main().catch((e: unknown) => {
  console.error('bench sandbox child:', e);
  process.exit(1);
});
