// The line `npm test` prints at its start when Chromium is missing: one line, naming the path, the tests that
// skip and how to install it; nothing when it is there. The files it names are exactly those whose tests skip.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { ROOT } from '../support/child-run';
import { BROWSER_TEST_FILES, chromiumNotice, noChromium } from '../support/chromium';

test('without Chromium, one line names the path, the skipping tests and the install command', () => {
  const missing = join(ROOT, 'no-such-chromium');
  const line = chromiumNotice(missing);
  expect(line).toBe(
    `npm test: Chromium not found (${missing}): the report-in-a-browser tests skip ` +
      '(selftest/report/browser.test.ts, selftest/history/compare.test.ts, selftest/history/intermittent.test.ts); ' +
      'install it with: sudo apt-get install -y chromium',
  );
  expect(noChromium(missing)).toContain(missing);
});

test('with Chromium there, nothing is printed and nothing skips', () => {
  const present = join(ROOT, 'package.json');
  expect(chromiumNotice(present)).toBeUndefined();
  expect(noChromium(present)).toBeUndefined();
});

test('the line names exactly the self-test files that skip without Chromium', () => {
  const dir = join(ROOT, 'selftest');
  const skipping = readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .map((f) => `selftest/${f}`)
    .filter((f) => f.endsWith('.test.ts') && f !== 'selftest/report/chromium.test.ts')
    .filter((f) => /\bnoChromium\(\)/.test(readFileSync(join(ROOT, f), 'utf8')));
  expect(skipping.sort()).toEqual([...BROWSER_TEST_FILES].sort());
});
