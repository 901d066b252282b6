// How configs name the Allure reporter (reporters/allure.ts), without loading it: playwright.config.ts is also
// read by the secret gate after a run, for its reporters' output folders, and allure-playwright costs 0.2 s.
import { join } from 'node:path';

/** The Allure reporter as playwright.config.ts names it (an absolute path: the same from every config folder). */
export const ALLURE_REPORTER = join(__dirname, 'allure.ts');

/** The Allure reporter of a config's reporter list: this one, or allure-playwright itself. */
export const isAllureReporter = (name: string): boolean =>
  name === ALLURE_REPORTER || name === 'allure-playwright';
