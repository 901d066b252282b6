// Bad input of any kind is a 4xx, never a crash or a 5xx; nothing accepted is lost under concurrency.
// Property tests (fast-check, fixed seed) throw random JSON at every field of a valid request.
import { expect, test } from '../support/test';
import fc from 'fast-check';
import { binaryUnit } from '../support/binary-unit';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { accepted, ALICE, request, sandbox, submit, userToken, PATH } from './submit-kit';
import submitRequestSchema from '../../schemas/submit-request.json';
import { claim } from '../support/claim';

let app: FastifyInstance;
let token: string;
test.beforeAll(async () => {
  app = await sandbox();
  token = await userToken();
});
test.afterAll(async () => {
  await app.close();
});

/** A 200, a JsCantonError with a 4xx, or tapir's 400 text/plain — nothing else. */
function wellFormed(res: LightMyRequestResponse, sent: unknown): void {
  const what = `${res.statusCode} ${res.body.slice(0, 300)} for ${JSON.stringify(sent)?.slice(0, 300)}`;
  claim(res.statusCode, what).toBeLessThan(500);
  if (res.statusCode === 200) return;
  claim(res.statusCode, what).toBeGreaterThanOrEqual(400);
  if (String(res.headers['content-type']).startsWith('text/plain')) {
    claim(res.body, what).toMatch(/^Invalid value for: /);
    return;
  }
  const body = JSON.parse(res.body) as { code: unknown; grpcCodeValue: unknown };
  claim(typeof body.code, what).toBe('string');
  claim(typeof body.grpcCodeValue, what).toBe('number');
}

const FIELDS = Object.keys(submitRequestSchema.properties);
const COMMAND_FIELDS = ['templateId', 'createArguments', 'choice', 'choiceArgument'];
const ARG_FIELDS = ['issuer', 'owner', 'amount', 'label'];

/**
 * Strings that stress the grammars and the number and time parsers. Made when a test asks, not when the file
 * loads: Playwright's runner loads every spec file only to list its tests.
 */
const oddString = () =>
  fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.string({ unit: binaryUnit, maxLength: 40 }),
    fc.constantFrom(
      '',
      ' ',
      '::',
      '#',
      '#:a:b',
      'a:b:c',
      '1e400',
      '-0',
      'NaN',
      '9'.repeat(400),
      '\u0000',
      '\ud800',
      '2099-02-29T00:00:00Z',
      '+275761-01-01T00:00:00Z',
    ),
  );
const oddValue = () =>
  fc.oneof(
    fc.jsonValue({ maxDepth: 3 }),
    oddString(),
    fc.constantFrom(null, true, 0, -1, 1.5, 2 ** 31, -(2 ** 63), 1e308, [], {}, [[[[[]]]]]),
  );

test.describe('submit robustness: never a 5xx', () => {
  test('any JSON value as the whole body', async () => {
    await fc.assert(
      fc.asyncProperty(fc.jsonValue({ maxDepth: 4 }), async (body) => {
        wellFormed(await submit(app, body, { token }), body);
      }),
      { numRuns: 150, seed: 42 },
    );
  });

  test('one top-level field replaced by an odd value', async () => {
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...FIELDS), oddValue(), async (field, value) => {
        const body = { ...request(), [field]: value };
        wellFormed(await submit(app, body, { token }), body);
      }),
      { numRuns: 400, seed: 7 },
    );
  });

  test('one field of the command, or of its arguments, replaced by an odd value', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.constantFrom(...COMMAND_FIELDS, ...ARG_FIELDS),
        oddValue(),
        async (variant, field, value) => {
          const body = request();
          const cmd = (body.commands as Record<string, Record<string, unknown>>[])[0]!
            .CreateAndExerciseCommand!;
          if (ARG_FIELDS.includes(field)) (cmd.createArguments as Record<string, unknown>)[field] = value;
          else cmd[field] = value;
          if (variant)
            body.commands = [
              { ExerciseCommand: { ...cmd, contractId: typeof value === 'string' ? value : '00' } },
            ];
          wellFormed(await submit(app, body, { token }), body);
        },
      ),
      { numRuns: 400, seed: 11 },
    );
  });

  test('odd values inside the nested structures (dedup period, durations, disclosed contracts, keys)', async () => {
    await fc.assert(
      fc.asyncProperty(oddValue(), oddValue(), async (a, b) => {
        for (const extra of [
          { deduplicationPeriod: { DeduplicationDuration: { value: { seconds: a, nanos: b } } } },
          { deduplicationPeriod: { DeduplicationOffset: { value: a } } },
          { minLedgerTimeRel: { seconds: a, nanos: b } },
          { disclosedContracts: [{ createdEventBlob: a, templateId: b }] },
          { prefetchContractKeys: [{ templateId: a, contractKey: b }] },
          { actAs: [ALICE, a], readAs: [b] },
        ]) {
          const body = { ...request(), ...extra };
          wellFormed(await submit(app, body, { token }), body);
        }
      }),
      { numRuns: 150, seed: 3 },
    );
  });

  test('raw bodies that are not JSON, huge or deeply nested values, odd headers', async () => {
    const raws = [
      '',
      ' ',
      '{',
      'null',
      '[]',
      '"x"',
      '{"commands": [}',
      '\u0000',
      'x'.repeat(100_000),
      `{"commandId": "${'a'.repeat(1_000_000)}"}`,
    ];
    for (const raw of raws) wellFormed(await submit(app, raw, { token }), raw);
    const deep = `${'['.repeat(100_000)}${']'.repeat(100_000)}`;
    wellFormed(
      await submit(
        app,
        `{"commands": [{"CreateCommand": {"templateId": "#conformance-sandbox:Conformance:Asset", "createArguments": ${deep}}}], "commandId": "d", "actAs": ["${ALICE}"]}`,
        { token },
      ),
      'deep',
    );
    // Too deep for JSON.stringify: the sandbox must still print it safely in its error message.
    const args = `{"issuer": "${ALICE}", "owner": "${ALICE}", "amount": "1", "label": ${deep}}`;
    const deepLabel = `{"commands": [{"CreateCommand": {"templateId": "#conformance-sandbox:Conformance:Asset", "createArguments": ${args}}}], "commandId": "d2", "actAs": ["${ALICE}"]}`;
    wellFormed(await submit(app, deepLabel, { token }), 'deep label');
    const odd: Record<string, string>[] = [
      { traceparent: 'x'.repeat(10_000) },
      { 'content-type': 'text/plain' },
      { 'content-type': 'application/xml' },
    ];
    for (const headers of odd) {
      wellFormed(await submit(app, request(), { token, headers }), headers);
    }
  });
});

test.describe('submit robustness: nothing accepted is lost', () => {
  test('200 concurrent distinct submissions are all accepted with distinct, contiguous offsets', async () => {
    const results = await Promise.all(Array.from({ length: 200 }, () => submit(app, request(), { token })));
    const offsets = results.map((r) => accepted(r).offset).sort((a, b) => a - b);
    expect(new Set(offsets).size).toBe(200);
    expect(offsets[199]! - offsets[0]!).toBe(199);
    const updateIds = new Set(results.map((r) => accepted(r).updateId));
    expect(updateIds.size).toBe(200);
  });

  test('the route answers only POST', async () => {
    const res = await app.inject({ method: 'GET', url: PATH });
    expect(res.statusCode).toBeGreaterThanOrEqual(400);
    expect(res.statusCode).toBeLessThan(500);
  });
});
