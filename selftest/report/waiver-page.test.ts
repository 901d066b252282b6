// A waived test's page in Allure says whose waiver it is, its owner, ticket and end date, and its reason: Allure
// shows no message for its status "unknown", so the report build puts them first in the test's description,
// the owner as Allure's `owner` label and a ticket that is an address as a link. Idempotent: the report build
// may run again. (The browser check of a known deviation's page: selftest/report/browser.test.ts.)
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { annotateResults, excuseHeading, type AllureResultFile } from '../../reporters/allure-results';
import { excuseOf, type ExpectationsInfo } from '../../reporters/expectations-status';
import { TEST_ID_LABEL } from '../../core/verdict-marks';
import { withTempDir } from '../support/temp-dir';

const INFO: ExpectationsInfo = {
  setting: 'auto,qa/waivers.json',
  layers: [{ name: 'qa/waivers.json', from: 'qa/waivers.json', entries: 1 }],
  entries: [
    {
      key: 'qa/waivers.json#1',
      layer: 'qa/waivers.json',
      rule: 'SUB-TRACEPARENT',
      reason: 'the mesh drops traceparent until the sidecar upgrade',
      owner: 'qa-payments',
      ticket: 'https://tickets.example.com/PAY-1234',
      until: '2099-12-31',
      applies: true,
      expired: false,
    },
  ],
};

test("a waiver's result: its team, owner, ticket and end date first in the description, the owner label, the link", async () => {
  const excuse = excuseOf('known-deviation', 'qa/waivers.json#1', INFO).excuse!;
  expect(excuseOf('fail', 'qa/waivers.json#1', INFO)).toEqual({});
  expect(excuseHeading(excuse)).toBe(
    '**Waived** by qa/waivers.json — owner qa-payments · ticket https://tickets.example.com/PAY-1234 · until 2099-12-31',
  );
  await withTempDir('waiver-page-', (dir) => {
    const file = join(dir, 'a-result.json');
    const result: AllureResultFile = {
      name: 'SUB-TRACEPARENT a traceparent header comes back in traceContext',
      status: 'passed',
      labels: [{ name: TEST_ID_LABEL, value: 't1' }],
      description: '**SUB-TRACEPARENT** — a traceparent header comes back in traceContext',
    };
    writeFileSync(file, JSON.stringify(result));
    const tests = [
      {
        id: 't1',
        verdict: 'known-deviation' as const,
        excusedBy: 'qa/waivers.json',
        reason: 'waived by qa/waivers.json: the mesh drops traceparent until the sidecar upgrade',
        excuse,
      },
    ];
    annotateResults(dir, tests);
    const once = readFileSync(file, 'utf8');
    annotateResults(dir, tests);
    expect(readFileSync(file, 'utf8'), 'idempotent').toBe(once);
    const annotated = JSON.parse(once) as AllureResultFile;
    expect(annotated.status).toBe('unknown');
    expect(annotated.description).toBe(
      `${excuseHeading(excuse)}\n\nwaived by qa/waivers.json: the mesh drops traceparent until the sidecar upgrade\n\n` +
        '**SUB-TRACEPARENT** — a traceparent header comes back in traceContext',
    );
    expect(annotated.labels).toContainEqual({ name: 'owner', value: 'qa-payments' });
    expect(annotated.links).toEqual([
      {
        name: 'https://tickets.example.com/PAY-1234',
        url: 'https://tickets.example.com/PAY-1234',
        type: 'issue',
      },
    ]);
  });
});
