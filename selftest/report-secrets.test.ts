// What the secret gate looks for, per auth kind (read from the validated settings, never guessed), where it
// looks, and the interface-document link setting of the report.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { clauseUrl, interfaceDocTemplate } from '../fixtures/interface-doc';
import { loadSettings } from '../fixtures/settings';
import { scanForSecrets } from '../reporters/secret-scan';
import { gateDirs, runSecrets } from '../scripts/secret-gate';
import { ROOT } from './support/report-kit';

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

  test('the gate reads reports/ and test-results/, except the self-tests’ planted secrets', () => {
    expect(gateDirs({})).toEqual({
      dirs: [join(ROOT, 'reports'), join(ROOT, 'test-results')],
      exclude: [join(ROOT, 'reports', 'selftest'), join(ROOT, 'test-results', 'selftest')],
    });
    expect(gateDirs({ LEDGER_REPORTS_DIR: '/tmp/run-1' })).toEqual({ dirs: ['/tmp/run-1'], exclude: [] });
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
