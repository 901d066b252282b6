// How configs name the Allure reporter (reporters/allure.ts), without loading it: a config names it by path,
// and loading allure-playwright where only its name is needed is wasted start-up.
import { join } from 'node:path';

/** The Allure reporter as playwright.config.ts names it (an absolute path: the same from every config folder). */
export const ALLURE_REPORTER = join(__dirname, 'allure.ts');

/** The Allure reporter of a config's reporter list: this one, or allure-playwright itself. */
export const isAllureReporter = (name: string): boolean =>
  name === ALLURE_REPORTER || name === 'allure-playwright';
