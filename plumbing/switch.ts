// The one switch over every patch of this folder: `LEDGER_PLUMBING=off` runs Playwright and Allure exactly as
// they ship (slower, same verdicts), to tell whether a fault after an upgrade is a patch's. transform.cjs reads
// the same variable itself: node loads it before any TypeScript.
export const PLUMBING_ENV = 'LEDGER_PLUMBING';

/** Whether the patches are on: unset, empty or `on`; `off` turns every one off; anything else is a mistake. */
export function plumbingOn(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env[PLUMBING_ENV];
  if (value === undefined || value === '' || value === 'on') return true;
  if (value === 'off') return false;
  throw new Error(
    `${PLUMBING_ENV}=${value} is not a switch: set it to off (or on, the default), or unset it`,
  );
}
