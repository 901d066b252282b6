// Deduplication by change ID in the sandbox: Canton's 409 body, the userId a token gives, the period, and the
// memory bounds of the dedup and contract stores. What makes a change ID (actAs order, submissionId, readAs and
// workflowId left out; another commandId, userId or actAs a new change), that a rejected submission does not
// count, that a period expires and that concurrent copies yield one acceptance are the SUB-DEDUP- rules,
// judged on the clean sandbox by the fault run (selftest/mutation/mutation.test.ts), and the soak's
// (selftest/sandbox/soak.test.ts).
import { expect, test } from '../support/test';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { changeKey, DedupStore, type Acceptance } from '../../sandbox/ledger/dedup';
import {
  accepted,
  ALICE,
  BOB,
  createAsset,
  created,
  exercise,
  invalidField,
  rejected,
  request,
  sandbox,
  withSandbox,
  submit,
} from './submit-kit';

let app: FastifyInstance;
test.beforeAll(async () => {
  app = await sandbox();
});
test.afterAll(async () => {
  await app.close();
});

const DUPLICATE = { status: 409, code: 'DUPLICATE_COMMAND', category: 10, grpc: 6 };
const duplicate = (res: LightMyRequestResponse) => rejected(res, DUPLICATE);
const period = (seconds: number, nanos = 0) => ({
  deduplicationPeriod: { DeduplicationDuration: { value: { seconds, nanos } } },
});

test.describe('submit dedup: the same change ID', () => {
  test('a second submission is DUPLICATE_COMMAND (409) carrying the first completion offset', async () => {
    const body = request({ submissionId: 'first-submission' });
    const first = accepted(await submit(app, body));
    const err = duplicate(await submit(app, { ...body, submissionId: 'second-submission' }));
    expect(err.cause).toBe('Command submission already exists.');
    expect(err.definiteAnswer).toBeNull(); // decoded from the gRPC status; the context says "true"
    expect(err.retryInfo).toBeNull();
    expect(err.context).toMatchObject({
      completion_offset: String(first.offset),
      accepted: 'true',
      definite_answer: 'true',
      category: '10',
      existingSubmissionId: 'Some(first-submission)',
      changeId: `ChangeId(conformance,${body.commandId as string},Set(${ALICE}))`,
    });
  });

  test('a userId taken from the token, then the same userId explicitly: duplicate', async () => {
    const body = request();
    accepted(await submit(app, body));
    duplicate(await submit(app, { ...body, userId: 'conformance' }));
  });
});

test.describe('submit dedup: the period', () => {
  test('the period belongs to the new request: a short one ignores an older acceptance, the default max sees it', async () => {
    const body = request();
    accepted(await submit(app, body));
    await new Promise((r) => setTimeout(r, 20));
    accepted(await submit(app, { ...body, ...period(0, 5_000_000) })); // 5 ms: the first is older
    duplicate(await submit(app, body)); // no period: the configured maximum (7 days)
    duplicate(await submit(app, { ...body, ...period(8 * 24 * 3600) })); // above the max: not rejected up front
  });

  test('a zero period never deduplicates', async () => {
    const body = request(period(0));
    accepted(await submit(app, body));
    accepted(await submit(app, body));
  });

  test('DeduplicationOffset: duplicates are acceptances after the given offset', async () => {
    const body = request();
    const first = accepted(await submit(app, body));
    duplicate(
      await submit(app, {
        ...body,
        deduplicationPeriod: { DeduplicationOffset: { value: first.offset - 1 } },
      }),
    );
    const again = accepted(
      await submit(app, { ...body, deduplicationPeriod: { DeduplicationOffset: { value: first.offset } } }),
    );
    duplicate(
      await submit(app, { ...body, deduplicationPeriod: { DeduplicationOffset: { value: first.offset } } }),
    );
    expect(again.offset).toBeGreaterThan(first.offset);
    accepted(await submit(app, { ...request(), deduplicationPeriod: { Empty: {} } }));
  });

  test('a negative duration is INVALID_FIELD deduplication_period; a negative offset NEGATIVE_OFFSET', async () => {
    for (const p of [period(-1), period(0, -1), period(-5, 999_999_999)]) {
      rejected(
        await submit(app, request(p)),
        invalidField('deduplication_period', 'Invalid field deduplication_period: Duration must be positive'),
      );
    }
    accepted(await submit(app, request(period(1, -1)))); // 0.999999999 s is positive
    rejected(await submit(app, request({ deduplicationPeriod: { DeduplicationOffset: { value: -1 } } })), {
      status: 400,
      code: 'NEGATIVE_OFFSET',
      category: 8,
      grpc: 3,
    });
  });
});

