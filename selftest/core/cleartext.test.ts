// Credentials in the clear are announced: a bearer token, the OAuth2 client secret or a proxy password sent over
// plain http to another machine gets one line before anything is sent (core/cleartext.ts); loopback and https stay
// silent. The preflight and a conformance run are run against this machine's own non-loopback address on a closed
// port: refused at once, no network needed; the run also shows a participant refusing connections is exit 4.
import { mkdtempSync, readFileSync } from 'node:fs';
import { networkInterfaces, tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { clearCredentials, clearCredentialsLine, clearCredentialsWords } from '../../core/cleartext';
import { renderMarkdown } from '../../reporters/matrix-render';
import { totals } from '../../reporters/verdicts';
import { ENV_KEYS, environmentEntries } from '../../reporters/allure-results';
import { runLean, runPreflight } from '../support/child-run';
import { settingsFor } from '../support/harness-kit';
import { EXIT } from '../../core/exit-codes';
import { RETRY } from '../../core/retry';
import { runExitCode } from '../../scripts/run/target-down';
import { closedPort } from '../support/webhook-receiver';

/** This machine's first non-loopback IPv4 address (0.0.0.0, which also reaches this machine, without one). */
function localAddress(): string {
  const all = Object.values(networkInterfaces()).flat();
  return all.find((a) => a && a.family === 'IPv4' && !a.internal)?.address ?? '0.0.0.0';
}

const line = (env: Record<string, string>): string | undefined =>
  clearCredentialsLine(clearCredentials(settingsFor(env)));

test.describe('credentials over plain http', () => {
  test('a token to another machine over http is announced with the host and the fix; loopback and https are not', () => {
    const remote = line({ LEDGER_BASE_URL: 'http://staging.example:7575' });
    expect(remote).toBe(
      'ledger-conformance: credentials go over plain http, readable on the way: the bearer tokens ' +
        '(LEDGER_AUTH=hs256) to staging.example:7575; use https:// in LEDGER_BASE_URL',
    );
    expect(
      line({
        LEDGER_BASE_URL: 'http://staging.example:7575',
        LEDGER_AUTH: 'static',
        LEDGER_TOKEN: 'abcdefgh1234',
      }),
    ).toContain('the bearer token of LEDGER_TOKEN to staging.example:7575');
    for (const quiet of [
      'http://127.0.0.1:7575',
      'http://localhost:7575',
      'http://[::1]:7575',
      'https://staging.example',
    ])
      expect(line({ LEDGER_BASE_URL: quiet }), quiet).toBeUndefined();
    expect(line({ LEDGER_BASE_URL: 'http://staging.example:7575', LEDGER_AUTH: 'none' })).toBeUndefined();
  });

  test('the OAuth2 client secret to an http token URL and a proxy password to an http proxy are announced', () => {
    const oauth = {
      LEDGER_BASE_URL: 'https://staging.example',
      LEDGER_AUTH: 'oauth2',
      LEDGER_OAUTH_TOKEN_URL: 'http://idp.example:8080/token',
      LEDGER_OAUTH_CLIENT_ID: 'conformance',
      LEDGER_OAUTH_CLIENT_SECRET: 'client-secret-value',
      LEDGER_OAUTH_AUDIENCE: 'https://daml.com/jwt/aud/participant/p1::1220ab',
    };
    const said = line(oauth) ?? '';
    expect(said).toContain('the OAuth2 client secret to idp.example:8080');
    expect(said).toContain('use https:// in LEDGER_OAUTH_TOKEN_URL');
    expect(said).not.toContain('client-secret-value');
    expect(line({ ...oauth, LEDGER_OAUTH_TOKEN_URL: 'http://127.0.0.1:8080/token' })).toBeUndefined();

    const saved = process.env.HTTPS_PROXY;
    process.env.HTTPS_PROXY = 'http://qa:proxy-password@proxy.example:3128';
    try {
      const proxied = line({ LEDGER_BASE_URL: 'https://staging.example' }) ?? '';
      expect(proxied).toContain('the proxy password of HTTPS_PROXY to proxy.example:3128');
      expect(proxied).not.toContain('proxy-password');
      process.env.HTTPS_PROXY = 'https://qa:proxy-password@proxy.example:3128';
      expect(line({ LEDGER_BASE_URL: 'https://staging.example' })).toBeUndefined();
    } finally {
      if (saved === undefined) delete process.env.HTTPS_PROXY;
      else process.env.HTTPS_PROXY = saved;
    }
  });

  test('the preflight and a run say it first against a non-loopback http URL, and nothing against 127.0.0.1; refused, the run is exit 4', async () => {
    test.setTimeout(120_000);
    const port = await closedPort();
    const remote = `http://${localAddress()}:${port}`;
    const preflight = (url: string) => runPreflight({ LEDGER_BASE_URL: url });

    const loud = await preflight(remote);
    expect(loud.status, loud.stderr).toBe(EXIT.targetDown); // refused: the target is down
    const lines = loud.stderr.trim().split('\n');
    expect(lines[0]).toMatch(
      /credentials go over plain http, .* to [\d.]+:\d+; use https:\/\/ in LEDGER_BASE_URL$/,
    );
    expect(lines.filter((l) => l.includes('plain http'))).toHaveLength(1);

    const quiet = await preflight(`http://127.0.0.1:${port}`);
    expect(quiet.status, quiet.stderr).toBe(EXIT.targetDown);
    expect(quiet.stdout + quiet.stderr).not.toContain('plain http');

    // A conformance run prints it before its run information (and before its preflight sends the token).
    const reports = mkdtempSync(join(tmpdir(), 'cleartext-'));
    const run = await runLean(reports, { LEDGER_BASE_URL: remote }, ['--grep', 'VER-SHAPE']);
    const out = run.stdout + run.stderr;
    expect(out.match(/credentials go over plain http/g), out.slice(-3000)).toHaveLength(1);
    // A participant refusing connections: the exit code `npm run conformance` gives is 4 (target down), after
    // the transport's retries.
    expect(runExitCode(join(reports, 'conformance.json'), run.status ?? 1), out.slice(-3000)).toBe(
      EXIT.targetDown,
    );
    expect(out).toContain('the connection was refused (ECONNREFUSED)');
    expect(out).toContain(`connection refused ×${RETRY.transportRetries}`);
    // And it is recorded for the report a reviewer reads later: target.json, which the matrix and Allure read.
    const target = JSON.parse(readFileSync(join(reports, 'target.json'), 'utf8')) as { cleartext?: string };
    expect(target.cleartext).toMatch(
      /^credentials go over plain http, .* use https:\/\/ in LEDGER_BASE_URL$/,
    );
  });

  test("the report says it: conformance.md's run information and the Allure environment", () => {
    const words = clearCredentialsWords(
      clearCredentials(settingsFor({ LEDGER_BASE_URL: 'http://10.1.2.3:7575' })),
    );
    expect(words).toBe(
      'credentials go over plain http, readable on the way: the bearer tokens (LEDGER_AUTH=hs256) to 10.1.2.3:7575; use https:// in LEDGER_BASE_URL',
    );
    const md = renderMarkdown({
      generatedAt: '2026-01-01T00:00:00Z',
      status: 'passed',
      totals: totals([]),
      rules: [],
      fingerprintChanges: [],
      uncatalogued: [],
      cleartext: words,
    });
    expect(md).toContain(`**Plain http:** ${words}.`);
    const env = new Map(environmentEntries({ cleartext: words }, [], 'ledger-conformance 0'));
    expect(env.get(ENV_KEYS.plainHttp)).toBe(words);
    expect(new Map(environmentEntries({}, [], 'x')).has(ENV_KEYS.plainHttp)).toBe(false);
  });
});
