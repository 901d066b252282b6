// How configs name the Allure reporter (allure-playwright) and the console list (reporters/console.ts), without
// loading them: loading a reporter where only its name is needed is wasted start-up.
import { join } from 'node:path';

/** The Allure reporter as playwright.config.ts names it. */
export const ALLURE_REPORTER = 'allure-playwright';

/** Whether a config's reporter entry is the Allure reporter. */
export const isAllureReporter = (name: string): boolean => name === ALLURE_REPORTER;

/** The console list in the rule matrix's words (reporters/console.ts), by absolute path as the Allure one. */
export const CONSOLE_REPORTER = join(__dirname, 'console.ts');
