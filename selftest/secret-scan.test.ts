import { test, expect } from '@playwright/test';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeHits, scanForSecrets } from '../reporters/secret-scan';

const JWT =
  'eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJjb25mb3JtYW5jZSIsImV4cCI6MX0.c2lnbmF0dXJlLXNpZ25hdHVyZQ';

test.describe('secret gate', () => {
  test('a planted secret or JWT is found and named by kind and file, never by value', async ({}, info) => {
    const dir = info.outputPath('reports');
    mkdirSync(join(dir, 'allure', 'data'), { recursive: true });
    writeFileSync(join(dir, 'clean.json'), JSON.stringify({ authorization: 'Bearer <redacted>' }));
    writeFileSync(join(dir, 'allure', 'data', 'leak.json'), `{"secret":"hmac-secret-planted-123"}`);
    writeFileSync(join(dir, 'allure', 'trace.txt'), `curl -H 'Authorization: Bearer ${JWT}'`);
    const hits = scanForSecrets([dir], [{ kind: 'LEDGER_HMAC_SECRET', value: 'hmac-secret-planted-123' }]);
    expect(hits.map((h) => [h.file.replace(dir, ''), h.kind]).sort()).toEqual([
      ['/allure/data/leak.json', 'LEDGER_HMAC_SECRET'],
      ['/allure/trace.txt', 'a JWT-shaped string'],
    ]);
    const message = describeHits(hits);
    expect(message).not.toContain('hmac-secret-planted-123');
    expect(message).not.toContain(JWT);
  });

  test('a PEM key is found by its body even when re-wrapped in JSON', async ({}, info) => {
    const dir = info.outputPath('reports');
    mkdirSync(dir, { recursive: true });
    const body = 'MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQg' + 'A'.repeat(20);
    const pem = `-----BEGIN PRIVATE KEY-----\n${body}\n-----END PRIVATE KEY-----\n`;
    writeFileSync(join(dir, 'attachment.json'), JSON.stringify({ key: pem }));
    expect(scanForSecrets([dir], [{ kind: 'LEDGER_PRIVATE_KEY', value: pem }])).toHaveLength(1);
  });

  test('clean output and missing folders pass', async ({}, info) => {
    const dir = info.outputPath('reports');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ok.txt'), 'Authorization: Bearer $TOKEN');
    expect(
      scanForSecrets([dir, info.outputPath('absent')], [{ kind: 'LEDGER_TOKEN', value: 'short' }]),
    ).toEqual([]);
  });
});
