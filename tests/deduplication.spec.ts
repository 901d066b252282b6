// Command deduplication (interface document §2.1 commandId, submissionId, deduplicationPeriod; §2.3). The
// change ID is (userId, actAs as a set, commandId): what is the same change is rejected as a duplicate within
// the period, what differs in it is a new change. Each "same change" case first shows that its variant is
// accepted on its own, so the rejection can only be the duplicate. docs/canton-behaviour.md §1.6.
import { forRule } from '../fixtures';
import { anyOfCodes, cantonError, test, invalidRequest } from '../fixtures';
import type {
  CallOptions,
  JsTransactionTree,
  LedgerClient,
  LedgerResponse,
  SubmitRequest,
  SubmitResponse,
} from '../fixtures';
import {
  duration,
  expect,
  instantNanos,
  NANOS_PER_MILLI,
  submitAccepted,
  unknownContractId,
} from '../fixtures';
import { skipWhereTreeRemoved } from './submission.cases';

test.describe('POST /v2/commands/submit-and-wait-for-transaction-tree: deduplication', () => {
  skipWhereTreeRemoved();

  test(...forRule('SUB-DEDUP-SAME-CHANGE-ID'), async ({ ledger, commands }) => {
    const req = commands.submitRequest();
    await submitAccepted(ledger, req, 'the first submission');
    const again = await ledger.submitAndWaitForTransactionTree(req);
    expect(again).toBeRejected('the same request again (same change ID)');
  });

  test(...forRule('SUB-DEDUP-COMPLETION-OFFSET'), async ({ ledger, commands }) => {
    const req = commands.submitRequest();
    const first = await submitAccepted(ledger, req, 'the first submission');
    const again = await ledger.submitAndWaitForTransactionTree({
      ...req,
      submissionId: commands.ids.submissionId(),
    });
    expect(again).toBeCantonError({
      ...cantonError('DUPLICATE_COMMAND', 'a duplicate command'),
      context: { completion_offset: String(first.offset) },
    });
  });

  /**
   * "Still the same change": the variant alone (new commandId) is accepted, the original is accepted, and the
   * variant with the original's commandId is rejected.
   */
  async function sameChange(
    ledger: LedgerClient,
    original: SubmitRequest,
    variant: SubmitRequest,
    freshCommandId: string,
    what: string,
  ): Promise<void> {
    await submitAccepted(
      ledger,
      { ...variant, commandId: freshCommandId },
      `${what} on its own (new commandId)`,
    );
    await submitAccepted(ledger, original, 'the original submission');
    const res = await ledger.submitAndWaitForTransactionTree(variant);
    expect(res).toBeRejected(`the original resubmitted with ${what} (same change ID)`);
  }

  test(...forRule('SUB-DEDUP-ACTAS-ORDER'), async ({ ledger, commands }) => {
    const original = commands.submitRequest();
    const variant = {
      ...original,
      actAs: [...original.actAs].reverse(),
      submissionId: commands.ids.submissionId(),
    };
    await sameChange(ledger, original, variant, commands.ids.commandId(), 'actAs in reverse order');
  });

  test(...forRule('SUB-DEDUP-SUBMISSION-ID'), async ({ ledger, commands }) => {
    const original = commands.submitRequest();
    await submitAccepted(ledger, original, 'the original submission');
    const another = await ledger.submitAndWaitForTransactionTree({
      ...original,
      submissionId: commands.ids.submissionId(),
    });
    expect.soft(another).toBeRejected('the original with another submissionId (same change ID)');
    const { submissionId: _s, ...withoutSubmissionId } = original;
    const none = await ledger.submitAndWaitForTransactionTree(withoutSubmissionId);
    expect.soft(none).toBeRejected('the original without a submissionId (same change ID)');
  });

  test(...forRule('SUB-DEDUP-READAS'), async ({ ledger, commands, settings }) => {
    // readAs [] ↔ the configured readers (or, with none configured, an actAs party as reader).
    const readers = settings.readAs.length > 0 ? settings.readAs : settings.actAs.slice(0, 1);
    const original = commands.submitRequest({ readAs: readers, commands: commands.commands() });
    const variant = { ...original, readAs: [], submissionId: commands.ids.submissionId() };
    await sameChange(ledger, original, variant, commands.ids.commandId(), 'another readAs');
  });

  test(...forRule('SUB-DEDUP-NEW-COMMAND-ID'), async ({ ledger, commands }) => {
    const original = commands.submitRequest();
    await submitAccepted(ledger, original, 'the original submission');
    // The other commandId extends the first: a change ID built from a prefix of the commandId collides.
    await submitAccepted(
      ledger,
      { ...original, commandId: `${original.commandId}-${commands.ids.commandId()}` },
      'the same request with another commandId (the first one plus a suffix)',
    );
  });

  test(...forRule('SUB-DEDUP-NEW-USER-ID'), async ({ ledger, commands, settings, tokens }) => {
    let other: { userId: string; opts: CallOptions };
    if (settings.auth.kind === 'none') {
      // No authentication: the userId is taken as sent, any valid one names another user.
      other = { userId: `${settings.user.slice(0, 120)}-other`, opts: {} };
    } else {
      // The rule's need ('another-user', its catalogue row) skipped the test unless both are there.
      const user = settings.secondUser!;
      const token = await tokens.provider.minter!.mint({ sub: user });
      // A configured user: the participant not knowing it is the settings' mistake, reported as such.
      other = { userId: user, opts: { token, identity: `LEDGER_SECOND_USER=${user}` } };
    }
    const original = commands.submitRequest();
    await submitAccepted(ledger, original, 'the original submission');
    await submitAccepted(
      ledger,
      { ...original, userId: other.userId, submissionId: commands.ids.submissionId() },
      'the same command for another user',
      other.opts,
    );
  });

  test(...forRule('SUB-DEDUP-NEW-ACTAS'), async ({ ledger, commands, settings }) => {
    // The commands stay the same (built for all parties); only the set of submitters changes.
    const original = commands.submitRequest({
      actAs: settings.actAs.slice(0, 1),
      commands: commands.commands(),
    });
    await submitAccepted(ledger, original, `the command submitted by actAs[0] alone`);
    await submitAccepted(
      ledger,
      { ...original, actAs: [...settings.actAs], submissionId: commands.ids.submissionId() },
      'the same command submitted by all actAs parties',
    );
  });

  test(...forRule('SUB-DEDUP-REJECTED-RETRY'), async ({ ledger, commands }) => {
    const retry = commands.submitRequest();
    // Rejected by validation: both minimum ledger times (§2.1: must not be set together).
    const invalid = await ledger.submitAndWaitForTransactionTree({
      ...retry,
      submissionId: commands.ids.submissionId(),
      minLedgerTimeAbs: new Date().toISOString(),
      minLedgerTimeRel: { seconds: 1, nanos: 0 },
    });
    expect(invalid).toBeRejected('the first attempt, with both minimum ledger times');
    // Rejected when the command runs: the template's choice on a contract no ledger holds.
    const [variant, body] = Object.entries(retry.commands[0] ?? {})[0] ?? [];
    if (variant === 'CreateAndExerciseCommand') {
      const c = body as Record<string, unknown>;
      const failing = await ledger.submitAndWaitForTransactionTree({
        ...retry,
        submissionId: commands.ids.submissionId(),
        commands: [
          {
            ExerciseCommand: {
              templateId: c.templateId,
              contractId: unknownContractId(),
              choice: c.choice,
              choiceArgument: c.choiceArgument,
            },
          },
        ],
      });
      expect(failing).toBeRejected('the second attempt, exercising a contract that does not exist');
    }
    await submitAccepted(ledger, retry, 'the retry of the rejected change');
  });

  test(...forRule('SUB-DEDUP-EXPIRY'), async ({ ledger, commands, settings }) => {
    // The period is as short as the target allows, so the test waits little. Its duplicate only proves
    // "rejected within the period" when answered within half of it (room for the participant's and the
    // sequencer's clocks to differ); a later answer that is accepted proves nothing, so a new change ID tries
    // again with a period at least twice as long and at least the round trips just seen, up to
    // 8 s × LEDGER_TIMEOUT_SCALE.
    const maxMs = Math.round(8_000 * settings.timeoutScale);
    let periodMs = Math.round(250 * settings.timeoutScale);
    let req: SubmitRequest;
    let first: JsTransactionTree;
    for (;;) {
      req = commands.submitRequest({
        deduplicationPeriod: { DeduplicationDuration: { value: duration(periodMs) } },
      });
      const sent = performance.now();
      first = await submitAccepted(ledger, req, `the first submission, period ${periodMs} ms`);
      const within = await ledger.submitAndWaitForTransactionTree({
        ...req,
        submissionId: commands.ids.submissionId(),
      });
      const elapsedMs = performance.now() - sent;
      if (within.status !== 200 || elapsedMs < periodMs / 2) {
        expect(within).toBeRejected(
          `the same change ${Math.round(elapsedMs)} ms into its ${periodMs} ms period`,
        );
        break;
      }
      expect(
        periodMs,
        `a duplicate answered within half a period of at most ${maxMs} ms (it took ${Math.round(elapsedMs)} ms): raise LEDGER_TIMEOUT_SCALE`,
      ).toBeLessThan(maxMs);
      periodMs = Math.min(maxMs, Math.max(2 * periodMs, Math.ceil(elapsedMs)));
    }
    // Poll until accepted: rejections are expected until the period has passed.
    let accepted: LedgerResponse<SubmitResponse> | undefined;
    const pollMs = periodMs + 10_000 * settings.timeoutScale;
    await expect
      .poll(
        async () => {
          const res = await ledger.submitAndWaitForTransactionTree(
            { ...req, submissionId: commands.ids.submissionId() },
            { label: 'retry after the period' },
          );
          if (res.status === 200) accepted = res;
          else expect(res).toBeRejected('the same change while its period lasts');
          return res.status;
        },
        {
          message: `the same change accepted again within ${pollMs} ms`,
          timeout: pollMs,
          // A quarter period apart: a period that ended early is seen before the full period has passed.
          intervals: [periodMs / 4, periodMs / 4, periodMs / 2],
        },
      )
      .toBe(200);
    expect(accepted!).toBeAccepted('the same change after its period');
    const again = accepted!.body.transactionTree!;
    const [t0, t1] = [instantNanos(first.recordTime), instantNanos(again.recordTime)];
    expect(
      t1! - t0! >= BigInt(periodMs) * NANOS_PER_MILLI,
      `accepted again at ${again.recordTime}, at least ${periodMs} ms after the first (${first.recordTime})`,
    ).toBe(true);
  });

  test(...forRule('SUB-DEDUP-PARALLEL'), async ({ ledger, commands }) => {
    const req = commands.submitRequest();
    const results = await Promise.all(
      Array.from({ length: 10 }, (_, i) =>
        ledger.submitAndWaitForTransactionTree(req, { label: `parallel ${i + 1} of 10` }),
      ),
    );
    const ok = results.filter((r) => r.status === 200);
    expect(
      ok.length,
      `exactly one of 10 accepted, got statuses ${results.map((r) => r.status).join(', ')}`,
    ).toBe(1);
    for (const r of results.filter((x) => x.status !== 200)) {
      // Canton: DUPLICATE_COMMAND (ALREADY_EXISTS) or SUBMISSION_ALREADY_IN_FLIGHT (ABORTED), both 409.
      expect.soft(r).toBeCantonError({
        of: 'a parallel duplicate',
        status: cantonError('DUPLICATE_COMMAND').status,
        code: anyOfCodes('DUPLICATE_COMMAND', 'SUBMISSION_ALREADY_IN_FLIGHT'),
      });
    }
  });

  test(...forRule('SUB-DEDUP-NEGATIVE-PERIOD'), async ({ ledger, commands }) => {
    const res = await ledger.submitAndWaitForTransactionTree(
      commands.submitRequest({
        deduplicationPeriod: { DeduplicationDuration: { value: { seconds: -5, nanos: 0 } } },
      }),
    );
    expect(res).toBeCantonError(invalidRequest('INVALID_FIELD', 'a negative deduplication duration'));
  });
});
