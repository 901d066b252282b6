// The OAuth2 client-credentials provider against a tiny token endpoint started here (fastify, 127.0.0.1):
// the IdP's token is accepted by the sandbox, cached, refreshed before expiry, and a refused request fails
// with the IdP's reason — never with the client secret.
import { expect, test } from '../support/test';
import Fastify, { type FastifyInstance } from 'fastify';
import { buildApp } from '../../sandbox/app';
import { loadConfig } from '../../sandbox/config';
import { OAuth2Provider, TokenSourceError, createTokenProvider } from '../../core/token-providers';
import { runPreflight } from '../support/child-run';
import { clientFor, listen, rejectionOf, settingsFor } from '../support/harness-kit';
import { token } from '../support/sandbox-kit';
import { EXIT } from '../../core/exit-codes';

const CLIENT_ID = 'conformance-client';
const CLIENT_SECRET = 'oauth-client-secret-do-not-leak';

interface Idp {
  app: FastifyInstance;
  url: string;
  /** Grant requests received, with how the client authenticated. */
  grants: { auth: 'post' | 'basic'; scope?: string; audience?: string }[];
}

/** An IdP that issues Canton user tokens for `conformance`, valid 120 s, to the one known client. */
async function startIdp(): Promise<Idp> {
  const app = Fastify();
  const grants: Idp['grants'] = [];
  app.addContentTypeParser('application/x-www-form-urlencoded', { parseAs: 'string' }, (_req, body, done) =>
    done(null, Object.fromEntries(new URLSearchParams(body as string))),
  );
  app.post('/oauth/token', async (req, reply) => {
    const form = req.body as Record<string, string>;
    let id = form.client_id;
    let secret = form.client_secret;
    let auth: 'post' | 'basic' = 'post';
    const basic = /^Basic (.+)$/.exec(req.headers.authorization ?? '');
    if (basic) {
      [id, secret] = Buffer.from(basic[1]!, 'base64').toString().split(':').map(decodeURIComponent);
      auth = 'basic';
    }
    if (form.grant_type !== 'client_credentials')
      return reply.code(400).send({ error: 'unsupported_grant_type' });
    if (id !== CLIENT_ID || secret !== CLIENT_SECRET) {
      return reply
        .code(401)
        .send({ error: 'invalid_client', error_description: 'Client authentication failed' });
    }
    grants.push({ auth, scope: form.scope, audience: form.audience });
    return { access_token: await token(), token_type: 'Bearer', expires_in: 120 };
  });
  app.get('/login', (_req, reply) => reply.type('text/html').send('<!DOCTYPE html><html>Sign in</html>'));
  app.post('/login', (_req, reply) => reply.type('text/html').send('<!DOCTYPE html><html>Sign in</html>'));
  app.post('/down', (_req, reply) => reply.code(503).type('text/html').send('<html>503</html>'));
  return { app, grants, url: `${await listen(app)}/oauth/token` };
}

const oauthEnv = (idp: Idp, extra: Record<string, string> = {}) => ({
  LEDGER_AUTH: 'oauth2',
  LEDGER_OAUTH_TOKEN_URL: idp.url,
  LEDGER_OAUTH_CLIENT_ID: CLIENT_ID,
  LEDGER_OAUTH_CLIENT_SECRET: CLIENT_SECRET,
  ...extra,
});

