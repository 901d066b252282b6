// Soak: `npm run sandbox` as its own process on 127.0.0.1 (port 0), over real HTTP, a storm of concurrent
// submissions — 50 change IDs × 8 copies each (identical, or differing only in what is not part of the change
// ID: submissionId, readAs, workflowId, actAs order, the command's label), shuffled among 100 distinct
// submissions and sent all at once. Exactly one copy per change ID is accepted, the other seven are
// DUPLICATE_COMMAND naming the accepted one's offset, every distinct submission is accepted, and every
// accepted transaction is in the ledger: the contract it created answers `Inspect` with the label of the
// copy that was accepted, and the ledger end counts exactly the accepted transactions. Bounded in size, not in time.
import { spawn, type ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect, test } from '../support/test';
import { claim } from '../support/claim';
import { Agent, request } from 'undici';
import { ALICE, ASSET_BY_ID, ASSET_BY_NAME, BOB, CHARLIE, PATH, userToken } from './submit-kit';

const CHANGE_IDS = 50;
const COPIES = 8;
const DISTINCT = 100;
/** Far above what the soak takes beside a busy process; no assertion is timed. */
const TIMEOUT_MS = 60_000;

interface Sent {
  /** The change ID's index, or undefined for a distinct submission. */
  change: number | undefined;
  copy: number;
  user: string;
  body: Record<string, unknown>;
}
interface Received {
  status: number;
  json: Record<string, unknown>;
}
interface Tree {
  offset: number;
  updateId: string;
  commandId: string;
  eventsById: Record<string, { CreatedTreeEvent?: { value: { contractId: string } } }>;
}

