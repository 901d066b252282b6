// A webhook on 127.0.0.1 for the self-tests of scripts/nightly/notify-changes.ts: keeps every request it gets
// and answers each with `status`.
import { createServer, type IncomingHttpHeaders } from 'node:http';
import type { AddressInfo } from 'node:net';

export interface Received {
  method: string;
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface Receiver {
  /** The webhook's URL: a path that stands for the secret a real webhook carries in it. */
  url: string;
  received: Received[];
  /** The status the next requests are answered with. */
  status: number;
  close(): Promise<void>;
}

export async function startReceiver(
  path = '/services/T0SELFTEST/B0SELFTEST/s3cr3tw3bh00kt0k3n',
): Promise<Receiver> {
  const received: Received[] = [];
  const receiver = { received, status: 200 } as Receiver;
  const server = createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ method: req.method ?? '', path: req.url ?? '', headers: req.headers, body });
      res.writeHead(receiver.status, { 'content-type': 'text/plain' }).end('ok');
    });
  });
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  receiver.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}${path}`;
  receiver.close = () => new Promise<void>((closed) => server.close(() => closed()));
  return receiver;
}

/** A port on 127.0.0.1 nothing listens on (it was free a moment ago): a participant that does not answer. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((listening) => server.listen(0, '127.0.0.1', listening));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((closed) => server.close(() => closed()));
  return port;
}
