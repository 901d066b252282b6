// Transient answers (core/retry.ts): which answers are asked again — Canton's retryable categories, a gateway's
// 502/503/504, a 429, a connection refused or reset — and which never are (a 4xx verdict, a 500, a duplicate);
// how the ledger client asks again (the same bytes, each try in the evidence, counted, within the budget), and
// when a retried submission's duplicate leaves the rule inconclusive. Against a participant scripted here.
import Fastify, { type FastifyInstance } from 'fastify';
import { expect, test } from '../support/test';
import { Evidence } from '../../core/evidence';
import { Transport, type HttpResponse } from '../../core/http';
import { LedgerClient, type ClientRetry } from '../../core/ledger-client';
import { retryInfoMs, transientAnswer, RETRY, type Retried } from '../../core/retry';
import { tallyOf, tallyWords } from '../../core/transient-tally';
import { PATHS } from '../../core/api-paths';
import type { SubmitRequest } from '../../core/api-types';
import { INCONCLUSIVE } from '../../core/verdict-marks';
import { listen, rejectionOf, settingsFor } from '../support/harness-kit';
import { Client, PreflightError } from '../../scripts/preflight/client';
import { checkPartyRights } from '../../scripts/preflight/rights';
import { resolveIdentity } from '../../scripts/preflight/identity';
import { EXIT } from '../../core/exit-codes';

/** Canton's JsCantonError for a category (base-errors/ErrorCategory.scala), with a short retryInfo. */
const canton = (code: string, category: number, grpc: number, retryInfo: string | null = '10 milliseconds') =>
  JSON.stringify({
    code,
    cause: 'scripted',
    correlationId: null,
    traceId: null,
    context: {},
    resources: [],
    errorCategory: category,
    grpcCodeValue: grpc,
    retryInfo,
    definiteAnswer: null,
  });

const answer = (status: number, text: string, headers: Record<string, string> = {}): HttpResponse => ({
  status,
  headers,
  text,
});

test('Canton’s retryable categories and a gateway’s answers are transient; verdicts never are', () => {
  const cases: [string, HttpResponse, string | undefined][] = [
    ['TransientServerFailure', answer(503, canton('SERVICE_NOT_RUNNING', 1, 14)), '503 SERVICE_NOT_RUNNING'],
    [
      'DeadlineExceeded',
      answer(504, canton('REQUEST_DEADLINE_EXCEEDED', 3, 4)),
      '504 REQUEST_DEADLINE_EXCEEDED',
    ],
    [
      'ContentionOnSharedResources',
      answer(409, canton('PARTICIPANT_BACKPRESSURE', 2, 10)),
      '409 PARTICIPANT_BACKPRESSURE',
    ],
    ["a gateway's 502", answer(502, '<html>Bad Gateway</html>'), '502'],
    ['a 429', answer(429, '', { 'retry-after': '2' }), '429'],
    ['a duplicate (ALREADY_EXISTS)', answer(409, canton('DUPLICATE_COMMAND', 10, 6, null)), undefined],
    ['its own submission in flight', answer(409, canton('SUBMISSION_ALREADY_IN_FLIGHT', 2, 10)), undefined],
    ['a 409 without a category', answer(409, '{}'), undefined],
    ['a 500', answer(500, canton('NA', -1, 13, null)), undefined],
    ['a 501', answer(501, canton('NA', -1, 12, null)), undefined],
    [
      'a 400 that carries a retryInfo (SeekAfterEnd)',
      answer(400, canton('OFFSET_AFTER_LEDGER_END', 12, 11)),
      undefined,
    ],
    ['a 404', answer(404, '{}'), undefined],
  ];
  for (const [what, res, expected] of cases) expect(transientAnswer(res)?.what, what).toBe(expected);
  expect(transientAnswer(answer(429, '', { 'retry-after': '2' }))?.askedMs).toBe(2000);
  expect(transientAnswer(answer(409, canton('PARTICIPANT_BACKPRESSURE', 2, 10)))?.mayHaveRun).toBe(false);
  expect(transientAnswer(answer(503, canton('SERVICE_NOT_RUNNING', 1, 14)))?.mayHaveRun).toBe(true);
});

test('retryInfo as Canton prints it (Scala’s Duration.toString) is the wait asked for', () => {
  expect(retryInfoMs('1 second')).toBe(1000);
  expect(retryInfoMs('5 seconds')).toBe(5000);
  expect(retryInfoMs('100 milliseconds')).toBe(100);
  expect(retryInfoMs('1 minute')).toBe(60_000);
  expect(retryInfoMs('soon')).toBeUndefined();
  expect(retryInfoMs(null)).toBeUndefined();
});

test('the tally adds the checks before the tests to the tests’ notes, per operation', () => {
  const tally = tallyOf(['POST /v2/x: 503 A', 'POST /v2/x: 503 A', 'GET /v2/version: 409 B'], {
    'GET /v2/version': { '409 B': 1 },
  });
  expect(tallyWords(tally)).toBe('4 (GET /v2/version: 409 B ×2; POST /v2/x: 503 A ×2)');
  expect(tallyWords({})).toBe('none');
});

