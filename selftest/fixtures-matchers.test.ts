// The matchers pass what conforms and fail what does not, each with a message that says which field and why:
// toBeCantonError checks every field on its own and the HTTP status against grpcCodeValue; toHaveStatus
// prints the body; toMatchSchema names the failing path and keyword.
import { test, expect } from '@playwright/test';
import type { Exchange } from '../core/evidence';
import type { LedgerResponse } from '../core/ledger-client';
import { expect as harness } from '../fixtures/matchers';

function response(status: number, body: unknown, contentType = 'application/json'): LedgerResponse {
  const text = typeof body === 'string' ? body : JSON.stringify(body);
  const exchange = {
    method: 'POST',
    url: 'http://127.0.0.1:1/v2/commands/submit-and-wait-for-transaction-tree',
  } as Exchange;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return {
    status,
    headers: { 'content-type': contentType },
    contentType,
    text,
    json,
    body: json,
    durationMs: 1,
    exchange,
  };
}

const duplicate = {
  code: 'DUPLICATE_COMMAND',
  cause: 'A command with the given command id has already been successfully processed',
  correlationId: null,
  traceId: null,
  context: { completion_offset: '12', category: '10' },
  resources: [],
  errorCategory: 10,
  grpcCodeValue: 6,
  retryInfo: null,
  definiteAnswer: null,
};

function messageOf(check: () => void): string {
  try {
    check();
  } catch (e) {
    return (e as Error).message;
  }
  throw new Error('expected the matcher to fail');
}

test('toBeCantonError passes a conforming error', () => {
  harness(response(409, duplicate)).toBeCantonError({
    status: 409,
    code: 'DUPLICATE_COMMAND',
    grpcCodeValue: 6,
    errorCategory: 10,
    context: { completion_offset: /^\d+$/ },
  });
});

test('toBeCantonError lists every mismatching field separately', () => {
  const m = messageOf(() =>
    harness(response(409, duplicate)).toBeCantonError({
      of: 'a command with an empty commandId',
      status: 400,
      code: 'MISSING_FIELD',
      grpcCodeValue: 3,
      errorCategory: 8,
    }),
  );
  expect(m).toContain(
    'expected a rejection of a command with an empty commandId {status 400, code "MISSING_FIELD"',
  );
  expect(m).toContain('got 409 {"code":"DUPLICATE_COMMAND"');
  for (const field of [
    'status: expected 400, got 409',
    'code: expected "MISSING_FIELD"',
    'grpcCodeValue: expected 3, got 6',
    'errorCategory: expected 8, got 10',
  ]) {
    expect(m).toContain(field);
  }
});

test('toBeCantonError fails when the HTTP status disagrees with grpcCodeValue, even unasked', () => {
  const m = messageOf(() => harness(response(400, duplicate)).toBeCantonError({ code: 'DUPLICATE_COMMAND' }));
  expect(m).toContain('status 400 disagrees with grpcCodeValue 6 (Canton answers 409)');
});

test('toBeCantonError fails on a success, a text body and a non-JsCantonError body', () => {
  expect(messageOf(() => harness(response(200, { transactionTree: {} })).toBeCantonError())).toContain(
    '200 is not an error status',
  );
  const text = messageOf(() =>
    harness(response(400, 'Invalid value for: body', 'text/plain')).toBeCantonError(),
  );
  expect(text).toContain('content-type: expected application/json, got "text/plain"');
  expect(text).toContain('body: not a JSON object');
  expect(messageOf(() => harness(response(500, { message: 'boom' })).toBeCantonError())).toMatch(
    /body: not a JsCantonError\n\s+at \(root\): required/,
  );
});

test('toHaveStatus prints the method, path and body on mismatch', () => {
  harness(response(200, {})).toHaveStatus(200);
  harness(response(409, duplicate)).toHaveStatus([400, 409]);
  const m = messageOf(() => harness(response(409, duplicate)).toHaveStatus(200));
  expect(m).toContain(
    'POST /v2/commands/submit-and-wait-for-transaction-tree: expected HTTP 200, got 409 {"code":"DUPLICATE_COMMAND"',
  );
});

test('toMatchSchema names the failing path and keyword', () => {
  const features = {
    experimental: { staticTime: { supported: false }, commandInspectionService: { supported: true } },
    userManagement: { supported: true, maxRightsPerUser: 1000, maxUsersPageSize: 1000 },
    partyManagement: { maxPartiesPageSize: 10000 },
    offsetCheckpoint: {
      maxOffsetCheckpointEmissionDelay: { seconds: 75, nanos: 0, unknownFields: { fields: {} } },
    },
    packageFeature: { maxVettedPackagesPageSize: 100 },
  };
  harness({ version: '3.4.11', features }).toMatchSchema('version-response');
  const m = messageOf(() => harness({ version: 3 }).toMatchSchema('version-response'));
  expect(m).toMatch(/expected a value matching schema version-response, got \d+ violation/);
  expect(m).toContain('at /version: type');
  expect(m).toContain("at (root): required — must have required property 'features'");
});

test('toBeNo5xx passes any answer below 500 and prints a server error with its body', () => {
  harness(response(409, duplicate)).toBeNo5xx('a duplicate');
  harness(response(413, 'too large', 'text/plain')).toBeNo5xx('a body of 11 MiB');
  const m = messageOf(() => harness(response(500, { message: 'boom' })).toBeNo5xx('submit — body of 9 MiB'));
  expect(m).toContain('expected no 5xx for submit — body of 9 MiB, got 500 {"message":"boom"}');
});
