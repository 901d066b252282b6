// Shared by the fixtures self-tests: settings from an explicit env (never the machine's), servers on
// 127.0.0.1 port 0, and the real ledger client outside the conformance fixtures (no steps, own evidence).
import type { AddressInfo } from 'node:net';
import type { APIRequestContext } from '@playwright/test';
import type { FastifyInstance } from 'fastify';
import { Evidence } from '../../fixtures/evidence';
import { LedgerClient } from '../../fixtures/ledger-client';
import { loadSettings, type Settings } from '../../fixtures/settings';
import type { TokenProvider } from '../../fixtures/token-providers';

export function settingsFor(env: Record<string, string> = {}): Settings {
  return loadSettings(env);
}

/** Listens on 127.0.0.1, a free port; returns the base URL. */
export async function listen(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  return `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
}

export function clientFor(
  request: APIRequestContext,
  baseUrl: string,
  provider: Pick<TokenProvider, 'token'>,
): LedgerClient {
  return new LedgerClient(
    request,
    baseUrl,
    () => provider.token(),
    new Evidence(),
    (_name, body) => body(),
  );
}
