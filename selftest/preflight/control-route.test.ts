// The harness asks the sandbox's control route as the rule that uses it will call it: with LEDGER_ADMIN_USER's
// token (the participant-admin right the route asks for). The probe of the preflight and the workers tells a
// route that serves this caller, one that refuses it (Canton's 401/403), and none at all; the skip's reason
// names what to set. Sandboxes on 127.0.0.1, port 0.
import type { FastifyInstance } from 'fastify';
import { expect, test } from '../support/test';
import { listen, settingsFor } from '../support/harness-kit';
import { sandbox } from '../support/sandbox-kit';
import { controlCaller, controlRouteOf } from '../../core/control-route';
import { unmetNeed } from '../../core/rule-needs';
import { tokenProviderFor, userFromToken } from '../../core/token-providers';
import { probeControlRoute } from '../../scripts/preflight/checks';

const RULE = 'VET-PAGE-TOKEN-REPEAT-MORE';
let apps: FastifyInstance[] = [];
let withRoute = '';
let withoutRoute = '';

test.beforeAll(async () => {
  apps = [await sandbox({ SANDBOX_CONTROL: 'true' }), await sandbox()];
  withRoute = await listen(apps[0]!);
  withoutRoute = await listen(apps[1]!);
});
test.afterAll(async () => Promise.all(apps.map((a) => a.close())));

test.describe('the control route, as the harness asks it', () => {
  test('an admin token is served, the run’s plain user and no token are refused, a sandbox without it has none', async () => {
    const remote = (env: Record<string, string> = {}) => settingsFor({ LEDGER_BASE_URL: withRoute, ...env });
    expect(await probeControlRoute(remote({ LEDGER_ADMIN_USER: 'admin' }), withRoute)).toBe('usable');
    expect(await probeControlRoute(remote(), withRoute)).toBe('refused');
    expect(await probeControlRoute(remote({ LEDGER_ADMIN_USER: 'reader' }), withRoute)).toBe('refused');
    expect(await probeControlRoute(remote({ LEDGER_AUTH: 'none' }), withRoute)).toBe('refused');
    expect(await probeControlRoute(remote({ LEDGER_ADMIN_USER: 'admin' }), withoutRoute)).toBe('absent');
    // The in-process sandbox's defaults: its admin user.
    expect(await probeControlRoute(settingsFor(), withRoute)).toBe('usable');
  });

  test('the token presented is LEDGER_ADMIN_USER’s when the harness can mint, else the run’s own', async () => {
    const local = settingsFor();
    const admin = await controlCaller(local, tokenProviderFor(local));
    expect([userFromToken(admin.token), admin.identity]).toEqual(['admin', 'LEDGER_ADMIN_USER=admin']);
    const remote = settingsFor({ LEDGER_BASE_URL: withRoute });
    const own = await controlCaller(remote, tokenProviderFor(remote));
    expect([userFromToken(own.token), own.identity]).toEqual(['conformance', undefined]);
  });

  test('only Canton’s 401/403 bodies count as a refusal: a gateway’s own 401 or a 404 is no route', () => {
    const body = (grpcCodeValue: number) => JSON.stringify({ code: 'NA', grpcCodeValue });
    expect(controlRouteOf(400, 'Invalid value for: body (…)')).toBe('usable');
    expect(controlRouteOf(401, body(16))).toBe('refused');
    expect(controlRouteOf(403, body(7))).toBe('refused');
    expect(controlRouteOf(401, '<html>login</html>')).toBe('absent');
    expect(controlRouteOf(403, body(16))).toBe('absent');
    expect(controlRouteOf(404, body(5))).toBe('absent');
  });

  test('the skip names what to set, by where the token came from', () => {
    const why = (env: Record<string, string>, cannotMint?: string) =>
      unmetNeed(RULE, {
        settings: settingsFor({ LEDGER_BASE_URL: withRoute, ...env }),
        version: '3.4.11',
        cannotMint,
        controlRoute: 'refused',
      });
    expect(why({})).toMatch(/participant-admin right .*: set LEDGER_ADMIN_USER to such a user$/);
    expect(why({ LEDGER_ADMIN_USER: 'reader' })).toMatch(/LEDGER_ADMIN_USER=reader was refused/);
    expect(why({ LEDGER_ADMIN_USER: 'admin' }, 'no key')).toMatch(/must be minted: no key/);
    const usable = { settings: settingsFor(), version: '3.4.11', cannotMint: undefined };
    expect(unmetNeed(RULE, { ...usable, controlRoute: 'usable' })).toBeUndefined();
    expect(unmetNeed(RULE, { ...usable, controlRoute: 'absent' })).toMatch(/offers no control route/);
  });
});
