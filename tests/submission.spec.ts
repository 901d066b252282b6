// Submitting a command and waiting for its tree (interface document §2.1, §2.6, §4.1, §5.3, §7, §9.3).
// Every negative case changes one field of an otherwise valid request, keeping what Canton checks earlier
// valid (canton-behaviour §1.3). interface rules assert what the document says ("rejected" = a 4xx answer);
// canton rules assert Canton's code, status and category; no check is stricter than Canton.
import {
  test,
  DEV_NAMESPACE,
  PATHS,
  invalidSynchronizerIds,
  invalidValues,
  validBoundaries,
} from '../fixtures';
import type {
  CantonErrorExpectation,
  CommandFactory,
  IdCase,
  JsTransactionTree,
  LedgerClient,
  LedgerResponse,
  SubmitRequest,
  SubmitResponse,
} from '../fixtures';
import {
  expect,
  instantNanos,
  NANOS_PER_SECOND,
  newTraceparent,
  REMOVED_STATUSES,
  sameTemplate,
  submitAccepted,
  tagsOf,
  TIMESTAMP,
  treeEvents,
  treeRemovedReason,
  unknownUid,
  valueMatches,
} from '../fixtures/submission-helpers';
import { commandAcceptedWithItsTree } from '../fixtures/pinned-deviations';

/** Canton's INVALID_ARGUMENT family (category 8, InvalidIndependentOfSystemState → 400). */
const invalid = (code: string, of: string) => ({ of, status: 400, code, grpcCodeValue: 3, errorCategory: 8 });

/**
 * One submission per case, in order, labelled with the case; `check` judges each answer with soft assertions,
 * so every case that fails is reported, not only the first.
 */
async function submitEach<C extends { description: string }>(
  ledger: LedgerClient,
  cases: Iterable<C>,
  request: (c: C) => SubmitRequest,
  check: (res: LedgerResponse<SubmitResponse>, c: C) => void,
): Promise<void> {
  for (const c of cases) {
    check(await ledger.submitAndWaitForTransactionTree(request(c), { label: c.description }), c);
  }
}

/** tapsMaxPasses came with Canton 3.4.12 (canton-behaviour §0); earlier releases ignore the unknown field. */
const TAPS_SINCE = '3.4.12';

/** The namespace ids are built with: the configured synchronizer's (a real one), or the dev one. */
const namespaceOf = (uid: string | undefined): string => uid?.split('::')[1] ?? DEV_NAMESPACE;

/**
 * One changed field that the document says is rejected (`rule`, any 4xx) and whose Canton code its twin
 * `rule`-CODE asserts in full: two tests, in that order, from one row.
 */
interface Rejection {
  rule: string;
  title: string;
  codeTitle: string;
  /** What is wrong with the request, in the failure messages. */
  description: string;
  request(commands: CommandFactory): SubmitRequest;
  code: CantonErrorExpectation;
}

function rejectedAndCode(row: Rejection): void {
  test(`${row.rule} ${row.title}`, tagsOf(row.rule), async ({ ledger, commands }) => {
    const res = await ledger.submitAndWaitForTransactionTree(row.request(commands));
    expect(res).toBeRejected(row.description);
  });
  const codeRule = `${row.rule}-CODE`;
  test(`${codeRule} ${row.codeTitle}`, tagsOf(codeRule), async ({ ledger, commands }) => {
    const res = await ledger.submitAndWaitForTransactionTree(row.request(commands));
    expect(res).toBeCantonError(row.code);
  });
}

