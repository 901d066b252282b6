// The in-process sandbox of a conformance run without LEDGER_BASE_URL, on 127.0.0.1, port 0: started by `npm
// run conformance` in its own process while Playwright starts (scripts/run/conformance.ts) and handed to the
// global setup through the run context (core/run-context.ts), or by the global setup in the runner when Playwright runs alone.
// Only runner-side scripts import this file, and the sandbox is loaded only when started.
import { readFileSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { awaitFile, publishJson } from './file-handoff';
import { RUN_CONTEXT, runContext } from '../../core/run-context';

export interface EmbeddedSandbox {
  url: string;
  close: () => Promise<void>;
  mode: string;
  faults: string[];
}

export async function startSandbox(): Promise<EmbeddedSandbox> {
  // require, not import(): Playwright's loader transpiles required TS, not dynamically imported TS. Lazy, so a
  // remote run never loads the sandbox.
  /* oxlint-disable typescript/no-require-imports */
  const { buildApp } = require('../../sandbox/app') as typeof import('../../sandbox/app');
  const { loadConfig } = require('../../sandbox/config') as typeof import('../../sandbox/config');
  /* oxlint-enable typescript/no-require-imports */
  // The sandbox's own settings (SANDBOX_*, LOG_LEVEL) apply, except where it listens. The control route is on
  // by default in-process: @sandbox-only rules use it to change the ledger under test.
  const config = loadConfig({
    ...process.env,
    SANDBOX_HOST: '127.0.0.1',
    SANDBOX_PORT: '0',
    SANDBOX_CONTROL: process.env.SANDBOX_CONTROL || 'true',
  });
  if (config.faults.length > 0) {
    /* oxlint-disable typescript/no-require-imports */
    const { faultBanner, resolveFaults } =
      require('../../sandbox/faults/install') as typeof import('../../sandbox/faults/install');
    /* oxlint-enable typescript/no-require-imports */
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

/**
 * Where `npm run conformance` publishes the sandbox it starts beside Playwright (a JSON file, in a folder of
 * its own): its URL, mode and faults, or why it could not start. Unset when the runner starts its own.
 */
export const EMBEDDED_SANDBOX_ENV = RUN_CONTEXT.embeddedSandbox;

interface Published {
  url?: string;
  mode?: string;
  faults?: string[];
  error?: string;
}

/** Starts the sandbox and publishes it at `file` (scripts/run/file-handoff.ts). */
export async function publishSandbox(file: string): Promise<EmbeddedSandbox | undefined> {
  let sandbox: EmbeddedSandbox | undefined;
  let published: Published;
  try {
    sandbox = await startSandbox();
    published = { url: sandbox.url, mode: sandbox.mode, faults: sandbox.faults };
  } catch (e) {
    published = { error: e instanceof Error ? e.message : String(e) };
  }
  publishJson(file, published);
  return sandbox;
}

/** The sandbox published for this run, once it is up; undefined when none is (the runner starts its own). */
export async function embeddedSandbox(): Promise<EmbeddedSandbox | undefined> {
  const file = runContext().embeddedSandbox;
  if (!file) return undefined;
  await awaitFile(file);
  const { url, mode, faults, error } = JSON.parse(readFileSync(file, 'utf8')) as Published;
  if (error !== undefined || !url) throw new Error(`the in-process sandbox did not start: ${error}`);
  // Its owner (npm run conformance) closes it once Playwright has exited.
  return { url, mode: mode ?? '', faults: faults ?? [], close: () => Promise.resolve() };
}