test.describe('the ledger client against a participant answering as scripted', () => {
  let app: FastifyInstance;
  let url: string;
  /** The answers still to give, in order; then 200 {}. */
  let script: { status: number; body: string }[] = [];
  const bodies: string[] = [];
  const transport = new Transport(5_000);

  test.beforeAll(async () => {
    app = Fastify();
    app.removeAllContentTypeParsers();
    app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));
    app.all('/*', async (req, reply) => {
      bodies.push(typeof req.body === 'string' ? req.body : '');
      const next = script.shift() ?? { status: 200, body: '{}' };
      return reply.code(next.status).type('application/json').send(next.body);
    });
    url = await listen(app);
  });
  test.afterAll(async () => {
    await transport.close();
    await app.close();
  });
  test.beforeEach(() => {
    script = [];
    bodies.length = 0;
  });

  /** A ledger client of the scripted participant (or of `at`), its retries recorded in `retried`. */
  function client(evidence: Evidence, retried: string[], leftMs?: () => number, at = url) {
    const retry: ClientRetry = {
      policy: { retries: RETRY.retries, maxDelayMs: RETRY.maxDelayMs, leftMs, reserveMs: 0 },
      onRetry: (op: string, r: Retried) => retried.push(`${op}: ${r.transient.what}`),
    };
    return new LedgerClient(
      transport,
      at,
      () => Promise.resolve(undefined),
      evidence,
      (_n, b) => b(),
      undefined,
      undefined,
      retry,
    );
  }

  const failure = (p: Promise<unknown>) => rejectionOf<Error>(p).then((e) => e?.message);

  test('a transient answer is asked again with the same bytes; the transcript shows each try, the run counts it', async () => {
    const busy = canton('INDEX_DB_SQL_TRANSIENT_ERROR', 1, 14);
    script = [
      { status: 503, body: busy },
      { status: 409, body: canton('PARTICIPANT_BACKPRESSURE', 2, 10) },
    ];
    const evidence = new Evidence();
    const retried: string[] = [];
    const res = await client(evidence, retried).listVettedPackages({ pageSize: 3 });
    expect(res.status).toBe(200);
    expect(bodies).toEqual(Array(3).fill('{"pageSize":3}'));
    expect(evidence.exchanges.map((x) => x.status)).toEqual([503, 409, 200]);
    expect(evidence.exchanges[0]!.retried).toMatch(
      /^transient \(503 INDEX_DB_SQL_TRANSIENT_ERROR\): sent again after 10 ms$/,
    );
    expect(evidence.exchanges[2]!.retried).toBeUndefined();
    expect(evidence.transcript()).toContain(
      '→ transient (409 PARTICIPANT_BACKPRESSURE): sent again after 10 ms',
    );
    expect(retried).toEqual([
      `POST ${PATHS.vettingList}: 503 INDEX_DB_SQL_TRANSIENT_ERROR`,
      `POST ${PATHS.vettingList}: 409 PARTICIPANT_BACKPRESSURE`,
    ]);
    expect(res.exchange).toBe(evidence.exchanges[2]);
  });

  test('still transient after its retries: inconclusive with the last answer, never judged', async () => {
    script = Array.from({ length: RETRY.retries + 1 }, () => ({
      status: 503,
      body: canton('SERVICE_NOT_RUNNING', 1, 14),
    }));
    const evidence = new Evidence();
    const message = await failure(client(evidence, []).version());
    expect(message).toBe(
      `${INCONCLUSIVE} GET ${PATHS.version} answered 503: the target is busy or unavailable (still 503 SERVICE_NOT_RUNNING after ${RETRY.retries} retries)`,
    );
    expect(evidence.exchanges).toHaveLength(RETRY.retries + 1);
  });

  test('the rule’s time budget bounds the retries, and the verdict says so', async () => {
    script = [{ status: 503, body: canton('SERVICE_NOT_RUNNING', 1, 14, '1 second') }];
    const message = await failure(client(new Evidence(), [], () => 500).version());
    expect(message).toContain(
      "the rule's time budget left no room for another retry (after 0; it asked for 1000 ms)",
    );
  });

  test('a 500, a verdict 4xx and a duplicate are judged as they came, never asked again', async () => {
    for (const [status, body] of [
      [500, canton('NA', -1, 13, null)],
      [400, canton('INVALID_ARGUMENT', 8, 3, null)],
      [409, canton('DUPLICATE_COMMAND', 10, 6, null)],
      [409, canton('SUBMISSION_ALREADY_IN_FLIGHT', 2, 10)],
    ] as const) {
      script = [{ status, body }];
      bodies.length = 0;
      const retried: string[] = [];
      const res = await client(new Evidence(), retried).send({
        method: 'POST',
        path: PATHS.submitTree,
        body: {},
      });
      expect(res.status).toBe(status);
      expect(bodies, `${status} ${body}`).toHaveLength(1);
      expect(retried).toEqual([]);
    }
  });

  test('a retried submission answered as a duplicate of itself is inconclusive; of another submission, judged', async () => {
    const submission = {
      commandId: 'c-1',
      submissionId: 's-1',
      userId: 'u',
      actAs: ['A'],
      commands: [],
    } as unknown as SubmitRequest;
    const duplicate = (existing: string) =>
      JSON.stringify({
        ...JSON.parse(canton('DUPLICATE_COMMAND', 10, 6, null)),
        context: { existingSubmissionId: `Some(${existing})` },
      });
    const busy = { status: 503, body: canton('SERVICE_NOT_RUNNING', 1, 14) };
    script = [busy, { status: 409, body: duplicate('s-1') }];
    const own = await failure(client(new Evidence(), []).submitAndWaitForTransactionTree(submission));
    expect(own).toMatch(
      /^\[inconclusive\] POST \S+ answered 409 DUPLICATE_COMMAND after a retry: the duplicate may be of its own first try/,
    );

    script = [busy, { status: 409, body: duplicate('s-0') }];
    const other = await client(new Evidence(), []).submitAndWaitForTransactionTree(submission);
    expect(other.status).toBe(409);

    // Contention is refused before any work: the duplicate after it is the rule's answer.
    script = [
      { status: 409, body: canton('PARTICIPANT_BACKPRESSURE', 2, 10) },
      { status: 409, body: duplicate('s-1') },
    ];
    const contention = await client(new Evidence(), []).submitAndWaitForTransactionTree(submission);
    expect(contention.status).toBe(409);
  });

  test('a connection refused is asked again a few times, then no response: inconclusive', async () => {
    const closed = Fastify();
    const gone = await listen(closed);
    await closed.close();
    const evidence = new Evidence();
    const retried: string[] = [];
    const message = await failure(client(evidence, retried, undefined, gone).version());
    expect(message).toBe(
      `${INCONCLUSIVE} GET ${PATHS.version} got no response: the connection was refused (ECONNREFUSED) (still connection refused after ${RETRY.transportRetries} retries)`,
    );
    expect(evidence.exchanges).toHaveLength(RETRY.transportRetries + 1);
    expect(retried).toHaveLength(RETRY.transportRetries);
  });

  test('before the tests: a transient answer to the rights call is asked again; one that stays is the target down, never a setting', async () => {
    const s = settingsFor({ LEDGER_BASE_URL: url, LEDGER_AUTH: 'none' });
    const rights = JSON.stringify({
      rights: s.actAs.map((party) => ({ kind: { CanActAs: { value: { party } } } })),
    });
    const busy = { status: 503, body: canton('INDEX_DB_SQL_TRANSIENT_ERROR', 1, 14) };
    script = [busy, busy, { status: 200, body: rights }];
    const client = new Client(url, 1);
    try {
      await expect(
        checkPartyRights(client.fetcher(s), s, { actAs: true, readAs: false }),
      ).resolves.toBeDefined();
      expect(client.retried).toBe(2);
      script = Array.from({ length: RETRY.setupRetries + 1 }, () => busy);
      const e = await rejectionOf(checkPartyRights(client.fetcher(s), s));
      expect(e).toBeInstanceOf(PreflightError);
      expect((e as PreflightError).exitCode).toBe(EXIT.targetDown);
      expect((e as PreflightError).message).toBe(
        `the target stayed unavailable during the preflight: GET /v2/users/${s.user}/rights answered 503 INDEX_DB_SQL_TRANSIENT_ERROR on every try (${RETRY.setupRetries + 1})`,
      );
      expect((e as PreflightError).message).not.toContain('LEDGER_ACT_AS');
    } finally {
      await client.close();
    }
  });

  test('discovery: an answer still transient is the target down, not a setting to give instead', async () => {
    // The participant given: the calls after it go through discovery, which names a setting on a failure.
    const env = { LEDGER_BASE_URL: url, LEDGER_AUTH: 'none', LEDGER_PARTICIPANT_ID: 'p::1220ab' };
    const busy = { status: 503, body: canton('INDEX_DB_SQL_TRANSIENT_ERROR', 1, 14) };
    script = Array.from({ length: 20 }, () => busy);
    const e = await rejectionOf(resolveIdentity(settingsFor(env), url, env));
    expect(e).toBeInstanceOf(PreflightError);
    expect((e as PreflightError).exitCode).toBe(EXIT.targetDown);
    expect((e as PreflightError).message).toMatch(
      /^the target stayed unavailable during the preflight: (GET|POST) \S+ answered 503 INDEX_DB_SQL_TRANSIENT_ERROR on every try \(4\)$/,
    );
  });
});
