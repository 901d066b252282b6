// The participant's own API description through real `npm run conformance` runs of one rule against the in-process
// sandbox, one target, one history: as 3.4.11 (the document differences of 3.4.11, the vetting path among them, all
// known), then as 3.5.x with the description fault on (every change since, with the rules reading each field; the
// dropped field named). No verdict changes: each run passes. The same description twice, kept and read back
// through a target's history, is selftest/core/openapi-drift.test.ts's.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { cleanEnv, LEAN_RUN_CONFIG, runNode, type ChildOutcome } from '../support/child-run';
import { changesMessage, readRun } from '../../scripts/nightly/notify-changes';
import type { DescriptionReport } from '../../reporters/openapi-drift';

test.describe.configure({ mode: 'serial' });
// A child run of one rule takes seconds alone, several times that beside a CPU-bound process.
test.describe.configure({ timeout: 120_000 });

let out: string;

function conformance(env: Record<string, string>): Promise<ChildOutcome> {
  return runNode(
    ['--require', 'tsx/cjs', 'scripts/run/conformance.ts', '-c', LEAN_RUN_CONFIG, '--grep', 'VER-SEMVER'],
    { ...cleanEnv(), LEDGER_REPORTS_DIR: out, ...env },
  );
}

const markdown = () => readFileSync(join(out, 'conformance.md'), 'utf8');
const description = () =>
  (JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as { description: DescriptionReport })
    .description;
const infoLine = (o: ChildOutcome) => /^ {2}description {3}(.*)$/m.exec(o.stdout)?.[1];

test.beforeAll(() => {
  out = mkdtempSync(join(tmpdir(), 'description-run-'));
});
test.afterAll(() => rmSync(out, { recursive: true, force: true }));

test('as 3.4.11: the known differences from the document, the vetting path among them, and nothing else', async () => {
  const run = await conformance({ SANDBOX_VERSION: '3.4.11' });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  expect(infoLine(run)).toBe(
    'read: 27 differences from the document (27 known); no earlier description of this target',
  );
  const d = description();
  expect(d.document.filter((l) => !l.known)).toEqual([]);
  expect(markdown()).toContain(
    '- vetting-list (path): POST /v2/package-vetting/list → GET /v2/package-vetting — rules: VET-SHAPE,',
  );
  expect(markdown()).not.toContain('Changed since the previous run');
});

test('switched to 3.5.x with the description fault: each change with the rules reading it; verdicts unchanged', async () => {
  const run = await conformance({ SANDBOX_VERSION: '3.5.2', SANDBOX_FAULTS: 'description-drift' });
  expect(run.status, run.stdout + run.stderr).toBe(0);
  const md = markdown();
  for (const line of [
    '- vetting-list (path): GET /v2/package-vetting → POST /v2/package-vetting/query — rules: VET-SHAPE,',
    '- submit-tree JsTransactionTree.offset: integer (int64) → absent — rules: SUB-OFFSETS-INCREASE, SUB-SHAPE',
    '- submit-tree JsCommands.tapsMaxPasses: absent → integer (int32) — rules: SUB-TAPS-ABOVE-LIMIT, SUB-TAPS-NONPOSITIVE, SUB-TAPS-WITHIN-LIMIT, SUB-WRONG-TYPES',
  ])
    expect(md).toContain(line);
  // Against the document, only the fault's two are not known.
  expect(
    description()
      .document.filter((l) => !l.known)
      .map((l) => l.at),
  ).toEqual(['(path)', 'JsTransactionTree.offset']);
  expect(run.stdout).toMatch(/API description: read: .*2 not known \(conformance\.md\)/);
  const message = changesMessage([readRun(out)], {});
  expect(message).toMatch(/API description changed: \d+ \(vetting-list path, /);
});
