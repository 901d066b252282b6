// Ledger time bounds (minLedgerTimeAbs / minLedgerTimeRel) and tapsMaxPasses, both ways, in both modes.
import { expect, test } from '../support/test';
import type { FastifyInstance } from 'fastify';
import { formatMicros, parseInstantMicros } from '../../sandbox/ledger/time';
import {
  accepted,
  created,
  decodeFailed,
  INSTANT,
  invalidArgument,
  micros,
  rejected,
  request,
  sandbox,
  withSandbox,
  submit,
  TAPS_RELEASE,
} from './submit-kit';

let app: FastifyInstance;
let tapsApp: FastifyInstance; // 3.4.12: the first release with tapsMaxPasses
test.beforeAll(async () => {
  app = await sandbox();
  tapsApp = await sandbox(TAPS_RELEASE);
});
test.afterAll(async () => {
  await app.close();
  await tapsApp.close();
});

const nowMicros = (): number => Date.now() * 1000;

test.describe('submit: minimum ledger time', () => {
  test('minLedgerTimeAbs in the future: the effective time is exactly the bound', async () => {
    const bound = '2099-06-01T12:00:00.250Z';
    const tree = accepted(await submit(app, request({ minLedgerTimeAbs: bound })));
    expect(tree.effectiveAt).toBe(bound);
    expect(created(tree, 0).createdAt).toBe(bound);
  });

  test('minLedgerTimeAbs in the past: the effective time is the current time, still ≥ the bound', async () => {
    const before = nowMicros();
    const tree = accepted(await submit(app, request({ minLedgerTimeAbs: '2001-01-01T00:00:00Z' })));
    expect(micros(tree.effectiveAt)).toBeGreaterThanOrEqual(before - 1000);
  });

  test('sub-microsecond bounds and offsets: the effective time never undershoots the bound', async () => {
    const tree = accepted(await submit(app, request({ minLedgerTimeAbs: '2099-01-01T00:00:00.123456789Z' })));
    expect(tree.effectiveAt).toBe('2099-01-01T00:00:00.123457Z');
    const offset = accepted(await submit(app, request({ minLedgerTimeAbs: '2099-01-01T02:00:00+02:00' })));
    expect(offset.effectiveAt).toBe('2099-01-01T00:00:00Z');
  });

  test('minLedgerTimeRel: the effective time is at least the receive time plus the duration', async () => {
    const before = nowMicros();
    const tree = accepted(
      await submit(app, request({ minLedgerTimeRel: { seconds: 3600, nanos: 500_000_000 } })),
    );
    const after = nowMicros();
    const effective = micros(tree.effectiveAt);
    expect(effective).toBeGreaterThanOrEqual(before + 3_600_500_000 - 1000);
    expect(effective).toBeLessThanOrEqual(after + 3_600_500_000 + 1000);
    expect(tree.effectiveAt).toMatch(INSTANT);
  });

  test('a bound beyond the Daml timestamp range is INVALID_ARGUMENT; an unparsable one fails decoding', async () => {
    rejected(
      await submit(app, request({ minLedgerTimeAbs: '+10000-01-01T00:00:00Z' })),
      invalidArgument('Can not represent command ledger time +10000-01-01T00:00:00Z as a Daml timestamp'),
    );
    rejected(
      await submit(app, request({ minLedgerTimeRel: { seconds: 400_000_000_000, nanos: 0 } })),
      invalidArgument('as a Daml timestamp'),
    );
    for (const bad of [
      '2099-13-01T00:00:00Z',
      '2099-02-30T00:00:00Z',
      '2099-01-01',
      'now',
      '2099-01-01T00:00:00',
    ]) {
      decodeFailed(await submit(app, request({ minLedgerTimeAbs: bad })), "at 'minLedgerTimeAbs'");
    }
  });

  test('Instant.toString: 0, 3 or 6 fraction digits, the shortest exact', () => {
    expect(formatMicros(0)).toBe('1970-01-01T00:00:00Z');
    expect(formatMicros(1_737_991_836_430_000)).toBe('2025-01-27T15:30:36.430Z');
    expect(formatMicros(1_737_991_836_430_940)).toBe('2025-01-27T15:30:36.430940Z');
    expect(formatMicros(1_737_991_836_000_001)).toBe('2025-01-27T15:30:36.000001Z');
    expect(formatMicros(-1)).toBe('1969-12-31T23:59:59.999999Z');
    expect(parseInstantMicros('2025-01-27T15:30:36.43094Z')).toBe(1_737_991_836_430_940);
    expect(parseInstantMicros('2025-01-27t15:30z')).toBe(1_737_991_800_000_000);
  });
});

test.describe('submit: tapsMaxPasses', () => {
  test('1 up to the configured limit is accepted', async () => {
    for (const taps of [1, 2, 3, 4]) accepted(await submit(tapsApp, request({ tapsMaxPasses: taps })));
  });

  test('above the limit: clamped and accepted in canton mode (Canton’s deviation), rejected in strict-interface mode', async () => {
    accepted(await submit(tapsApp, request({ tapsMaxPasses: 5 })));
    accepted(await submit(tapsApp, request({ tapsMaxPasses: 2147483647 })));
    // The document's rule holds in strict-interface mode whatever the release.
    await withSandbox(
      { SANDBOX_MODE: 'strict-interface', SANDBOX_TAPS_MAX_PASSES_LIMIT: '6' },
      async (strict) => {
        accepted(await submit(strict, request({ tapsMaxPasses: 6 })));
        const body = rejected(await submit(strict, request({ tapsMaxPasses: 7 })), invalidArgument());
        expect(body.cause).toBe(
          'The submitted request has invalid arguments: taps_max_passes must not exceed the participant-configured limit of 6, but got 7.',
        );
        rejected(await submit(strict, request({ tapsMaxPasses: 0 })), invalidArgument('strictly positive'));
      },
    );
  });

  test('before 3.4.12 the field is unknown to Canton: ignored whatever its value', async () => {
    for (const value of [0, -1, 99, 'many', 1.5, null]) {
      accepted(await submit(app, request({ tapsMaxPasses: value })));
    }
    await withSandbox({ SANDBOX_VERSION: '3.4.12-SNAPSHOT' }, async (snapshot) => {
      rejected(await submit(snapshot, request({ tapsMaxPasses: 0 })), invalidArgument('strictly positive'));
    });
  });
});
