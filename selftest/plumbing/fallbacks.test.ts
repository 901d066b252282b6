// Each patch of plumbing/ stands aside when the export it uses is gone: the harness then runs on Playwright's
// own paths. In-process, with the package stood in for, and a canary per export that fails when an upgrade
// moves it.
import { _baseTest } from '@playwright/test';
import { baseTestOf } from '../../plumbing/base-test';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';
import { expect, test } from '../support/test';

test('base-test: _baseTest while Playwright exports it; the full test without it', () => {
  expect(_baseTest, 'canary: @playwright/test still exports _baseTest').toBeDefined();
  const full = { name: 'the full test' };
  expect(baseTestOf({ _baseTest, test: full })).toBe(_baseTest);
  expect(baseTestOf({ test: full })).toBe(full);
});

test('plain-snippets: a no-op where playwright-core has no colors.disable', () => {
  // oxlint-disable-next-line typescript/no-require-imports -- an untyped module of playwright-core's exports map
  const bundle = require('playwright-core/lib/utilsBundle') as { colors?: { disable?: unknown } };
  expect(typeof bundle.colors?.disable, 'canary: playwright-core still bundles colors.disable').toBe(
    'function',
  );
  expect(plainErrorSnippets(() => ({}))).toBe(false);
  expect(
    plainErrorSnippets(() => {
      throw new Error('Cannot find module');
    }),
  ).toBe(false);
  let disabled = 0;
  expect(plainErrorSnippets(() => ({ colors: { disable: () => void disabled++ } }))).toBe(true);
  expect(disabled).toBe(1);
});
