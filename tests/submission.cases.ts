// What the submission specs share (tests/submission-*.spec.ts): Canton's INVALID_ARGUMENT family, a
// submission per case, the required-field rejections, and the skip of a target that removed the tree.
// Every negative case changes one field of an otherwise valid request, keeping what Canton checks earlier
// valid (docs/canton-behaviour.md §1.3); interface rules assert what the document says ("rejected" = a 4xx answer),
// canton rules assert Canton's code, status and category; no check is stricter than Canton.
import { test, DEV_NAMESPACE, expect, invalidRequest, treeRemovedReason } from '../fixtures';
import type {
  CantonErrorExpectation,
  CommandFactory,
  LedgerClient,
  LedgerResponse,
  SubmitRequest,
  SubmitResponse,
} from '../fixtures';

/**
 * One submission per case, in order, labelled with the case; `check` judges each answer with soft assertions,
 * so every case that fails is reported, not only the first.
 */
export async function submitEach<C extends { description: string }>(
  ledger: LedgerClient,
  cases: Iterable<C>,
  request: (c: C) => SubmitRequest,
  check: (res: LedgerResponse<SubmitResponse>, c: C) => void,
): Promise<void> {
  for (const c of cases) {
    check(await ledger.submitAndWaitForTransactionTree(request(c), { label: c.description }), c);
  }
}

/** The namespace ids are built with: the configured synchronizer's (a real one), or the dev one. */
export const namespaceOf = (uid: string | undefined): string => uid?.split('::')[1] ?? DEV_NAMESPACE;

/**
 * One changed field that the document says is rejected (`rule`, any 4xx) and whose Canton code its twin
 * `rule`-CODE asserts in full: two tests, in that order, from one row.
 */
export interface Rejection {
  rule: string;
  /** What is wrong with the request, in the failure messages. */
  description: string;
  request(commands: CommandFactory): SubmitRequest;
  code: CantonErrorExpectation;
}

/** The answer to a Rejection row's request. */
const answerTo = (row: Rejection, ledger: LedgerClient, commands: CommandFactory) =>
  ledger.submitAndWaitForTransactionTree(row.request(commands));

/** The document's rule of a Rejection row: the changed request is rejected (any 4xx). */
export const expectRejected = async (row: Rejection, ledger: LedgerClient, commands: CommandFactory) =>
  expect(await answerTo(row, ledger, commands)).toBeRejected(row.description);

/** Its `-CODE` twin: Canton's code for it, in full. */
export const expectCode = async (row: Rejection, ledger: LedgerClient, commands: CommandFactory) =>
  expect(await answerTo(row, ledger, commands)).toBeCantonError(row.code);

/** Required fields left empty (§2.1): Canton's MISSING_FIELD. */
export const REQUIRED_FIELDS: Rejection[] = [
  {
    rule: 'SUB-COMMANDS-EMPTY',
    description: 'an empty commands list',
    request: (commands) => commands.submitRequest({ commands: [] }),
    code: {
      ...invalidRequest('MISSING_FIELD', 'an empty commands list'),
      context: { field_name: 'commands' },
    },
  },
  {
    rule: 'SUB-ACTAS-EMPTY',
    description: 'an empty actAs list',
    request: (commands) => commands.submitRequest({ actAs: [], commands: commands.commands() }),
    // The field's name differs across releases (3.3 "party or act_as", 3.4+ "act_as/actAs"): not asserted.
    code: invalidRequest('MISSING_FIELD', 'an empty actAs list'),
  },
];

/** A malformed synchronizerId: rejected (the document), INVALID_FIELD (Canton). Soft: every case is judged. */
export const SYNCHRONIZER_INVALID: {
  rule: string;
  expect(res: LedgerResponse, what: string): void;
}[] = [
  {
    rule: 'SUB-SYNCHRONIZER-INVALID',
    expect: (res, what) => expect.soft(res).toBeRejected(what),
  },
  {
    rule: 'SUB-SYNCHRONIZER-INVALID-CODE',
    expect: (res, what) => expect.soft(res).toBeCantonError(invalidRequest('INVALID_FIELD', what)),
  },
];

/**
 * A target ≥ 3.5.0 that removed the tree (§9.3) cannot serve the submission rules: their tests skip there
 * (the removal rule itself is judged in submission-shape.spec.ts).
 */
export function skipWhereTreeRemoved(): void {
  test.beforeEach(async ({ target, ledger, commands }, testInfo) => {
    if (testInfo.title.startsWith('SUB-TREE-REMOVED-3-5')) return;
    const removed = await treeRemovedReason(target, ledger, commands);
    test.skip(removed !== undefined, removed);
  });
}
