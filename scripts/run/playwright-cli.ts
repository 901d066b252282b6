// How the harness starts Playwright's CLI: `node <@playwright/test/cli> …args`, the same command as
// `npx playwright`, without npx's own start-up.
export const PLAYWRIGHT_CLI = require.resolve('@playwright/test/cli');

/** The node arguments of `playwright <args…>`: spawn(process.execPath, playwrightCommand('test', …)). */
export function playwrightCommand(...args: string[]): string[] {
  return [PLAYWRIGHT_CLI, ...args];
}