/** Required fields left empty (§2.1): Canton's MISSING_FIELD. */
const REQUIRED_FIELDS: Rejection[] = [
  {
    rule: 'SUB-COMMANDS-EMPTY',
    title: 'an empty commands list is rejected',
    codeTitle: 'an empty commands list is MISSING_FIELD commands',
    description: 'an empty commands list',
    request: (commands) => commands.submitRequest({ commands: [] }),
    code: { ...invalid('MISSING_FIELD', 'an empty commands list'), context: { field_name: 'commands' } },
  },
  {
    rule: 'SUB-ACTAS-EMPTY',
    title: 'an empty actAs list is rejected',
    codeTitle: 'an empty actAs list is MISSING_FIELD',
    description: 'an empty actAs list',
    request: (commands) => commands.submitRequest({ actAs: [], commands: commands.commands() }),
    // The field's name differs across releases (3.3 "party or act_as", 3.4+ "act_as/actAs"): not asserted.
    code: invalid('MISSING_FIELD', 'an empty actAs list'),
  },
];

/** A malformed synchronizerId: rejected (the document), INVALID_FIELD (Canton). Soft: every case is judged. */
const SYNCHRONIZER_INVALID: {
  rule: string;
  title: string;
  expect(res: LedgerResponse, what: string): void;
}[] = [
  {
    rule: 'SUB-SYNCHRONIZER-INVALID',
    title: 'a synchronizerId that is not a synchronizer id is rejected',
    expect: (res, what) => expect.soft(res).toBeRejected(what),
  },
  {
    rule: 'SUB-SYNCHRONIZER-INVALID-CODE',
    title: 'a synchronizerId that is not a synchronizer id is INVALID_FIELD',
    expect: (res, what) => expect.soft(res).toBeCantonError(invalid('INVALID_FIELD', what)),
  },
];