test.describe('OAuth2 client-credentials provider', () => {
  let idp: Idp;
  let sandbox: FastifyInstance;
  let sandboxUrl: string;

  test.beforeAll(async () => {
    idp = await startIdp();
    sandbox = await buildApp(loadConfig({}));
    sandboxUrl = await listen(sandbox);
  });
  test.afterAll(async () => {
    await idp.app.close();
    await sandbox.close();
  });

  test('the IdP token is accepted by the sandbox and names the user', async () => {
    const provider = createTokenProvider(settingsFor(oauthEnv(idp)));
    const res = await clientFor(sandboxUrl, provider).listVettedPackages({ pageSize: 1 });
    expect(res.status).toBe(200);
    expect(await provider.userId()).toBe('conformance');
    expect(provider.minter, 'an IdP token provider cannot mint negative tokens').toBeUndefined();
  });

  test('the token is cached, and refreshed before it expires', async () => {
    const provider = createTokenProvider(settingsFor(oauthEnv(idp))) as OAuth2Provider;
    const first = await provider.token();
    await Promise.all([provider.token(), provider.token()]);
    expect(provider.requests, 'one grant serves every call while the token is fresh').toBe(1);
    const realNow = Date.now;
    try {
      // 61 s into a 120 s token, 59 s are left: under the one-minute margin.
      Date.now = () => realNow() + 61_000;
      expect(await provider.token()).not.toBe(first);
      expect(provider.requests).toBe(2);
    } finally {
      Date.now = realNow;
    }
  });

  test('client_secret_basic, scope and audience are sent as configured', async () => {
    const before = idp.grants.length;
    const provider = createTokenProvider(
      settingsFor(
        oauthEnv(idp, {
          LEDGER_OAUTH_CLIENT_AUTH: 'basic',
          LEDGER_OAUTH_SCOPE: 'daml_ledger_api',
          LEDGER_OAUTH_AUDIENCE: 'https://ledger.example',
        }),
      ),
    );
    await provider.token();
    expect(idp.grants.slice(before)).toContainEqual({
      auth: 'basic',
      scope: 'daml_ledger_api',
      audience: 'https://ledger.example',
    });
  });

  // Each a setting to fix (targetDown false) but an IdP that does not answer, which is the run's to call
  // inconclusive (true); one line each, naming the setting. Nothing listening at the token URL: the nightly's
  // called run (selftest/nightly/workflow.test.ts, 'a shard that stopped at its preflight …': its line, exit 4).
  const failures: {
    what: string;
    url: (idp: Idp) => string;
    line: (url: string) => string;
    down: boolean;
  }[] = [
    {
      what: 'a URL with no token endpoint',
      url: (i) => i.url.replace('/oauth/token', '/oauth/nothing'),
      line: (u) =>
        `the IdP at LEDGER_OAUTH_TOKEN_URL=${u} refused the token request (404 Not Found): set LEDGER_OAUTH_TOKEN_URL to the IdP's token endpoint (this URL has none)`,
      down: false,
    },
    {
      what: 'a login page',
      url: (i) => i.url.replace('/oauth/token', '/login'),
      line: (u) =>
        `LEDGER_OAUTH_TOKEN_URL=${u} answered 200 with an HTML page: set it to the IdP's OAuth2 token endpoint (client credentials)`,
      down: false,
    },
    {
      what: 'an IdP that is down',
      url: (i) => i.url.replace('/oauth/token', '/down'),
      line: (u) => `the IdP at LEDGER_OAUTH_TOKEN_URL=${u} answered 503: check that it is up`,
      down: true,
    },
  ];
  for (const f of failures) {
    test(`${f.what}: one line naming the setting`, async () => {
      const url = f.url(idp);
      const provider = createTokenProvider(settingsFor(oauthEnv(idp, { LEDGER_OAUTH_TOKEN_URL: url })));
      const error = await rejectionOf<TokenSourceError>(provider.token());
      expect(error).toBeInstanceOf(TokenSourceError);
      // A proxy variable of the machine's would add its note: the line starts the same.
      expect(error?.message.startsWith(f.line(url)), error?.message).toBe(true);
      expect(error?.targetDown).toBe(f.down);
    });
  }

  test('npm run preflight with a refused grant: one line and exit 2, not a stack trace', async () => {
    const env = { ...oauthEnv(idp, { LEDGER_OAUTH_CLIENT_SECRET: `${CLIENT_SECRET}-wrong` }) };
    const run = await runPreflight({ ...env, LEDGER_BASE_URL: sandboxUrl });
    expect(run.status, run.stderr).toBe(EXIT.badSetting);
    expect(run.stderr.trimEnd().split('\n')).toEqual([
      `ledger-conformance: the IdP at LEDGER_OAUTH_TOKEN_URL=${idp.url} refused the token request (401 invalid_client: Client authentication failed): check LEDGER_OAUTH_CLIENT_ID and LEDGER_OAUTH_CLIENT_SECRET (sent as form fields; LEDGER_OAUTH_CLIENT_AUTH=basic sends them the other way)`,
    ]);
    expect(run.stderr).not.toContain(CLIENT_SECRET);
  });
});
