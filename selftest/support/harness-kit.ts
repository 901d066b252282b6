// Shared by the fixtures self-tests: settings from an explicit env (never the machine's), servers on
// 127.0.0.1 port 0, and the real ledger client outside the conformance fixtures (no steps, own evidence).
import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { Evidence } from '../../core/evidence';
import { REQUEST_TIMEOUT_MS, Transport } from '../../core/http';
import { LedgerClient } from '../../core/ledger-client';
import { loadSettings, type Settings } from '../../core/settings';
import type { TokenProvider } from '../../core/token-providers';

export function settingsFor(env: Record<string, string> = {}): Settings {
  return loadSettings(env);
}

/** Listens on 127.0.0.1, a free port; returns the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

/** What `p` rejected with, or undefined when it resolved: for a test that asserts on the error itself. */
export const rejectionOf = <E = unknown>(p: Promise<unknown>): Promise<E | undefined> =>
  p.then(
    () => undefined,
    (e: unknown) => e as E,
  );

/** One connection pool for the worker's clients, as the conformance fixtures keep one per worker. */
let transport: Transport | undefined;

export function clientFor(
  baseUrl: string,
  provider: Pick<TokenProvider, 'token'>,
  evidence = new Evidence(),
): LedgerClient {
  return new LedgerClient(
    (transport ??= new Transport(REQUEST_TIMEOUT_MS)),
    baseUrl,
    () => provider.token(),
    evidence,
    (_name, body) => body(),
  );
}
