// Which spec files hold which rules comes from Playwright's own listing, read from its stdout
// (scripts/mutation/suite-listing.ts: `npm run mutation` plans its runs with it).
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { listingEnv, ruleFiles } from '../../scripts/mutation/suite-listing';
import { ROOT } from '../support/child-run';

test('a CI job’s PLAYWRIGHT_JSON_OUTPUT_* settings do not take the listing away from stdout', () => {
  // Outside the project: should the listing obey them again, it writes there, not into the tree.
  const dir = join(tmpdir(), `listing-${process.pid}`);
  const set = {
    PLAYWRIGHT_JSON_OUTPUT_FILE: join(dir, 'playwright.json'),
    PLAYWRIGHT_JSON_OUTPUT_DIR: dir,
    PLAYWRIGHT_JSON_OUTPUT_NAME: 'playwright.json',
  };
  const saved = { ...process.env };
  Object.assign(process.env, set);
  try {
    // A real listing with the variables set: before, it came back empty ("Unexpected end of JSON input").
    const files = ruleFiles(ROOT);
    expect([...(files.get('VET-PAGE-WALK-ENDS') ?? [])]).toEqual(['tests/vetting-walks.spec.ts']);
    expect([...(files.get('VER-AUTH-REQUIRED') ?? [])]).toEqual(['tests/version.spec.ts']);
  } finally {
    for (const k of Object.keys(set)) delete process.env[k];
    Object.assign(process.env, saved);
  }
  const env = listingEnv({ ...set, LEDGER_BASE_URL: '', HOME: '/home/qa' });
  expect(env).toEqual({ LEDGER_BASE_URL: 'http://127.0.0.1:9', HOME: '/home/qa' });
  expect(listingEnv({ LEDGER_BASE_URL: 'https://p.example' }).LEDGER_BASE_URL).toBe('https://p.example');
});
