// Playwright global setup of the conformance run: resolves the target — LEDGER_BASE_URL, or the sandbox built
// in-process on 127.0.0.1, port 0, handed to the workers through LEDGER_RESOLVED_BASE_URL — reads its
// /v2/version once, prints the run-information block and leaves reports/target.json for the reporters.
// The harness (fixtures/, tests/) never imports the sandbox; only this runner file does, and only when needed.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import type { FullConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { displayUrl, settings, type Settings } from '../fixtures/settings';
import { capabilitiesOf, RESOLVED_BASE_URL_ENV } from '../fixtures/target';
import { tokenProviderFor } from '../fixtures/token-providers';
import { redact } from '../fixtures/redact';
import { interfaceDocTemplate } from '../fixtures/interface-doc';
import { REQUEST_TIMEOUT_MS, Transport, type HttpResponse } from '../fixtures/http';
import { unreachableOf } from '../fixtures/reachability';
import { UNREACHABLE_ENV } from '../fixtures/target-lost';

// LEDGER_REPORTS_DIR: the mutation runner gives every child run its own folder.
const REPORTS = process.env.LEDGER_REPORTS_DIR || resolve(__dirname, '..', 'reports');

async function startSandbox(): Promise<{
  url: string;
  close: () => Promise<void>;
  mode: string;
  faults: string[];
}> {
  // require, not import(): Playwright's loader transpiles required TS, not dynamically imported TS. Lazy, so a
  // remote run never loads the sandbox.
  /* eslint-disable @typescript-eslint/no-require-imports */
  const { buildApp } = require('../sandbox/app') as typeof import('../sandbox/app');
  const { loadConfig } = require('../sandbox/config') as typeof import('../sandbox/config');
  /* eslint-enable @typescript-eslint/no-require-imports */
  // The sandbox's own settings (SANDBOX_*, LOG_LEVEL) apply, except where it listens. The control route is on
  // by default in-process: @sandbox-only rules use it to change the ledger under test.
  const config = loadConfig({
    ...process.env,
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_CONTROL: process.env.SANDBOX_CONTROL || 'true',
  });
  if (config.faults.length > 0) {
    /* eslint-disable @typescript-eslint/no-require-imports */
    const { faultBanner, resolveFaults } =
      require('../sandbox/faults/install') as typeof import('../sandbox/faults/install');
    /* eslint-enable @typescript-eslint/no-require-imports */
    process.stdout.write(`\n${faultBanner(resolveFaults(config.faults))}\n`);
  }
  const app = await buildApp(config);
  await app.listen({ host: '127.0.0.1', port: 0 });
  const { port } = app.server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () => app.close(),
    mode: config.mode,
    faults: [...config.faults],
  };
}

interface VersionRead {
  document: unknown;
  problem?: string;
  /** The target gave no HTTP answer at all: why, and what to check. */
  unreachable?: { cause: string; check: string };
}

async function readVersion(baseUrl: string, s: Settings): Promise<VersionRead> {
  const token = await tokenProviderFor(s).token();
  // The harness's transport: its failures are worded without quoting a header (the token stays out of output).
  const transport = new Transport(REQUEST_TIMEOUT_MS * s.timeoutScale);
  let res: HttpResponse;
  try {
    res = await transport.send({
      method: 'GET',
      url: `${baseUrl}/v2/version`,
      headers: token ? { authorization: `Bearer ${token}` } : {},
    });
  } catch (e) {
    const unreachable = unreachableOf(e);
    return { document: undefined, problem: unreachable.cause, unreachable };
  } finally {
    await transport.close();
  }
  if (res.status !== 200) return { document: undefined, problem: `HTTP ${res.status}` };
  try {
    return { document: JSON.parse(res.text) };
  } catch (e) {
    return { document: undefined, problem: redact(e instanceof Error ? e.message : String(e)) };
  }
}

function authLine(s: Settings): string {
  const form =
    s.auth.kind === 'none' || s.auth.kind === 'static' || s.auth.kind === 'oauth2'
      ? ''
      : `, ${s.token.form} form`;
  return `${s.auth.kind}${form}, user ${s.userExplicit || form ? s.user : '(from the token)'}`;
}

export default async function globalSetup(config?: FullConfig): Promise<(() => Promise<void>) | undefined> {
  const s = settings();
  interfaceDocTemplate(); // a wrong LEDGER_INTERFACE_DOC_URL stops the run before any test
  let baseUrl = s.baseUrl;
  let sandbox: Awaited<ReturnType<typeof startSandbox>> | undefined;
  if (baseUrl === undefined) {
    sandbox = await startSandbox();
    baseUrl = sandbox.url;
    process.env[RESOLVED_BASE_URL_ENV] = baseUrl;
  }
  const { document, problem, unreachable } = await readVersion(baseUrl, s);
  const caps = capabilitiesOf(document);
  const target = sandbox ? `in-process sandbox ${baseUrl} (mode ${sandbox.mode})` : displayUrl(baseUrl);
  const lines: [string, string][] = [
    ['target', target],
    ['version', caps.version ?? `unknown (GET /v2/version: ${problem ?? 'no version string'})`],
    ['auth', authLine(s)],
    ['seed', s.seed === undefined ? 'per test, from its title (set LEDGER_SEED to fix it)' : String(s.seed)],
    ['timeout scale', String(s.timeoutScale)],
    // The effective number: `--workers` on the command line overrides LEDGER_WORKERS.
    ['workers', String(config?.workers ?? s.workers)],
    ['run id', s.runId ?? '(none: ids use "local")'],
  ];
  process.stdout.write(
    ['', 'ledger-conformance run', ...lines.map(([k, v]) => `  ${k.padEnd(14)}${v}`), ''].join('\n') + '\n',
  );
  if (unreachable) {
    // No test can say anything: each ends at set-up as inconclusive (fixtures/target-lost.ts), in seconds, and
    // the reports are still written; `npm run conformance` exits with its own code for a target that is down.
    process.env[UNREACHABLE_ENV] = unreachable.cause;
    process.stderr.write(
      `ledger-conformance: the target LEDGER_BASE_URL=${displayUrl(baseUrl)} cannot be reached: ${unreachable.cause}; ` +
        `${unreachable.check}. No test is run: every rule is inconclusive.\n`,
    );
  }
  mkdirSync(REPORTS, { recursive: true });
  const info = {
    baseUrl: sandbox ? 'in-process sandbox' : displayUrl(baseUrl),
    version: caps.version,
    features: (document as { features?: unknown } | undefined)?.features,
    runId: s.runId,
    seed: s.seed ?? 'per test',
    timeoutScale: s.timeoutScale,
    auth: s.auth.kind,
    startedAt: new Date().toISOString(),
    // Read by the rule matrix: an unreachable run is no capability change and leaves the fingerprint alone.
    unreachable: unreachable?.cause,
    // For the report's environment block: a deliberately broken sandbox must be visible there.
    sandbox: sandbox ? { url: sandbox.url, mode: sandbox.mode, faults: sandbox.faults } : undefined,
  };
  writeFileSync(resolve(REPORTS, 'target.json'), JSON.stringify(info, null, 2) + '\n');
  return sandbox ? () => sandbox.close() : undefined;
}
