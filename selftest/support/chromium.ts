// Debian's Chromium, which the report-in-a-browser self-tests drive through playwright-core (no browser
// download; CI installs it: .ci/run). Kept apart from report-kit.ts so the global setup can say at the start of
// `npm test` that those tests will skip, without loading the report kit.
import { existsSync } from 'node:fs';

export const CHROMIUM = '/usr/bin/chromium';

/** The self-test files whose tests skip without Chromium (selftest/report/chromium.test.ts keeps this list true). */
export const BROWSER_TEST_FILES = [
  'selftest/report/browser.test.ts',
  'selftest/history/compare.test.ts',
  'selftest/history/intermittent.test.ts',
];

const INSTALL = 'sudo apt-get install -y chromium';

/** Why a browser check cannot run here, or undefined when it can. */
export const noChromium = (path = CHROMIUM): string | undefined =>
  existsSync(path) ? undefined : `${path} is missing: install Debian's chromium (${INSTALL}) to run it`;

/** The one line `npm test` prints at its start when Chromium is missing, or undefined when it is there. */
export const chromiumNotice = (path = CHROMIUM): string | undefined =>
  noChromium(path) &&
  `npm test: Chromium not found (${path}): the report-in-a-browser tests skip ` +
    `(${BROWSER_TEST_FILES.join(', ')}); install it with: ${INSTALL}`;
