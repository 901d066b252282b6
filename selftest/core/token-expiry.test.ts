// The run's token failing during a run. An IdP that stops answering: the request is not sent, and the test is
// inconclusive. A static token that runs out (the version route takes no token: the vetting list does): the participant's 401 to a request made with the run's own token
// is inconclusive (the harness's token, not the rule). A 401 to a token a test chose stays an answer for the
// test to judge: AUTH-EXPIRED-TOKEN and the other AUTH- rules pass on the fault run's clean sandbox only so.
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import { buildApp } from '../../sandbox/app';
import { loadConfig } from '../../sandbox/config';
import { INCONCLUSIVE } from '../../core/verdict-marks';
import { TokenSourceError } from '../../core/token-providers';
import { clientFor, listen, rejectionOf } from '../support/harness-kit';
import { token } from '../support/sandbox-kit';

/** A dev-secret user token for `conformance` whose exp is `offset` seconds from now. */
const devToken = (offset: number): Promise<string> => {
  const now = Math.floor(Date.now() / 1000);
  return token({ claims: { iat: now - 600, exp: now + offset } });
};

test.describe('the run token expiring during a run', () => {
  let sandbox: FastifyInstance;
  let url: string;
  test.beforeAll(async () => {
    sandbox = await buildApp(loadConfig({}));
    url = await listen(sandbox);
  });
  test.afterAll(async () => {
    await sandbox.close();
  });

  test("a 401 to the run's own expired token is inconclusive, naming when it expired", async () => {
    const expired = await devToken(-60);
    const client = clientFor(url, { token: () => Promise.resolve(expired) });
    const error = await rejectionOf<Error>(client.listVettedPackages({}));
    expect(error?.message).toMatch(
      new RegExp(
        `^${INCONCLUSIVE.replace(/[[\]]/g, '\\$&')} POST /v2/package-vetting/list answered 401: the run's token expired at \\S+Z \\(its exp\\) during the run`,
      ),
    );
    expect(error?.message).not.toContain(expired);
  });

  test('an IdP that stops answering: the request is not sent, and is inconclusive', async () => {
    const down = new TokenSourceError(
      'the IdP cannot be reached at LEDGER_OAUTH_TOKEN_URL=…: ECONNREFUSED',
      true,
    );
    const client = clientFor(url, { token: () => Promise.reject(down) });
    const error = await rejectionOf<Error>(client.listVettedPackages({}));
    expect(error?.message).toBe(
      `${INCONCLUSIVE} POST /v2/package-vetting/list was not sent: ${down.message}`,
    );
    expect(client.evidence.exchanges).toHaveLength(0);
  });
});
