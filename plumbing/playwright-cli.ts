// How the harness starts Playwright's CLI: `node [the transform preload] <@playwright/test/cli> …args`, so that
// every runner it spawns, and that runner's workers, skip Playwright's off-thread ESM loader on Node < 22.15
// (./transform.cjs says why and when it stands aside). `npx playwright test` works the same, a
// little slower.
import { join } from 'node:path';

export const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');
export const PLAYWRIGHT_TRANSFORM_PRELOAD = join(__dirname, 'transform.cjs');

/** The node arguments of `playwright <args…>`: spawn(process.execPath, playwrightCommand('test', …)). */
export function playwrightCommand(...args: string[]): string[] {
  return ['--require', PLAYWRIGHT_TRANSFORM_PRELOAD, PLAYWRIGHT_CLI, ...args];
}