/** A deterministic shuffle (mulberry32), so a failing order can be replayed. */
function shuffle<T>(items: T[], seed: number): T[] {
  let a = seed >>> 0;
  const next = (): number => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

const transfer = (issuer: string, label: string, templateId = ASSET_BY_NAME) => ({
  CreateAndExerciseCommand: {
    templateId,
    createArguments: { issuer, owner: issuer, amount: '1.5', label },
    choice: 'Transfer',
    choiceArgument: { newOwner: BOB },
  },
});

/** The storm: every copy of every change ID and every distinct submission, in one shuffled list. */
function storm(run: string): Sent[] {
  const sent: Sent[] = [];
  for (let i = 0; i < CHANGE_IDS; i++) {
    // Pairs of change IDs share a commandId: the second is another user's (conformance2), so a distinct change.
    const commandId = `${run}-cmd-${Math.floor(i / 2)}`;
    const user = i % 2 === 0 ? 'conformance' : 'conformance2';
    const actAs = i % 3 === 0 ? [ALICE, BOB] : [ALICE];
    for (let copy = 0; copy < COPIES; copy++) {
      const body: Record<string, unknown> = {
        commands: [transfer(ALICE, `change ${i} copy ${copy}`, copy % 2 ? ASSET_BY_ID : ASSET_BY_NAME)],
        commandId,
        // The set of actAs is part of the change ID, not its order.
        actAs: copy % 4 === 3 ? [...actAs].reverse() : actAs,
      };
      if (copy % 2 === 1) body.submissionId = `${run}-sub-${i}-${copy}`;
      if (copy % 3 === 1) body.readAs = [CHARLIE];
      if (copy % 4 === 2) body.workflowId = `${run}-wf-${copy}`;
      sent.push({ change: i, copy, user, body });
    }
  }
  for (let d = 0; d < DISTINCT; d++) {
    sent.push({
      change: undefined,
      copy: 0,
      user: 'conformance',
      body: {
        commands: [transfer(ALICE, `distinct ${d}`)],
        commandId: `${run}-distinct-${d}`,
        actAs: [ALICE],
      },
    });
  }
  return shuffle(sent, 4711);
}

let child: ChildProcess;
let baseUrl: string;
const agent = new Agent({ connections: 64, pipelining: 1 });

test.beforeAll(async () => {
  child = spawn(process.execPath, ['--require', 'tsx/cjs', 'sandbox/main.ts', '--port', '0'], {
    cwd: `${__dirname}/../..`,
    // Only what the sandbox needs: the machine's SANDBOX_* settings must not change this test.
    env: { PATH: process.env.PATH ?? '' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const lines = createInterface({ input: child.stdout! });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  baseUrl = /http:\/\/127\.0\.0\.1:\d+/.exec(line)?.[0] ?? '';
  expect(baseUrl, line).not.toBe('');
});

test.afterAll(async () => {
  await agent.close();
  if (child && child.exitCode === null) {
    child.kill('SIGTERM');
    await once(child, 'exit');
  }
});

async function post(body: unknown, token: string): Promise<Received> {
  const res = await request(`${baseUrl}${PATH}`, {
    method: 'POST',
    dispatcher: agent,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, json: JSON.parse(text) as Record<string, unknown> };
}

test('soak: 50 change IDs × 8 concurrent copies among 100 distinct submissions — one accepted per change ID, all in the ledger', async () => {
  test.setTimeout(TIMEOUT_MS);
  const started = performance.now();
  const tokens: Record<string, string> = {
    conformance: await userToken('conformance'),
    conformance2: await userToken('conformance2'),
  };
  const run = `soak-${Date.now()}`;
  const sent = storm(run);
  expect(sent.length).toBe(CHANGE_IDS * COPIES + DISTINCT);

  // 1. The storm, all at once.
  const received = await Promise.all(sent.map((s) => post(s.body, tokens[s.user]!)));
  const stormMs = performance.now() - started;

  const accepted = new Map<number, { sent: Sent; tree: Tree }>();
  const distinct: { sent: Sent; tree: Tree }[] = [];
  const duplicates: { sent: Sent; json: Record<string, unknown> }[] = [];
  received.forEach((r, i) => {
    const s = sent[i]!;
    const what = `change ${s.change ?? '-'} copy ${s.copy}: ${r.status} ${JSON.stringify(r.json).slice(0, 300)}`;
    if (s.change === undefined) {
      claim(r.status, `a distinct submission is accepted — ${what}`).toBe(200);
      distinct.push({ sent: s, tree: r.json.transactionTree as Tree });
    } else if (r.status === 200) {
      claim(accepted.has(s.change), `a second copy accepted — ${what}`).toBe(false);
      accepted.set(s.change, { sent: s, tree: r.json.transactionTree as Tree });
    } else {
      claim(r.status, `a copy is accepted or a duplicate — ${what}`).toBe(409);
      claim(r.json.code, what).toBe('DUPLICATE_COMMAND');
      duplicates.push({ sent: s, json: r.json });
    }
  });
  expect(accepted.size, 'exactly one copy of every change ID is accepted').toBe(CHANGE_IDS);
  expect(duplicates.length).toBe(CHANGE_IDS * (COPIES - 1));
  expect(distinct.length).toBe(DISTINCT);

  // 2. Every duplicate names its change ID's accepted transaction.
  for (const d of duplicates) {
    const first = accepted.get(d.sent.change!)!;
    const context = d.json.context as Record<string, string>;
    claim(context.completion_offset, `change ${d.sent.change}`).toBe(String(first.tree.offset));
    claim(context.changeId, `change ${d.sent.change}`).toContain(
      `ChangeId(${d.sent.user},${String(d.sent.body.commandId)},`,
    );
  }

  // 3. Offsets: one per accepted transaction, distinct and contiguous; update ids distinct.
  const trees = [...[...accepted.values()].map((a) => a.tree), ...distinct.map((d) => d.tree)];
  const offsets = trees.map((t) => t.offset).sort((a, b) => a - b);
  expect(new Set(offsets).size).toBe(trees.length);
  expect(offsets[offsets.length - 1]! - offsets[0]!).toBe(trees.length - 1);
  expect(new Set(trees.map((t) => t.updateId)).size).toBe(trees.length);

  // 4. In the ledger: each transfer's new contract (node 2, owned by Bob) is active and carries the label of
  //    the copy that was accepted — Inspect (non-consuming, controller owner) returns it.
  const committed = [...accepted.values(), ...distinct];
  const inspections = await Promise.all(
    committed.map(({ tree }, i) => {
      const contractId = tree.eventsById['2']?.CreatedTreeEvent?.value.contractId;
      claim(contractId, `the transfer of ${tree.commandId} created a contract`).toBeDefined();
      return post(
        {
          commands: [
            {
              ExerciseCommand: {
                templateId: ASSET_BY_NAME,
                contractId,
                choice: 'Inspect',
                choiceArgument: {},
              },
            },
          ],
          commandId: `${run}-inspect-${i}`,
          actAs: [BOB],
        },
        tokens.conformance!,
      );
    }),
  );
  inspections.forEach((r, i) => {
    const { sent: s, tree } = committed[i]!;
    const label = (s.body.commands as ReturnType<typeof transfer>[])[0]!.CreateAndExerciseCommand
      .createArguments.label;
    claim(r.status, `Inspect of ${tree.commandId}: ${JSON.stringify(r.json).slice(0, 300)}`).toBe(200);
    const events = (r.json.transactionTree as { eventsById: Record<string, unknown> }).eventsById;
    const exercised = (events['0'] as { ExercisedTreeEvent: { value: { exerciseResult: unknown } } })
      .ExercisedTreeEvent.value;
    claim(exercised.exerciseResult, `the ledger holds the accepted copy of ${tree.commandId}`).toBe(label);
  });

  // 5. Nothing else was committed: the ledger end is exactly the accepted transactions plus the inspections
  //    (the next transaction's offset), and the transferred-away contract of a storm transaction is gone.
  const probe = await post(
    { commands: [transfer(ALICE, 'probe')], commandId: `${run}-probe`, actAs: [ALICE] },
    tokens.conformance!,
  );
  expect(probe.status).toBe(200);
  expect((probe.json.transactionTree as Tree).offset).toBe(offsets[0]! + trees.length + committed.length);
  const consumed = trees[0]!.eventsById['0']?.CreatedTreeEvent?.value.contractId;
  const gone = await post(
    {
      commands: [
        {
          ExerciseCommand: {
            templateId: ASSET_BY_NAME,
            contractId: consumed,
            choice: 'Inspect',
            choiceArgument: {},
          },
        },
      ],
      commandId: `${run}-gone`,
      actAs: [ALICE],
    },
    tokens.conformance!,
  );
  expect(gone.status, JSON.stringify(gone.json)).toBe(404);
  expect(gone.json.code).toBe('CONTRACT_NOT_FOUND');

  // 6. The deduplication state survived the storm: a late copy of every change ID is still a duplicate.
  const late = await Promise.all(
    [...accepted.values()].map(({ sent: s }) =>
      post({ ...s.body, submissionId: `${run}-late` }, tokens[s.user]!),
    ),
  );
  late.forEach((r, i) => {
    claim(r.status, JSON.stringify(r.json).slice(0, 200)).toBe(409);
    const first = [...accepted.values()][i]!;
    claim((r.json.context as Record<string, string>).completion_offset).toBe(String(first.tree.offset));
  });

  const totalMs = performance.now() - started;
  test.info().annotations.push({
    type: 'timing',
    description: `${sent.length} storm requests in ${Math.round(stormMs)} ms; whole soak ${Math.round(totalMs)} ms`,
  });
  console.log(
    `[sandbox-soak] ${sent.length} concurrent submissions in ${Math.round(stormMs)} ms, whole soak ${Math.round(totalMs)} ms`,
  );
});
