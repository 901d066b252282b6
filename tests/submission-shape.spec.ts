// Submitting a command and waiting for its tree: the success shape, the tree's ids, events and times
// (interface document §2.1, §2.6, §4.1), and the tree's 3.5 removal (§9.3).
import {
  forRule,
  test,
  expect,
  instantNanos,
  REMOVED_STATUSES,
  sameTemplate,
  submitAccepted,
  TIMESTAMP,
  treeEvents,
  valueMatches,
  commandAcceptedWithItsTree,
} from '../fixtures';
import type { JsTransactionTree, SubmitRequest, TreeEvent } from '../fixtures';
import { skipWhereTreeRemoved } from './submission.cases';

/** Each event of the tree, well formed: its key, variant, ids, witnesses and exercise bounds. */
function expectEventsWellFormed(tree: JsTransactionTree, events: TreeEvent[], req: SubmitRequest): void {
  const contractIds = new Set<unknown>();
  for (const e of events) {
    const at = `eventsById["${e.key}"]`;
    expect.soft(e.key, `${at}: the key is a node id (decimal)`).toMatch(/^(0|[1-9]\d*)$/);
    expect
      .soft(['CreatedTreeEvent', 'ExercisedTreeEvent'], `${at}: one Created/Exercised variant`)
      .toContain(e.kind);
    expect.soft(e.value.nodeId, `${at}.nodeId is its key`).toBe(Number(e.key));
    expect.soft(e.value.offset, `${at}.offset is the transaction's`).toBe(tree.offset);
    expect.soft(e.value.contractId, `${at}.contractId`).toEqual(expect.stringMatching(/^[0-9a-f]+$/));
    expect
      .soft(e.value.templateId, `${at}.templateId is <package>:<module>:<entity>`)
      .toMatch(/^[^:]+:.+:[^:]+$/);
    // The tree is the transaction as the actAs parties see it (docs/canton-behaviour.md §4): witnesses are among them.
    const witnesses = e.value.witnessParties;
    expect
      .soft(Array.isArray(witnesses) && witnesses.length > 0, `${at}.witnessParties is non-empty`)
      .toBe(true);
    for (const w of Array.isArray(witnesses) ? witnesses : []) {
      expect.soft(req.actAs, `${at}.witnessParties: ${String(w)} is an actAs party`).toContain(w);
    }
    if (e.kind === 'CreatedTreeEvent') {
      expect.soft(contractIds.has(e.value.contractId), `${at}: a contract is created once`).toBe(false);
      contractIds.add(e.value.contractId);
    }
    if (e.kind === 'ExercisedTreeEvent') {
      const last = e.value.lastDescendantNodeId;
      expect.soft(Number.isInteger(last), `${at}.lastDescendantNodeId is an integer`).toBe(true);
      expect
        .soft(last as number, `${at}.lastDescendantNodeId ≥ nodeId`)
        .toBeGreaterThanOrEqual(Number(e.key));
      expect.soft(typeof e.value.consuming, `${at}.consuming`).toBe('boolean');
    }
  }
}

/** Each command of the request shows up as the events it causes. */
function expectCommandsShown(events: TreeEvent[], req: SubmitRequest): void {
  const created = events.filter((e) => e.kind === 'CreatedTreeEvent');
  const exercised = events.filter((e) => e.kind === 'ExercisedTreeEvent');
  req.commands.forEach((command, i) => {
    const [variant, body] = Object.entries(command)[0] ?? [];
    const c = (body ?? {}) as Record<string, unknown>;
    const what = `commands[${i}] (${variant})`;
    if (variant === 'CreateCommand' || variant === 'CreateAndExerciseCommand') {
      const create = created.find(
        (e) => sameTemplate(c.templateId, e.value) && valueMatches(c.createArguments, e.value.createArgument),
      );
      expect
        .soft(create, `${what}: a CreatedTreeEvent of its template with its createArguments`)
        .toBeDefined();
      if (create && variant === 'CreateAndExerciseCommand') {
        const exercise = exercised.find((e) => e.value.contractId === create.value.contractId);
        expect.soft(exercise, `${what}: an ExercisedTreeEvent on the contract it created`).toBeDefined();
        if (exercise) {
          expect.soft(exercise.value.choice, `${what}: the exercised choice`).toBe(c.choice);
          expect
            .soft(sameTemplate(c.templateId, exercise.value), `${what}: the exercise's template`)
            .toBe(true);
          expect
            .soft(
              valueMatches(c.choiceArgument, exercise.value.choiceArgument),
              `${what}: the choiceArgument`,
            )
            .toBe(true);
          expect
            .soft(Number(exercise.key), `${what}: the exercise comes after the create`)
            .toBeGreaterThan(Number(create.key));
        }
      }
    }
    if (variant === 'ExerciseCommand') {
      const exercise = exercised.find(
        (e) => e.value.contractId === c.contractId && e.value.choice === c.choice,
      );
      expect.soft(exercise, `${what}: an ExercisedTreeEvent of its choice on its contract`).toBeDefined();
    }
  });
}

