// Listing vetted packages (interface document §2.7, §2.8, §4.2): shape, order and pagination.
import { test, expect, walkVettedPackages } from '../fixtures';

test.describe('POST /v2/package-vetting/list', () => {
  test('VET-SHAPE a vetting page matches the response shape', async ({ ledger }) => {
    const res = await ledger.listVettedPackages({});
    expect(res).toHaveStatus(200);
    expect(res.json).toMatchSchema('vetting-list-response');
  });

  test('VET-PAGE-ORDER entries are sorted by synchronizerId, then participantId', async ({
    ledger,
    target,
  }) => {
    const max = target.limits.maxVettedPackagesPageSize;
    test.skip(
      max === undefined,
      `the maximum page size is unknown: ${target.probeProblem ?? 'not in /v2/version'}`,
    );
    // Small pages, so the order is checked inside pages and across page boundaries.
    const walk = await walkVettedPackages(ledger, { pageSize: Math.min(2, max!) }, { maxPageLength: max });
    test.skip(
      walk.entries.length < 2,
      'the target lists fewer than two entries: their order cannot be observed',
    );
    expect(walk.orders, 'the order the whole walk follows').not.toHaveLength(0);
  });
});
