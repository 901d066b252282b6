// What the secret gate looks for, per auth kind (read from the validated settings, never guessed), where it
// looks, and the interface-document link setting of the report.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import type { ReporterDescription } from '@playwright/test';
import { clauseUrl, interfaceDocTemplate } from '../../core/interface-doc';
import { loadSettings } from '../../core/settings';
import { scanForSecrets } from '../../reporters/secret-scan';
import { gateDirs, runSecrets } from '../../scripts/report/secret-gate';
import { ROOT } from '../support/report-kit';

const kinds = (env: Record<string, string>) =>
  runSecrets(loadSettings(env), env).map((s) => [s.kind, s.value.includes('-----BEGIN') ? 'PEM' : s.value]);

test.describe('secret gate: the secrets of a run', () => {
  test('hs256 (default): the HMAC secret, the sandbox dev secret included', () => {
    expect(kinds({})).toEqual([['LEDGER_HMAC_SECRET', 'sandbox-dev-secret']]);
    expect(
      kinds({
        LEDGER_HMAC_SECRET: 'a-much-longer-shared-secret',
        SANDBOX_HMAC_SECRET: 'sandbox-side-secret',
      }),
    ).toEqual([
      ['LEDGER_HMAC_SECRET', 'a-much-longer-shared-secret'],
      ['SANDBOX_HMAC_SECRET', 'sandbox-side-secret'],
    ]);
  });

  test('static: the token', () => {
    expect(kinds({ LEDGER_AUTH: 'static', LEDGER_TOKEN: 'opaque-static-token-123' })).toEqual([
      ['LEDGER_TOKEN', 'opaque-static-token-123'],
    ]);
  });

  test('oauth2: the client secret', () => {
    expect(
      kinds({
        LEDGER_AUTH: 'oauth2',
        LEDGER_OAUTH_TOKEN_URL: 'https://idp.example.com/oauth/token',
        LEDGER_OAUTH_CLIENT_ID: 'ledger-conformance',
        LEDGER_OAUTH_CLIENT_SECRET: 'client-secret-xyz',
      }),
    ).toEqual([['LEDGER_OAUTH_CLIENT_SECRET', 'client-secret-xyz']]);
  });

  test("a proxy URL's password: the URL whole, the password as written and decoded; none without a password", () => {
    expect(
      kinds({
        HTTPS_PROXY: 'http://qa:p%40ss-proxy-9@proxy.example:3128',
        HTTP_PROXY: 'http://proxy.example:3128',
      }),
    ).toEqual([
      ['LEDGER_HMAC_SECRET', 'sandbox-dev-secret'],
      ['HTTPS_PROXY', 'http://qa:p%40ss-proxy-9@proxy.example:3128'],
      ['HTTPS_PROXY', 'p%40ss-proxy-9'],
      ['HTTPS_PROXY', 'p@ss-proxy-9'],
    ]);
  });

  test('es256 with a key file: the file as written, and the key as PKCS#8; found when leaked', ({}, info) => {
    const { privateKey } = generateKeyPairSync('ec', { namedCurve: 'prime256v1' });
    // SEC1 on disk, so the file and the PKCS#8 export differ: both are looked for.
    const sec1 = privateKey.export({ type: 'sec1', format: 'pem' }).toString();
    const dir = info.outputPath('out');
    mkdirSync(dir, { recursive: true });
    const keyFile = info.outputPath('key.pem');
    writeFileSync(keyFile, sec1);
    const env = { LEDGER_AUTH: 'es256', LEDGER_JWT_PRIVATE_KEY: keyFile };
    const secrets = runSecrets(loadSettings(env), env);
    expect(secrets.map((s) => s.kind)).toEqual(['LEDGER_JWT_PRIVATE_KEY', 'LEDGER_JWT_PRIVATE_KEY']);
    expect(secrets[0]!.value).toBe(sec1);
    expect(secrets[1]!.value).toContain('-----BEGIN PRIVATE KEY-----');
    writeFileSync(join(dir, 'attachment.json'), JSON.stringify({ key: secrets[1]!.value }));
    expect(scanForSecrets([dir], secrets).map((h) => h.kind)).toEqual(['LEDGER_JWT_PRIVATE_KEY']);
  });

  test('the gate reads reports/, test-results/, Playwright’s report folders and every configured reporter output', () => {
    const reporters: ReporterDescription[] = [
      ['list'],
      ['html', { outputFolder: 'html-out', open: 'never' }],
      ['json', { outputFile: '/tmp/run-1/report.json' }],
      ['junit', { outputFile: 'reports/junit.xml' }],
    ];
    expect(gateDirs({ PLAYWRIGHT_BLOB_OUTPUT_DIR: '/tmp/blobs' }, reporters)).toEqual({
      dirs: [
        join(ROOT, 'reports'),
        join(ROOT, 'test-results'),
        join(ROOT, 'playwright-report'),
        join(ROOT, 'blob-report'),
        join(ROOT, 'html-out'),
        '/tmp/run-1/report.json',
        '/tmp/blobs',
      ],
      exclude: [join(ROOT, 'reports', 'selftest'), join(ROOT, 'test-results', 'selftest')],
    });
    // A redirected run: its folder and what the environment points reporters at, not the project's folders.
    expect(gateDirs({ LEDGER_REPORTS_DIR: '/tmp/run-1' }, reporters)).toEqual({
      dirs: ['/tmp/run-1'],
      exclude: [],
    });
    expect(
      gateDirs({ LEDGER_REPORTS_DIR: '/tmp/run-1', PLAYWRIGHT_HTML_OUTPUT_DIR: '/tmp/html' }, reporters).dirs,
    ).toEqual(['/tmp/run-1', '/tmp/html']);
    // The project's own config is read when none is given: its reporters write under reports/.
    expect(gateDirs({}).dirs).toContain(join(ROOT, 'playwright-report'));
  });
});

test.describe('report: the link to the interface document', () => {
  test('unset: no link; set: a template with {section}, checked up front', () => {
    expect(interfaceDocTemplate({})).toBeUndefined();
    const t = interfaceDocTemplate({
      LEDGER_INTERFACE_DOC_URL: 'https://docs.example.com/api.html#s{section}',
    })!;
    expect(clauseUrl(t, '4.2 Pagination 3')).toBe('https://docs.example.com/api.html#s4.2');
    expect(clauseUrl(t, '2.1; 7')).toBe('https://docs.example.com/api.html#s2.1');
    expect(() =>
      interfaceDocTemplate({ LEDGER_INTERFACE_DOC_URL: 'https://docs.example.com/api.html' }),
    ).toThrow(
      'LEDGER_INTERFACE_DOC_URL="https://docs.example.com/api.html" is not valid: set it to an http(s) URL with {section}',
    );
    expect(() => interfaceDocTemplate({ LEDGER_INTERFACE_DOC_URL: 'file:///doc#{section}' })).toThrow(
      /is not valid/,
    );
  });
});
