// What may answer at a base URL that is no JSON Ledger API, or not now — one fastify app, a prefix per kind: a
// login gateway (/gw, /rel, /cred: redirects), a web page (/site), nginx's answer to http on its https port
// (/tls), a gateway refusing the token (/proxy), a proxy whose participant is down (/down), Canton starting
// (/starting), and a web server's 404 page for anything else. Used by the preflight's self-tests.
import { test } from '@playwright/test';
import Fastify, { type FastifyInstance } from 'fastify';
import { listen } from './harness-kit';
import { staging, type Staging } from './staging-kit';

export async function notLedgerApis(): Promise<{ app: FastifyInstance; url: string }> {
  const app = Fastify();
  app.get('/gw/v2/version', (_req, reply) =>
    reply.redirect('https://login.example.com/authorize?client_id=qa&state=s3cr3t-state', 302),
  );
  app.get('/rel/v2/version', (_req, reply) => reply.redirect('/sso/login?next=%2Fv2%2Fversion', 303));
  app.get('/cred/v2/version', (_req, reply) =>
    reply.redirect('https://qa:s3cr3t@login.example.com/authorize', 307),
  );
  app.get('/site/v2/version', (_req, reply) => reply.type('text/html').send('<!DOCTYPE html><html></html>'));
  app.get('/tls/v2/version', (_req, reply) =>
    reply
      .code(400)
      .type('text/html')
      .send('<html><head><title>400 The plain HTTP request was sent to HTTPS port</title></head></html>'),
  );
  app.all('/proxy/*', (_req, reply) =>
    reply.code(401).type('text/html').send('<html>401 Authorization Required</html>'),
  );
  app.all('/down/*', (_req, reply) => reply.code(502).type('text/html').send('<html>502 Bad Gateway</html>'));
  app.all('/starting/*', (_req, reply) =>
    reply.code(503).send({ code: 'SERVICE_NOT_RUNNING', cause: 'starting', grpcCodeValue: 14 }),
  );
  app.setNotFoundHandler((_req, reply) => reply.code(404).type('text/html').send('<html>Not Found</html>'));
  return { app, url: await listen(app) };
}

/**
 * A staging participant and notLedgerApis(), started for the describe block this is called in and closed after
 * it; read them inside tests.
 */
export function stagingAndNotLedgerApis(): { readonly target: Staging; readonly webUrl: string } {
  const ctx = {} as { target: Staging; web: FastifyInstance; webUrl: string };
  test.beforeAll(async () => {
    ctx.target = await staging();
    ({ app: ctx.web, url: ctx.webUrl } = await notLedgerApis());
  });
  test.afterAll(async () => {
    await ctx.target?.app.close();
    await ctx.web?.close();
  });
  return ctx;
}
