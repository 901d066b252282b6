// The run-information block's `vetting` line (scripts/run/vetting-size.ts): the count of a sandbox's listing
// read with the largest page, and a target whose listing cannot be read said so instead of stopping the run.
import { expect, test } from '../support/test';
import { withSandbox } from '../support/sandbox-kit';
import { vettingSize } from '../../scripts/run/vetting-size';
import { listen, settingsFor } from '../support/harness-kit';

test('counts every entry with the largest page, and says how', async () => {
  await withSandbox({ SANDBOX_SYNCHRONIZERS: '1', SANDBOX_PARTICIPANTS: '250' }, async (app) => {
    const size = await vettingSize(settingsFor(), await listen(app), 100);
    expect(size.entries).toBe(250);
    // Canton's extra empty page carries the "": three pages of entries and one more.
    expect(size.line).toBe('250 entries (read in 4 pages, pages of 100)');
  });
});

test('a listing that answers an error is unknown, never a stopped run', async () => {
  await withSandbox({}, async (app) => {
    // A page size above the maximum: Canton refuses it.
    const size = await vettingSize(settingsFor(), await listen(app), 1_000);
    expect(size.entries).toBeUndefined();
    expect(size.line).toBe('unknown (the listing answered 400)');
  });
});