test.describe('POST /v2/commands/submit-and-wait-for-transaction-tree', () => {
  test.beforeEach(async ({ target, ledger, commands }, testInfo) => {
    // A target ≥ 3.5.0 that removed the tree (§9.3) cannot serve the submission rules; the removal rule
    // itself is judged below.
    if (testInfo.title.startsWith('SUB-TREE-REMOVED-3-5')) return;
    const removed = await treeRemovedReason(target, ledger, commands);
    test.skip(removed !== undefined, removed);
  });

  // ─── The success shape ───────────────────────────────────────────────────────────────────────────────────

  test(
    'SUB-SHAPE a valid submission succeeds and its response matches the transaction tree shape',
    tagsOf('SUB-SHAPE'),
    async ({ ledger, commands }) => {
      const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest());
      expect(res).toHaveStatus(200);
      expect(res.json).toMatchSchema('submit-response');
      // §4.1: "the response carries the resulting transaction tree" (optional only in its 3.5 removal).
      expect(res.body.transactionTree, 'transactionTree').toEqual(expect.any(Object));
    },
  );

  test(
    'SUB-ECHO-IDS the tree echoes the commandId and workflowId of the command',
    tagsOf('SUB-ECHO-IDS'),
    async ({ ledger, commands }) => {
      const req = commands.submitRequest();
      const tree = await submitAccepted(ledger, req, 'a valid submission');
      expect(tree.commandId, 'transactionTree.commandId').toBe(req.commandId);
      expect(tree.workflowId, 'transactionTree.workflowId').toBe(req.workflowId);
    },
  );

  test(
    'SUB-SYNCHRONIZER-ECHO the tree carries the requested synchronizerId',
    tagsOf('SUB-SYNCHRONIZER-ECHO'),
    async ({ ledger, commands, settings }) => {
      test.skip(
        settings.synchronizerId === undefined,
        'LEDGER_SYNCHRONIZER_ID=none: requests name no synchronizer, so there is none to echo',
      );
      const req = commands.submitRequest({ synchronizerId: settings.synchronizerId });
      const tree = await submitAccepted(ledger, req, 'a submission naming its synchronizer');
      expect(tree.synchronizerId, 'transactionTree.synchronizerId').toBe(settings.synchronizerId);
    },
  );

  test(
    'SUB-EVENTS-WELL-FORMED the events are keyed by node id and agree with the command',
    tagsOf('SUB-EVENTS-WELL-FORMED'),
    async ({ ledger, commands }) => {
      const req = commands.submitRequest();
      const tree = await submitAccepted(ledger, req, 'a valid submission');
      const events = treeEvents(tree);
      expect(events.length, 'eventsById holds the transaction’s events').toBeGreaterThan(0);
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
        // The tree is the transaction as the actAs parties see it (canton-behaviour §4): witnesses are among them.
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
      // Each command of the request shows up as the events it causes.
      const created = events.filter((e) => e.kind === 'CreatedTreeEvent');
      const exercised = events.filter((e) => e.kind === 'ExercisedTreeEvent');
      req.commands.forEach((command, i) => {
        const [variant, body] = Object.entries(command)[0] ?? [];
        const c = (body ?? {}) as Record<string, unknown>;
        const what = `commands[${i}] (${variant})`;
        if (variant === 'CreateCommand' || variant === 'CreateAndExerciseCommand') {
          const create = created.find(
            (e) =>
              sameTemplate(c.templateId, e.value) && valueMatches(c.createArguments, e.value.createArgument),
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
    },
  );

  test(
    'SUB-OFFSETS-INCREASE offsets increase across submissions',
    tagsOf('SUB-OFFSETS-INCREASE'),
    async ({ ledger, commands }) => {
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
    },
  );

  test(
    'SUB-TIMESTAMPS effectiveAt, recordTime and createdAt are ISO-8601 UTC timestamps',
    tagsOf('SUB-TIMESTAMPS'),
    async ({ ledger, commands }) => {
      const tree = await submitAccepted(ledger, commands.submitRequest(), 'a valid submission');
      const times: [string, unknown][] = [
        ['effectiveAt', tree.effectiveAt],
        ['recordTime', tree.recordTime],
      ];
      for (const e of treeEvents(tree)) {
        if (e.kind === 'CreatedTreeEvent')
          times.push([`eventsById["${e.key}"].createdAt`, e.value.createdAt]);
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
    },
  );

  // ─── Required fields ──────────────────────────────────────────────────────────────────────────────────────

  for (const row of REQUIRED_FIELDS) rejectedAndCode(row);

  test(
    'SUB-COMMANDID-MISSING a missing or empty commandId is rejected',
    tagsOf('SUB-COMMANDID-MISSING'),
    async ({ ledger, commands }) => {
      const absent = await ledger.submitAndWaitForTransactionTree(
        commands.submitRequest({ commandId: undefined }),
      );
      expect.soft(absent).toBeRejected('a request without commandId');
      const empty = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ commandId: '' }));
      expect.soft(empty).toBeRejected('an empty commandId');
    },
  );

  test(
    'SUB-COMMANDID-MISSING-CODE an empty commandId is MISSING_FIELD command_id, an absent one a body decoding error',
    tagsOf('SUB-COMMANDID-MISSING-CODE'),
    async ({ ledger, commands }) => {
      const empty = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ commandId: '' }));
      expect.soft(empty).toBeCantonError({
        ...invalid('MISSING_FIELD', 'an empty commandId'),
        context: { field_name: 'command_id' },
      });
      const absent = await ledger.submitAndWaitForTransactionTree(
        commands.submitRequest({ commandId: undefined }),
      );
      expect.soft(absent).toHaveStatus(400);
      expect.soft(absent.contentType, 'a decoding failure is text/plain').toMatch(/^text\/plain\b/);
      expect.soft(absent.text).toMatch(/^Invalid value for: body \(.*'commandId'.*\)$/s);
    },
  );

  // ─── Id grammars (canton-behaviour §1.5) ───────────────────────────────────────────────────────────────────

  // proto3 reads an empty optional string as "not set": Canton accepts workflowId "" and submissionId "".
  const nonEmpty = (cases: IdCase[]): IdCase[] => cases.filter((c) => c.value !== '');

  for (const field of ['commandId', 'workflowId', 'submissionId'] as const) {
    test(
      `SUB-LEDGERSTRING-INVALID a commandId, workflowId or submissionId that is not a LedgerString is rejected: ${field}`,
      tagsOf('SUB-LEDGERSTRING-INVALID'),
      async ({ ledger, commands, ids }) => {
        const cases = invalidValues('LedgerString', { prefix: `${ids.next('bad')}-` });
        await submitEach(
          ledger,
          field === 'commandId' ? cases : nonEmpty(cases),
          (c) => commands.submitRequest({ [field]: c.value }),
          (res, c) => expect.soft(res).toBeRejected(`${field}: ${c.description}`),
        );
      },
    );

    test(
      `SUB-LEDGERSTRING-INVALID-CODE a commandId or submissionId that is not a LedgerString is INVALID_FIELD, a workflowId INVALID_ARGUMENT: ${field}`,
      tagsOf('SUB-LEDGERSTRING-INVALID-CODE'),
      async ({ ledger, commands, ids }) => {
        // Canton: commandId → INVALID_FIELD command_id, submissionId → INVALID_FIELD submission_id,
        // workflowId → INVALID_ARGUMENT (validateWorkflowId), all INVALID_ARGUMENT / category 8 / 400.
        const code = field === 'workflowId' ? 'INVALID_ARGUMENT' : 'INVALID_FIELD';
        await submitEach(
          ledger,
          nonEmpty(invalidValues('LedgerString', { prefix: `${ids.next('bad')}-` })),
          (c) => commands.submitRequest({ [field]: c.value }),
          (res, c) => expect.soft(res).toBeCantonError(invalid(code, `${field}: ${c.description}`)),
        );
      },
    );

    test(
      `SUB-LEDGERSTRING-BOUNDARY a 255-character LedgerString with every allowed punctuation is accepted: ${field}`,
      tagsOf('SUB-LEDGERSTRING-BOUNDARY'),
      async ({ ledger, commands, ids }) => {
        // Run-unique prefix (commandIds never repeat across runs); counted in the 255.
        await submitEach(
          ledger,
          validBoundaries('LedgerString', { prefix: `${ids.next('ok')}-` }),
          (c) => commands.submitRequest({ [field]: c.value }),
          (res, c) => {
            expect.soft(res).toBeAccepted(`${field}: ${c.description}`);
            if (res.status === 200 && field !== 'submissionId') {
              expect.soft(res.body.transactionTree?.[field], `${field} echoed unchanged`).toBe(c.value);
            }
          },
        );
      },
    );
  }

  /** Parties placed where Canton checks them (actAs[0] before authorization, the others after it). */
  const partyPlaces = (
    bad: string,
    actAs: string[],
    readAs: string[],
  ): { where: string; over: { actAs?: string[]; readAs?: string[] } }[] => [
    { where: 'actAs[0]', over: { actAs: [bad, ...actAs] } },
    { where: 'actAs[1]', over: { actAs: [actAs[0]!, bad, ...actAs.slice(1)] } },
    { where: 'readAs', over: { readAs: [...readAs, bad] } },
  ];

  test(
    'SUB-PARTY-INVALID a party that is not a PartyIdString is rejected',
    tagsOf('SUB-PARTY-INVALID'),
    async ({ ledger, commands, settings }) => {
      const suffix = `::${namespaceOf(settings.actAs[0])}`;
      for (const c of invalidValues('PartyIdString', { suffix })) {
        for (const p of partyPlaces(c.value, settings.actAs, settings.readAs)) {
          // The commands stay those of the configured parties: only the party list changes.
          const req = commands.submitRequest({ ...p.over, commands: commands.commands() });
          const res = await ledger.submitAndWaitForTransactionTree(req, {
            label: `${p.where}: ${c.description}`,
          });
          expect.soft(res).toBeRejected(`a party in ${p.where}: ${c.description}`);
        }
      }
    },
  );

  test(
    'SUB-PARTY-INVALID-CODE a first actAs party that is not a PartyIdString is INVALID_ARGUMENT',
    tagsOf('SUB-PARTY-INVALID-CODE'),
    async ({ ledger, commands, settings }) => {
      // actAs[0] is syntax-checked in the JSON layer, before authorization, for every caller (§1.3 stage 3).
      const suffix = `::${namespaceOf(settings.actAs[0])}`;
      await submitEach(
        ledger,
        invalidValues('PartyIdString', { suffix }),
        (c) => commands.submitRequest({ actAs: [c.value, ...settings.actAs], commands: commands.commands() }),
        (res, c) =>
          expect.soft(res).toBeCantonError(invalid('INVALID_ARGUMENT', `actAs[0]: ${c.description}`)),
      );
    },
  );

  test(
    'SUB-PARTY-BOUNDARY a first actAs party at the PartyIdString boundaries passes the syntax check',
    tagsOf('SUB-PARTY-BOUNDARY'),
    async ({ ledger, commands, settings, tokens }) => {
      test.skip(
        settings.auth.kind === 'none',
        'LEDGER_AUTH=none: without a user token a well-formed unknown party fails later with a code Canton does not document',
      );
      test.skip(
        (await tokens.userId()) === undefined,
        'the token is opaque and LEDGER_USER is unset: no user token',
      );
      // A valid party the user has no right for passes the JSON layer's syntax check and is refused by
      // authorization: 403, never a 400 for its syntax.
      const suffix = `::${namespaceOf(settings.actAs[0])}`;
      await submitEach(
        ledger,
        validBoundaries('PartyIdString', { prefix: 'cf', suffix }),
        (c) => commands.submitRequest({ actAs: [c.value, ...settings.actAs], commands: commands.commands() }),
        (res, c) =>
          expect.soft(res).toBeCantonError({
            of: `a valid party without rights: ${c.description}`,
            status: 403,
            grpcCodeValue: 7,
          }),
      );
    },
  );

  test(
    'SUB-USERID-INVALID a userId that is not a UserIdString is rejected',
    tagsOf('SUB-USERID-INVALID'),
    async ({ ledger, commands }) => {
      // "" is an absent userId (proto3), which a user token fills in: not an invalid one.
      await submitEach(
        ledger,
        nonEmpty(invalidValues('UserIdString')),
        (c) => commands.submitRequest({ userId: c.value }),
        (res, c) => expect.soft(res).toBeRejected(`userId: ${c.description}`),
      );
    },
  );

  test(
    'SUB-USERID-BOUNDARY a userId at the UserIdString boundaries is accepted',
    tagsOf('SUB-USERID-BOUNDARY'),
    async ({ ledger, commands, settings, target, ids }) => {
      test.skip(
        settings.auth.kind !== 'none',
        'needs a participant without authentication (LEDGER_AUTH=none): with a user token any userId other than the token user is refused (403) whatever its syntax',
      );
      const prefix = ids.runId.replace(/[^A-Za-z0-9_-]/g, '').slice(0, 40);
      await submitEach(
        ledger,
        validBoundaries('UserIdString', { prefix }, target.version),
        (c) => commands.submitRequest({ userId: c.value }),
        (res, c) => expect.soft(res).toBeAccepted(`userId: ${c.description}`),
      );
    },
  );

  for (const c of SYNCHRONIZER_INVALID) {
    test(`${c.rule} ${c.title}`, tagsOf(c.rule), async ({ ledger, commands, settings }) => {
      // "" is an absent synchronizerId (proto3: the participant routes), not an invalid one.
      await submitEach(
        ledger,
        nonEmpty(invalidSynchronizerIds(namespaceOf(settings.synchronizerId))),
        (id) => commands.submitRequest({ synchronizerId: id.value }),
        (res, id) => c.expect(res, `synchronizerId: ${id.description}`),
      );
    });
  }

  test(
    'SUB-SYNCHRONIZER-UNKNOWN a well-formed synchronizerId of no known synchronizer is rejected',
    tagsOf('SUB-SYNCHRONIZER-UNKNOWN'),
    async ({ ledger, commands }) => {
      const res = await ledger.submitAndWaitForTransactionTree(
        commands.submitRequest({ synchronizerId: unknownUid('conformance-unknown') }),
      );
      // Canton's code for it is not confirmed (INVALID_PRESCRIBED_SYNCHRONIZER_ID or, for #name template
      // references, JSON_API_PACKAGE_SELECTION_FAILED): a Canton error with a client status.
      expect(res).toBeRejected('an unknown synchronizerId');
      expect(res).toBeCantonError({ of: 'an unknown synchronizerId' });
    },
  );

  // ─── Ledger time (§2.1 minLedgerTimeAbs / minLedgerTimeRel) ────────────────────────────────────────────────

  const bothTimes = (r: SubmitRequest) => ({
    ...r,
    minLedgerTimeAbs: new Date().toISOString(),
    minLedgerTimeRel: { seconds: 1, nanos: 0 },
  });

  rejectedAndCode({
    rule: 'SUB-MIN-LEDGER-TIME-BOTH',
    title: 'minLedgerTimeAbs and minLedgerTimeRel together are rejected',
    codeTitle: 'minLedgerTimeAbs and minLedgerTimeRel together are INVALID_ARGUMENT',
    description: 'minLedgerTimeAbs together with minLedgerTimeRel',
    request: (commands) => bothTimes(commands.submitRequest()),
    code: invalid('INVALID_ARGUMENT', 'minLedgerTimeAbs together with minLedgerTimeRel'),
  });

  test(
    'SUB-MIN-LEDGER-TIME-ABS minLedgerTimeAbs alone is accepted and bounds the effective time',
    tagsOf('SUB-MIN-LEDGER-TIME-ABS'),
    async ({ ledger, commands }) => {
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
    },
  );

  test(
    'SUB-MIN-LEDGER-TIME-REL minLedgerTimeRel alone is accepted and bounds the effective time',
    tagsOf('SUB-MIN-LEDGER-TIME-REL'),
    async ({ ledger, commands }) => {
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
    },
  );

  // ─── tapsMaxPasses (§2.1, §7, §8) ─────────────────────────────────────────────────────────────────────────

  test(
    'SUB-TAPS-WITHIN-LIMIT tapsMaxPasses within the limit is accepted',
    tagsOf('SUB-TAPS-WITHIN-LIMIT'),
    async ({ ledger, commands, settings }) => {
      const limit = settings.tapsMaxPassesLimit;
      for (const n of [...new Set([1, limit])]) {
        const res = await ledger.submitAndWaitForTransactionTree(
          commands.submitRequest({ tapsMaxPasses: n }),
          {
            label: `tapsMaxPasses ${n}`,
          },
        );
        expect.soft(res).toBeAccepted(`tapsMaxPasses ${n} (limit ${limit})`);
      }
    },
  );

  test(
    'SUB-TAPS-NONPOSITIVE tapsMaxPasses of zero or less is rejected',
    tagsOf('SUB-TAPS-NONPOSITIVE'),
    async ({ ledger, commands, target }) => {
      test.skip(
        !target.atLeast(TAPS_SINCE),
        `tapsMaxPasses came with Canton ${TAPS_SINCE}; the target reports ${target.version ?? 'no version'}, whose release ignores the field`,
      );
      for (const n of [0, -1]) {
        const res = await ledger.submitAndWaitForTransactionTree(
          commands.submitRequest({ tapsMaxPasses: n }),
          {
            label: `tapsMaxPasses ${n}`,
          },
        );
        expect.soft(res).toBeCantonError(invalid('INVALID_ARGUMENT', `tapsMaxPasses ${n}`));
      }
    },
  );

  test(
    'SUB-TAPS-ABOVE-LIMIT tapsMaxPasses above the participant limit is rejected',
    tagsOf('SUB-TAPS-ABOVE-LIMIT'),
    async ({ ledger, commands, settings, deviation }) => {
      // The limit is the participant's configuration (LEDGER_TAPS_MAX_PASSES_LIMIT, Canton's default 4).
      const limit = settings.tapsMaxPassesLimit;
      const req = commands.submitRequest({ tapsMaxPasses: limit + 1 });
      const res = await ledger.submitAndWaitForTransactionTree(req);
      await deviation.judge(
        () => expect(res).toBeRejected(`tapsMaxPasses ${limit + 1}, above the participant limit ${limit}`),
        { 'command-accepted-with-its-tree': () => commandAcceptedWithItsTree(res, req) },
      );
    },
  );

  // ─── userId and the user token (§5.3) ───────────────────────────────────────────────────────────────────────

  test(
    'SUB-USERID-FROM-TOKEN an omitted userId is taken from the user token',
    tagsOf('SUB-USERID-FROM-TOKEN'),
    async ({ ledger, commands, settings, tokens }) => {
      test.skip(
        settings.auth.kind === 'none',
        'LEDGER_AUTH=none: there is no user token to take the userId from',
      );
      const user = await tokens.userId();
      test.skip(user === undefined, 'the token is opaque and LEDGER_USER is unset: its user is unknown');
      const req = commands.submitRequest({ userId: undefined });
      await submitAccepted(ledger, req, 'a submission without userId');
      // The change ID holds the userId: naming the token's user now must find the first submission.
      const again = await ledger.submitAndWaitForTransactionTree({
        ...req,
        userId: user,
        submissionId: commands.ids.submissionId(),
      });
      expect(again).toBeRejected('the same command with the token user named (a duplicate of the first)');
    },
  );

  test(
    'SUB-USERID-MISMATCH a userId other than the token user is rejected',
    tagsOf('SUB-USERID-MISMATCH'),
    async ({ ledger, commands, settings, tokens }) => {
      test.skip(settings.auth.kind === 'none', 'LEDGER_AUTH=none: there is no token user to mismatch');
      const user = await tokens.userId();
      test.skip(user === undefined, 'the token is opaque and LEDGER_USER is unset: its user is unknown');
      const other = `not-${user}`.slice(0, 128);
      const res = await ledger.submitAndWaitForTransactionTree(commands.submitRequest({ userId: other }));
      expect(res).toBeCantonError({
        of: 'a userId other than the token user',
        status: 403,
        grpcCodeValue: 7,
      });
    },
  );

  // ─── Bodies ───────────────────────────────────────────────────────────────────────────────────────────────

  test(
    'SUB-UNKNOWN-FIELDS unknown request fields are ignored',
    tagsOf('SUB-UNKNOWN-FIELDS'),
    async ({ ledger, commands }) => {
      const req = commands.submitRequest();
      const res = await ledger.submitAndWaitForTransactionTree({
        ...req,
        conformanceUnknownString: 'ignored',
        conformanceUnknownObject: { nested: [1, 2, 3] },
        conformanceUnknownNull: null,
      } as SubmitRequest);
      expect(res).toBeAccepted('a request with unknown fields');
      expect(res.body.transactionTree?.commandId, 'the command ran').toBe(req.commandId);
    },
  );

  test(
    'SUB-EMPTY-LISTS readAs, disclosedContracts, packageIdSelectionPreference and prefetchContractKeys may be empty lists',
    tagsOf('SUB-EMPTY-LISTS'),
    async ({ ledger, commands }) => {
      // §2.1: each is optional and "May be empty": an explicit [] is a valid value, one list at a time.
      for (const field of [
        'readAs',
        'disclosedContracts',
        'packageIdSelectionPreference',
        'prefetchContractKeys',
      ] as const) {
        const req: SubmitRequest = { ...commands.submitRequest(), [field]: [] };
        const res = await ledger.submitAndWaitForTransactionTree(req, { label: `${field}: []` });
        expect.soft(res).toBeAccepted(`an empty ${field} list`);
        if (res.status === 200) {
          expect
            .soft(res.body.transactionTree?.commandId, `${field}: [] — the command ran`)
            .toBe(req.commandId);
        }
      }
    },
  );

  /** Canton's undecodable-body answer: 400 text/plain `Invalid value for: body (…)` (§1.4 g). */
  const expectBodyDecodeFailure = (res: LedgerResponse, what: string, path?: string) => {
    expect.soft(res, what).toHaveStatus(400);
    expect.soft(res.contentType, `${what}: text/plain`).toMatch(/^text\/plain\b/);
    expect
      .soft(res.text, `${what}: Invalid value for: body (…)`)
      .toMatch(/^Invalid value for: body \(.*\)$/s);
    if (path !== undefined) expect.soft(res.text, `${what}: names '${path}'`).toContain(`'${path}'`);
  };

  test(
    'SUB-MALFORMED-JSON a body that is not JSON is rejected with 400',
    tagsOf('SUB-MALFORMED-JSON'),
    async ({ ledger, commands }) => {
      const valid = JSON.stringify(commands.submitRequest());
      const bodies = [
        { what: 'a truncated JSON document', body: valid.slice(0, Math.floor(valid.length / 2)) },
        { what: 'text that is not JSON', body: 'this is not json' },
        { what: 'JSON with a trailing comma', body: valid.replace(/}$/, ',}') },
      ];
      for (const b of bodies) {
        const res = await ledger.send({
          method: 'POST',
          path: PATHS.submitTree,
          body: b.body,
          label: b.what,
        });
        expectBodyDecodeFailure(res, b.what);
      }
    },
  );

  test(
    'SUB-WRONG-TYPES a body with wrong field types or a missing required key is rejected with 400',
    tagsOf('SUB-WRONG-TYPES'),
    async ({ ledger, commands }) => {
      const cases: { what: string; path: string; mutate: (r: Record<string, unknown>) => unknown }[] = [
        { what: 'commandId a number', path: 'commandId', mutate: (r) => ({ ...r, commandId: 42 }) },
        { what: 'actAs a string', path: 'actAs', mutate: (r) => ({ ...r, actAs: (r.actAs as string[])[0] }) },
        { what: 'commands an object', path: 'commands', mutate: (r) => ({ ...r, commands: {} }) },
        { what: 'readAs a number', path: 'readAs', mutate: (r) => ({ ...r, readAs: 7 }) },
        { what: 'commands missing', path: 'commands', mutate: ({ commands: _c, ...r }) => r },
        { what: 'actAs missing', path: 'actAs', mutate: ({ actAs: _a, ...r }) => r },
      ];
      for (const c of cases) {
        const body = c.mutate(commands.submitRequest() as unknown as Record<string, unknown>);
        const res = await ledger.send({ method: 'POST', path: PATHS.submitTree, body, label: c.what });
        expectBodyDecodeFailure(res, c.what, c.path);
      }
      const array = await ledger.send({
        method: 'POST',
        path: PATHS.submitTree,
        body: [],
        label: 'a JSON array',
      });
      expectBodyDecodeFailure(array, 'a JSON array as the body');
    },
  );

  test(
    'SUB-TRACEPARENT a traceparent header comes back in traceContext',
    tagsOf('SUB-TRACEPARENT'),
    async ({ ledger, commands }) => {
      const { header, traceId } = newTraceparent();
      const tree: JsTransactionTree = await submitAccepted(
        ledger,
        commands.submitRequest(),
        'a traced submission',
        {
          headers: { traceparent: header },
        },
      );
      // Canton's own test asserts the trace id; the span id is the participant's.
      expect(tree.traceContext?.traceparent, 'traceContext.traceparent carries the trace id').toMatch(
        new RegExp(`^00-${traceId}-[0-9a-f]{16}-[0-9a-f]{2}$`),
      );
    },
  );

  // ─── §9.3 ────────────────────────────────────────────────────────────────────────────────────────────────

  test(
    'SUB-TREE-REMOVED-3-5 a server release 3.5.0 or later no longer serves the transaction tree',
    tagsOf('SUB-TREE-REMOVED-3-5'),
    async ({ ledger, commands, target, deviation }) => {
      test.skip(
        !target.atLeast('3.5.0'),
        `the removal applies from the server release 3.5.0; the target reports ${target.version ?? 'no version'}`,
      );
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
    },
  );
});
