// How configs name the Allure reporter (reporters/allure.ts) and the console list (reporters/console.ts), without
// loading them: a config names it by path,
// and loading allure-playwright where only its name is needed is wasted start-up.
import { join } from 'node:path';

/** The Allure reporter as playwright.config.ts names it (an absolute path: the same from every config folder). */
export const ALLURE_REPORTER = join(__dirname, 'allure.ts');

/** The Allure reporter of a config's reporter list: this one, or allure-playwright itself. */
export const isAllureReporter = (name: string): boolean =>
  name === ALLURE_REPORTER || name === 'allure-playwright';

/** The console list in the rule matrix's words (reporters/console.ts), by absolute path as the Allure one. */
export const CONSOLE_REPORTER = join(__dirname, 'console.ts');
