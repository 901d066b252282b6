// The config of `playwright merge-reports` in `npm run merge`: the reporters an unsharded run has besides
// allure-playwright (whose results the shards wrote themselves) — JUnit and the rule matrix — over the events
// of every shard's blob, as if one run had produced them. scripts/shard/merge.ts sets LEDGER_REPORTS_DIR
// (where they go) and the shards' test folder in this checkout (from their blobs), so test paths resolve here
// even when the shards ran on other machines.
import { resolve } from 'node:path';
import { defineConfig } from '@playwright/test';
import { reportsDir, reportsMoved } from '../../core/reports-dir';
import { runContext } from '../../core/run-context';

const out = reportsMoved() ? reportsDir() : undefined;
const testDir = runContext().mergeTestDir;
if (!out || !testDir)
  throw new Error('scripts/shard/merge.config.ts runs through `npm run merge`, not alone');

export default defineConfig({
  testDir,
  reporter: [
    ['junit', { outputFile: resolve(out, 'junit.xml') }],
    [resolve(__dirname, '..', '..', 'reporters', 'rule-matrix.ts'), { outputDir: out }],
  ],
});
