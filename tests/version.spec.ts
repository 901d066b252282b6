// Version discovery (interface document §2.9, §9): what GET /v2/version returns.
import { test, expect } from '../fixtures';

test.describe('GET /v2/version', () => {
  test('VER-SHAPE the version response carries the version string and the features descriptor', async ({
    ledger,
  }) => {
    const res = await ledger.version();
    expect(res).toHaveStatus(200);
    expect(res.json).toMatchSchema('version-response');
  });
});
