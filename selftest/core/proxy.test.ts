// The harness through a proxy (core/proxy.ts): which requests take one, that they reach the participant
// through it (forwarded http, CONNECT for the IdP through undici), that the proxy's own refusal is a transport
// failure naming the variable, and that a proxy's password is never printed. A proxy that does not listen, said
// to be the proxy's failure: the called run of selftest/nightly/workflow.test.ts (its shards and merge). The proxy is a double on 127.0.0.1
// that sends every host to 127.0.0.1 (the participant's name, participant.test, resolves nowhere else), with
// Basic credentials required when asked.
import { createServer, request, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { connect, type AddressInfo, type Socket } from 'node:net';
import { expect, test } from '../support/test';
import { Transport, TransportFailure } from '../../core/http';
import { proxiedFetch, proxyFor } from '../../core/proxy';
import { PROXY_VARIABLES } from '../../core/secrets';
import { redact } from '../../core/redact';
import { unreachableOf } from '../../core/reachability';
import { preflight, PreflightError } from '../../scripts/preflight/checks';
import { rejectionOf, settingsFor } from '../support/harness-kit';
import { EXIT } from '../../core/exit-codes';

const PASSWORD = 'proxy-pass-8f3a';

interface Double {
  port: number;
  /** Request lines it was asked (absolute-form GETs, CONNECTs). */
  seen: string[];
  close: () => Promise<void>;
}

async function listen(server: Server): Promise<number> {
  await new Promise<void>((done) => server.listen(0, '127.0.0.1', done));
  return (server.address() as AddressInfo).port;
}

/** A forward proxy; `auth`: the Basic credentials it wants (407 without them). */
async function proxyDouble(auth?: string): Promise<Double> {
  const seen: string[] = [];
  const allowed = (req: IncomingMessage) =>
    auth === undefined ||
    req.headers['proxy-authorization'] === `Basic ${Buffer.from(auth).toString('base64')}`;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    seen.push(`${req.method} ${req.url}`);
    if (!allowed(req)) return res.writeHead(407, { 'proxy-authenticate': 'Basic' }).end();
    const target = new URL(req.url ?? '/');
    const upstream = request(
      {
        host: '127.0.0.1',
        port: target.port,
        path: target.pathname,
        method: req.method,
        headers: req.headers,
      },
      (up) => {
        res.writeHead(up.statusCode ?? 502, up.headers);
        up.pipe(res);
      },
    );
    req.pipe(upstream);
  });
  server.on('connect', (req: IncomingMessage, client: Socket, head: Buffer) => {
    seen.push(`CONNECT ${req.url}`);
    if (!allowed(req)) return client.end('HTTP/1.1 407 Proxy Authentication Required\r\n\r\n');
    const port = Number((req.url ?? '').split(':').pop());
    const upstream = connect(port, '127.0.0.1', () => {
      client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
      upstream.write(head);
      upstream.pipe(client);
      client.pipe(upstream);
    });
    upstream.on('error', () => client.destroy());
    client.on('error', () => upstream.destroy());
  });
  const port = await listen(server);
  return {
    port,
    seen,
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

/** The participant (or IdP): answers every request with its method and path, as JSON. */
async function upstream(): Promise<{ port: number; close: () => Promise<void> }> {
  const server = createServer((req, res) =>
    res
      .writeHead(200, { 'content-type': 'application/json' })
      .end(JSON.stringify({ got: `${req.method} ${req.url}` })),
  );
  const port = await listen(server);
  return {
    port,
    close: () => {
      server.closeAllConnections();
      return new Promise((done) => server.close(() => done()));
    },
  };
}

const PROXY_VARS = [...PROXY_VARIABLES, 'NO_PROXY', 'no_proxy'];

/** Runs `body` with exactly these proxy variables set in this worker, then restores them. */
async function withProxyEnv<T>(vars: Record<string, string>, body: () => Promise<T> | T): Promise<T> {
  const saved = Object.fromEntries(PROXY_VARS.map((k) => [k, process.env[k]]));
  for (const k of PROXY_VARS) delete process.env[k];
  Object.assign(process.env, vars);
  try {
    return await body();
  } finally {
    for (const k of PROXY_VARS) {
      if (saved[k] === undefined) delete process.env[k];
      else process.env[k] = saved[k];
    }
  }
}

test.describe('the harness through a proxy', () => {
  test('which requests take a proxy: by scheme, NO_PROXY, never a loopback host', async () => {
    await withProxyEnv(
      { HTTPS_PROXY: 'http://secure-proxy:3128', NO_PROXY: 'exact.example,.internal.example' },
      () => {
        expect(proxyFor('https://participant.example/v2/version')).toEqual({
          url: 'http://secure-proxy:3128',
          variable: 'HTTPS_PROXY',
        });
        expect(proxyFor('http://participant.example/v2/version')).toBeUndefined();
        expect(proxyFor('https://ledger.internal.example/v2/version')).toBeUndefined();
        expect(proxyFor('https://exact.example/v2/version')).toBeUndefined();
        expect(proxyFor('https://sub.exact.example/v2/version')?.variable).toBe('HTTPS_PROXY');
        for (const loopback of ['https://127.0.0.1:7575', 'https://localhost:7575', 'https://[::1]:7575'])
          expect(proxyFor(loopback), loopback).toBeUndefined();
      },
    );
    await withProxyEnv({ all_proxy: 'http://any-proxy:8080' }, () => {
      expect(proxyFor('http://participant.example/')?.variable).toBe('all_proxy');
    });
  });

  test('a participant reached through HTTP_PROXY answers; the proxy saw the request, its password never printed', async () => {
    const [proxy, participant] = await Promise.all([proxyDouble(`qa:${PASSWORD}`), upstream()]);
    const transport = new Transport(10_000);
    try {
      await withProxyEnv({ HTTP_PROXY: `http://qa:${PASSWORD}@127.0.0.1:${proxy.port}` }, async () => {
        const url = `http://participant.test:${participant.port}/v2/version`;
        const res = await transport.send({ method: 'GET', url, headers: {} });
        expect(res.status).toBe(200);
        expect(JSON.parse(res.text)).toEqual({ got: 'GET /v2/version' });
        expect(proxy.seen).toEqual([`GET ${url}`]);
        // The password was registered as a secret when the proxy was chosen.
        expect(redact(`proxy ${PASSWORD} and http://qa:${PASSWORD}@host`)).not.toContain(PASSWORD);
      });
    } finally {
      await transport.close();
      await Promise.all([proxy.close(), participant.close()]);
    }
  });

  test("the proxy's refusal is a transport failure naming its variable: 407 for a forwarded request and for CONNECT", async () => {
    const [proxy, participant] = await Promise.all([proxyDouble(`qa:${PASSWORD}`), upstream()]);
    const transport = new Transport(10_000);
    try {
      const wrong = `http://qa:not-the-password@127.0.0.1:${proxy.port}`;
      await withProxyEnv({ HTTP_PROXY: wrong, HTTPS_PROXY: wrong }, async () => {
        for (const url of [
          `http://participant.test:${participant.port}/v2/version`,
          `https://participant.test:${participant.port}/v2/version`,
        ]) {
          const failure = await rejectionOf(transport.send({ method: 'GET', url, headers: {} }));
          expect(failure, url).toBeInstanceOf(TransportFailure);
          const { kind, message } = failure as TransportFailure;
          expect(kind, url).toBe('proxy');
          expect(message, url).toBe(
            `the proxy in ${url.startsWith('https') ? 'HTTPS_PROXY' : 'HTTP_PROXY'} refused the request (it answered 407 Proxy Authentication Required)`,
          );
          const { check } = unreachableOf(failure, url);
          expect(check).toContain('the credentials in its URL');
          expect(`${message} ${check}`).not.toContain('not-the-password');
        }
      });
      expect(proxy.seen.map((l) => l.split(' ')[0])).toEqual(['GET', 'CONNECT']);
    } finally {
      await transport.close();
      await Promise.all([proxy.close(), participant.close()]);
    }
  });

  test('the preflight behind a proxy that wants credentials: one line, exit 2 (a setting), the password never in it', async () => {
    const proxy = await proxyDouble(`qa:${PASSWORD}`);
    try {
      await withProxyEnv({ HTTPS_PROXY: `http://qa:wrong-${PASSWORD}@127.0.0.1:${proxy.port}` }, async () => {
        const s = settingsFor({
          LEDGER_BASE_URL: 'https://participant.test/api/json',
          LEDGER_AUTH: 'static',
          LEDGER_TOKEN: 'opaque-static-token-123',
        });
        const stopped = await preflight(s, s.baseUrl!, {}).catch((e: unknown) => e);
        expect(stopped).toBeInstanceOf(PreflightError);
        expect((stopped as PreflightError).exitCode).toBe(EXIT.badSetting);
        expect((stopped as PreflightError).message).toBe(
          "the proxy in HTTPS_PROXY refused the request (it answered 407 Proxy Authentication Required): put the proxy's credentials in its URL (http://user:password@host:port, percent-encoded)",
        );
      });
    } finally {
      await proxy.close();
    }
  });

  test('the IdP and the discovery requests (fetch) go through the proxy too', async () => {
    const [proxy, idp] = await Promise.all([proxyDouble(`qa:${PASSWORD}`), upstream()]);
    try {
      await withProxyEnv({ HTTP_PROXY: `http://qa:${PASSWORD}@127.0.0.1:${proxy.port}` }, async () => {
        const res = await proxiedFetch(`http://idp.test:${idp.port}/oauth/token`, {
          method: 'POST',
          body: 'x',
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toEqual({ got: 'POST /oauth/token' });
        // undici tunnels (CONNECT) or forwards: either way the proxy carried it.
        expect(proxy.seen).toHaveLength(1);
        expect(proxy.seen[0]).toContain(`idp.test:${idp.port}`);
      });
    } finally {
      await Promise.all([proxy.close(), idp.close()]);
    }
  });
});
