import { expect, test } from '../support/test';
import { claim } from '../support/claim';
import AdmZip from 'adm-zip';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import fc from 'fast-check';
import {
  BASE64_RUN,
  base64Runs,
  describeHits,
  hasJwtShape,
  JWT_SHAPE,
  scanForSecrets,
  shippedAssetDigests,
} from '../../reporters/secret-scan';

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

  test('inside a zip the deflated entries are read, a hit naming the entry; an unreadable zip is a hit', async ({}, info) => {
    const dir = info.outputPath('reports');
    mkdirSync(dir, { recursive: true });
    const zip = new AdmZip();
    zip.addFile('report.jsonl', Buffer.from(`{"error":"hmac-secret-planted-123"}\n`.repeat(50)));
    zip.addFile('resources/clean.txt', Buffer.from('Authorization: Bearer <redacted>'));
    const bytes = zip.toBuffer();
    // Deflated: the secret is not in the zip's own bytes, only in the entry.
    expect(bytes.toString('latin1')).not.toContain('hmac-secret-planted-123');
    writeFileSync(join(dir, 'blob.zip'), bytes);
    writeFileSync(join(dir, 'truncated.zip'), bytes.subarray(0, bytes.length - 10));
    // A byte of report.jsonl's deflated data (after its 30-byte local header and its name) flipped: a bad checksum.
    const corrupt = Buffer.from(bytes);
    const at = 30 + 'report.jsonl'.length + 2;
    corrupt[at] = corrupt[at]! ^ 0xff;
    writeFileSync(join(dir, 'corrupt.zip'), corrupt);
    const hits = scanForSecrets([dir], [{ kind: 'LEDGER_HMAC_SECRET', value: 'hmac-secret-planted-123' }]);
    const unreadable = 'an unreadable zip (its contents could not be checked)';
    expect(hits.map((h) => [h.file.replace(dir, ''), h.kind]).sort()).toEqual([
      ['/blob.zip › report.jsonl', 'LEDGER_HMAC_SECRET'],
      ['/corrupt.zip', unreadable],
      ['/truncated.zip', unreadable],
    ]);
  });

  test('base64 is read too: a JSON report’s attachment body, a zip embedded in HTML', async ({}, info) => {
    const dir = info.outputPath('reports');
    mkdirSync(dir, { recursive: true });
    const transcript = `authorization: Bearer ${JWT}\n`.repeat(3);
    // Playwright's JSON reporter writes attachment bodies as base64.
    writeFileSync(
      join(dir, 'report.json'),
      JSON.stringify({ attachments: [{ name: 'log', body: Buffer.from(transcript).toString('base64') }] }),
    );
    const zip = new AdmZip();
    zip.addFile('data/test.json', Buffer.from(`{"secret":"hmac-secret-planted-123"}`.repeat(5)));
    writeFileSync(
      join(dir, 'index.html'),
      `<template id="playwrightReportBase64">data:application/zip;base64,${zip.toBuffer().toString('base64')}</template>`,
    );
    const hits = scanForSecrets([dir], [{ kind: 'LEDGER_HMAC_SECRET', value: 'hmac-secret-planted-123' }]);
    expect(hits.map((h) => [h.file.replace(dir, ''), h.kind]).sort()).toEqual([
      ['/index.html › base64 at 66 › data/test.json', 'LEDGER_HMAC_SECRET'],
      ['/report.json › base64 at 38', 'a JWT-shaped string'],
    ]);
    // A single file is a valid place to scan (a reporter's outputFile).
    expect(scanForSecrets([join(dir, 'report.json')], [])).toHaveLength(1);
  });

  test('clean output and missing folders pass', async ({}, info) => {
    const dir = info.outputPath('reports');
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, 'ok.txt'), 'Authorization: Bearer $TOKEN');
    expect(
      scanForSecrets([dir, info.outputPath('absent')], [{ kind: 'LEDGER_TOKEN', value: 'short' }]),
    ).toEqual([]);
  });

  test('the one-pass searches find exactly what their regexes find (JWT shape, base64 runs)', () => {
    // Strings built from the characters that matter, with a JWT or a long base64 run spliced in now and then.
    const piece = fc.oneof(
      fc.constantFrom('eyJ', '.eyJ', '.', '=', '==', '+', '/', '_', '-', ' ', '"', 'a', 'Z', '0'),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,20}$/),
      fc.constant(JWT),
      fc.stringMatching(/^[A-Za-z0-9+/]{60,70}$/),
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 30 }), (pieces) => {
        const text = pieces.join('');
        claim(hasJwtShape(text)).toBe(JWT_SHAPE.test(text));
        claim([...base64Runs(text)].map((m) => [m.index, m.value])).toEqual(
          [...text.matchAll(new RegExp(BASE64_RUN.source, 'g'))].map((m) => [m.index, m[0]]),
        );
      }),
      { numRuns: 300, seed: 15 },
    );
  });

  test("the report generator's shipped assets are known; a run's file of the same size is still read", async ({}, info) => {
    expect(shippedAssetDigests().size).toBeGreaterThan(0);
    const dir = info.outputPath('reports');
    mkdirSync(dir, { recursive: true });
    // 64 KiB and more are hashed first: a large file holding a JWT is still found.
    writeFileSync(join(dir, 'app-big.js'), 'x'.repeat(70 * 1024) + JWT);
    expect(scanForSecrets([dir], []).map((h) => h.kind)).toEqual(['a JWT-shaped string']);
  });
});