test.describe('POST /v2/commands/submit-and-wait-for-transaction-tree', () => {
  skipWhereTreeRemoved();

  // ─── The success shape ───────────────────────────────────────────────────────────────────────────────────

  test(...forRule('SUB-SHAPE'), async ({ ledger, commands }) => {
    const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest());
    expect(res).toHaveStatus(200);
    expect(res.json).toMatchSchema('submit-response');
    // §4.1: "the response carries the resulting transaction tree" (optional only in its 3.5 removal).
    expect(res.body.transactionTree, 'transactionTree').toEqual(expect.any(Object));
  });

  test(...forRule('SUB-ECHO-IDS'), async ({ ledger, commands }) => {
    const req = commands.submitRequest();
    const tree = await submitAccepted(ledger, req, 'a valid submission');
    expect(tree.commandId, 'transactionTree.commandId').toBe(req.commandId);
    expect(tree.workflowId, 'transactionTree.workflowId').toBe(req.workflowId);
  });

  test(...forRule('SUB-SYNCHRONIZER-ECHO'), async ({ ledger, commands, settings }) => {
    const req = commands.submitRequest({ synchronizerId: settings.synchronizerId });
    const tree = await submitAccepted(ledger, req, 'a submission naming its synchronizer');
    expect(tree.synchronizerId, 'transactionTree.synchronizerId').toBe(settings.synchronizerId);
  });

  test(...forRule('SUB-EVENTS-WELL-FORMED'), async ({ ledger, commands }) => {
    const req = commands.submitRequest();
    const tree = await submitAccepted(ledger, req, 'a valid submission');
    const events = treeEvents(tree);
    expect(events.length, 'eventsById holds the transaction’s events').toBeGreaterThan(0);
    expectEventsWellFormed(tree, events, req);
    expectCommandsShown(events, req);
  });

  test(...forRule('SUB-OFFSETS-INCREASE'), async ({ ledger, commands }) => {
    const offsets: number[] = [];
    for (let i = 0; i < 3; i++) {
      const tree = await submitAccepted(ledger, commands.submitRequest(), `submission ${i + 1}`);
      expect(
        Number.isSafeInteger(tree.offset) && tree.offset > 0,
        `offset ${String(tree.offset)} is a positive integer`,
      ).toBe(true);
      offsets.push(tree.offset);
    }
    expect(offsets[1]!, `offsets ${offsets.join(', ')} increase`).toBeGreaterThan(offsets[0]!);
    expect(offsets[2]!, `offsets ${offsets.join(', ')} increase`).toBeGreaterThan(offsets[1]!);
  });

  test(...forRule('SUB-TIMESTAMPS'), async ({ ledger, commands }) => {
    const tree = await submitAccepted(ledger, commands.submitRequest(), 'a valid submission');
    const times: [string, unknown][] = [
      ['effectiveAt', tree.effectiveAt],
      ['recordTime', tree.recordTime],
    ];
    for (const e of treeEvents(tree)) {
      if (e.kind === 'CreatedTreeEvent') times.push([`eventsById["${e.key}"].createdAt`, e.value.createdAt]);
    }
    for (const [where, value] of times) {
      expect
        .soft(value, `${where} is Instant.toString: ISO-8601 UTC`)
        .toEqual(expect.stringMatching(TIMESTAMP));
      expect.soft(instantNanos(value), `${where} is a real instant`).toBeDefined();
    }
    // A contract created by this transaction was created at its ledger effective time.
    for (const [where, value] of times.slice(2)) {
      expect
        .soft(instantNanos(value), `${where} is the transaction's effectiveAt`)
        .toBe(instantNanos(tree.effectiveAt));
    }
  });

  // ─── §9.3 ────────────────────────────────────────────────────────────────────────────────────────────────

  test(...forRule('SUB-TREE-REMOVED-3-5'), async ({ ledger, commands, deviation }) => {
    const req = commands.submitRequest();
    const res = await ledger.submitAndWaitForTransactionTree(req);
    // Removed: the operation is gone (404/405/410/501), or it answers without the tree. A valid request
    // is sent, so any other error would not be the removal.
    const gone = (REMOVED_STATUSES as readonly number[]).includes(res.status);
    const treeless = res.status >= 200 && res.status < 300 && res.body?.transactionTree === undefined;
    await deviation.judge(
      () =>
        expect(
          gone || treeless,
          `expected the tree operation removed (${REMOVED_STATUSES.join('/')}, or 2xx without transactionTree), got ${res.status}${
            res.body?.transactionTree !== undefined ? ' with a transactionTree' : ''
          }`,
        ).toBe(true),
      { 'command-accepted-with-its-tree': () => commandAcceptedWithItsTree(res, req) },
    );
  });
});