test.describe('submit dedup: bounded memory', () => {
  const entry = (key: string, offset: number, acceptedAt: number): Acceptance => ({
    key,
    offset,
    submissionId: `s${offset}`,
    acceptedAt,
  });

  test('expired entries are forgotten as time passes (time-ordered eviction, no scan)', () => {
    const store = new DedupStore(1_000_000, 1_000);
    for (let i = 1; i <= 100; i++) store.record(entry(`k${i}`, i, i * 1_000));
    expect(store.size).toBe(100);
    expect(store.check('k1', { kind: 'duration', micros: 1_000_000 }, 500_000).kind).toBe('duplicate');
    expect(store.check('k1', { kind: 'duration', micros: 1_000_000 }, 1_050_500).kind).toBe('new');
    expect(store.size).toBe(50);
    expect(store.check('zz', { kind: 'duration', micros: 1_000_000 }, 10_000_000).kind).toBe('new');
    expect(store.size).toBe(0);
  });

  test('a period longer than the retention, reaching behind expired entries, is refused, never let through', () => {
    const store = new DedupStore(1_000, 100);
    for (let i = 1; i <= 5; i++) store.record(entry(`k${i}`, i, i * 100));
    expect(store.check('k9', { kind: 'duration', micros: 1_000 }, 1_350).kind).toBe('new'); // expires k1..k3
    expect(store.size).toBe(2);
    expect(store.check('k1', { kind: 'duration', micros: 5_000 }, 1_350)).toEqual({
      kind: 'too-early',
      earliestOffset: 4,
    });
    expect(store.check('k1', { kind: 'offset', offset: 1 }, 1_350)).toEqual({
      kind: 'too-early',
      earliestOffset: 4,
    });
    expect(store.check('k1', { kind: 'offset', offset: 3 }, 1_350).kind).toBe('new');
    expect(store.check('k4', { kind: 'duration', micros: 5_000 }, 1_350).kind).toBe('duplicate');
  });

  test('a re-accepted change ID supersedes its older entry', () => {
    const store = new DedupStore(1_000, 100);
    store.record(entry('k', 1, 0));
    store.record(entry('k', 2, 900));
    expect(store.size).toBe(1);
    const seen = store.check('k', { kind: 'duration', micros: 1_000 }, 1_200);
    expect(seen.kind === 'duplicate' && seen.earlier.offset).toBe(2);
  });

  test('change keys: actAs is a set (order-free), the parts cannot run together', () => {
    expect(changeKey('u', 'c', [ALICE, BOB])).toBe(changeKey('u', 'c', [BOB, ALICE]));
    expect(changeKey('u', 'c', [ALICE])).not.toBe(changeKey('u', 'c', [ALICE, BOB]));
    expect(changeKey('ab', 'c', [ALICE])).not.toBe(changeKey('a', 'bc', [ALICE]));
  });

  test('through the route: a period reaching behind expired entries is INVALID_DEDUPLICATION_PERIOD', async () => {
    await withSandbox({ SANDBOX_MAX_DEDUP_SECONDS: '1' }, async (short) => {
      const first = accepted(await submit(short, request()));
      await new Promise((r) => setTimeout(r, 1_100));
      accepted(await submit(short, request())); // expires the first acceptance
      rejected(await submit(short, request(period(60))), {
        status: 400,
        code: 'INVALID_DEDUPLICATION_PERIOD',
        category: 9,
        grpc: 9,
        context: { earliest_offset: String(first.offset + 1), definite_answer: 'true' },
      });
      accepted(await submit(short, request(period(1))));
    });
  });

  test('through the route: SANDBOX_MAX_DEDUP_ENTRIES bounds the entries kept', async () => {
    await withSandbox({ SANDBOX_MAX_DEDUP_ENTRIES: '3' }, async (small) => {
      const bodies = Array.from({ length: 5 }, () => request());
      for (const b of bodies) accepted(await submit(small, b));
      for (const b of bodies.slice(2)) duplicate(await submit(small, b));
      accepted(await submit(small, bodies[0])); // dropped by the bound (README: the guarantee's limit)
    });
  });

  test('beyond SANDBOX_MAX_CONTRACTS the oldest active contracts are forgotten (CONTRACT_NOT_FOUND)', async () => {
    await withSandbox({ SANDBOX_MAX_CONTRACTS: '2' }, async (small) => {
      const ids: string[] = [];
      for (let i = 0; i < 3; i++)
        ids.push(
          created(accepted(await submit(small, request({ commands: [createAsset()] }))), 0)
            .contractId as string,
        );
      rejected(await submit(small, request({ commands: [exercise(ids[0]!, 'Inspect')] })), {
        status: 404,
        code: 'CONTRACT_NOT_FOUND',
        category: 11,
        grpc: 5,
      });
      accepted(await submit(small, request({ commands: [exercise(ids[2]!, 'Inspect')] })));
    });
  });
});
