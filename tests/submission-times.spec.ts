// Submitting a command: ledger time (minLedgerTimeAbs / minLedgerTimeRel, §2.1) and tapsMaxPasses (§2.1, §7, §8).
import {
  forRule,
  test,
  invalidRequest,
  expect,
  instantNanos,
  NANOS_PER_SECOND,
  submitAccepted,
  commandAcceptedWithItsTree,
} from '../fixtures';
import type { SubmitRequest } from '../fixtures';
import { skipWhereTreeRemoved, expectRejected, expectCode, type Rejection } from './submission.cases';

test.describe('POST /v2/commands/submit-and-wait-for-transaction-tree', () => {
  skipWhereTreeRemoved();

  // ─── Ledger time (§2.1 minLedgerTimeAbs / minLedgerTimeRel) ────────────────────────────────────────────────

  const bothTimes = (r: SubmitRequest) => ({
    ...r,
    minLedgerTimeAbs: new Date().toISOString(),
    minLedgerTimeRel: { seconds: 1, nanos: 0 },
  });

  const both: Rejection = {
    rule: 'SUB-MIN-LEDGER-TIME-BOTH',
    description: 'minLedgerTimeAbs together with minLedgerTimeRel',
    request: (commands) => bothTimes(commands.submitRequest()),
    code: invalidRequest('INVALID_ARGUMENT', 'minLedgerTimeAbs together with minLedgerTimeRel'),
  };
  test(...forRule(both.rule), ({ ledger, commands }) => expectRejected(both, ledger, commands));
  test(...forRule(`${both.rule}-CODE`), ({ ledger, commands }) => expectCode(both, ledger, commands));

  test(...forRule('SUB-MIN-LEDGER-TIME-ABS'), async ({ ledger, commands }) => {
    // A bound ahead of now: a participant that ignores it shows the time it received the command.
    const bound = new Date(Date.now() + 3_000).toISOString();
    const tree = await submitAccepted(
      ledger,
      commands.submitRequest({ minLedgerTimeAbs: bound }),
      'minLedgerTimeAbs alone',
    );
    const effective = instantNanos(tree.effectiveAt);
    expect(effective, `effectiveAt ${tree.effectiveAt} is a timestamp`).toBeDefined();
    expect(
      effective! >= instantNanos(bound)!,
      `effectiveAt ${tree.effectiveAt} ≥ minLedgerTimeAbs ${bound}`,
    ).toBe(true);
  });

  test(...forRule('SUB-MIN-LEDGER-TIME-REL'), async ({ ledger, commands }) => {
    // The participant's own clock, read from a first transaction: the second is received after it, so its
    // effective time is at least the first one's plus the duration (no clock skew between us and it).
    const before = await submitAccepted(ledger, commands.submitRequest(), 'a reference submission');
    const rel = { seconds: 2, nanos: 500_000_000 };
    const tree = await submitAccepted(
      ledger,
      commands.submitRequest({ minLedgerTimeRel: rel }),
      'minLedgerTimeRel alone',
    );
    const [t0, t1] = [instantNanos(before.effectiveAt), instantNanos(tree.effectiveAt)];
    expect(t0 !== undefined && t1 !== undefined, 'both effectiveAt are timestamps').toBe(true);
    const lower = t0! + BigInt(rel.seconds) * NANOS_PER_SECOND + BigInt(rel.nanos);
    expect(
      t1! >= lower,
      `effectiveAt ${tree.effectiveAt} ≥ an earlier transaction's ${before.effectiveAt} + 2.5 s (minLedgerTimeRel)`,
    ).toBe(true);
  });

  // ─── tapsMaxPasses (§2.1, §7, §8) ─────────────────────────────────────────────────────────────────────────

  test(...forRule('SUB-TAPS-WITHIN-LIMIT'), async ({ ledger, commands, settings }) => {
    const limit = settings.tapsMaxPassesLimit;
    for (const n of new Set([1, limit])) {
      const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ tapsMaxPasses: n }), {
        label: `tapsMaxPasses ${n}`,
      });
      expect.soft(res).toBeAccepted(`tapsMaxPasses ${n} (limit ${limit})`);
    }
  });

  test(...forRule('SUB-TAPS-NONPOSITIVE'), async ({ ledger, commands }) => {
    for (const n of [0, -1]) {
      const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ tapsMaxPasses: n }), {
        label: `tapsMaxPasses ${n}`,
      });
      expect.soft(res).toBeCantonError(invalidRequest('INVALID_ARGUMENT', `tapsMaxPasses ${n}`));
    }
  });

  test(...forRule('SUB-TAPS-ABOVE-LIMIT'), async ({ ledger, commands, settings, deviation }) => {
    // The limit is the participant's configuration (LEDGER_TAPS_MAX_PASSES_LIMIT, Canton's default 4).
    const limit = settings.tapsMaxPassesLimit;
    const req = commands.submitRequest({ tapsMaxPasses: limit + 1 });
    const res = await ledger.submitAndWaitForTransactionTree(req);
    await deviation.judge(
      () => expect(res).toBeRejected(`tapsMaxPasses ${limit + 1}, above the participant limit ${limit}`),
      { 'command-accepted-with-its-tree': () => commandAcceptedWithItsTree(res, req) },
    );
  });
});
