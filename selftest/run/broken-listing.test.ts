// A participant whose own vetting listing is wrong is never taken for a wrong setting: against the sandbox
// started as a separate participant with a fault in its listing, the run's check of the template's package
// (which rests on that listing) blocks only the rules that submit, naming what the listing said, and the VET-
// rules judge the listing: one fails, exit 1. With the listing right and the template's package truly missing,
// the VET- rules pass and the run exits 2 naming LEDGER_COMMAND_TEMPLATE. `npm run conformance` on the lean
// config: the verdicts and the exit code are all it reads, no Allure report to build.
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { cleanEnv, LEAN_RUN_CONFIG, runNode, type ChildOutcome } from '../support/child-run';
import { minimal, PARTICIPANT, staging, type Staging } from '../support/staging-kit';
import { EXIT } from '../../core/exit-codes';

interface Row {
  id: string;
  verdict: string;
  reasons: string[];
}

async function run(t: Staging, grep: string, env: Record<string, string> = {}) {
  const out = mkdtempSync(join(tmpdir(), 'broken-listing-'));
  const child: ChildOutcome = await runNode(
    ['--require', 'tsx/cjs', 'scripts/run/conformance.ts', '-c', LEAN_RUN_CONFIG, '--grep', grep],
    { ...cleanEnv(), ...minimal(t, 'qa-runner'), LEDGER_REPORTS_DIR: out, ...env },
  );
  const matrix = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as { rules: Row[] };
  const row = (id: string) => matrix.rules.find((r) => r.id === id)!;
  return { child, row };
}

const BLOCKED = new RegExp(
  `^blocked by the participant's vetting listing: POST /v2/package-vetting/list listed \\d+ entr(?:y|ies) of ${PARTICIPANT.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} `,
);

test.describe('a broken vetting listing is judged, not blamed on a setting', () => {
  test.describe.configure({ mode: 'default' });
  const targets: Record<string, Staging> = {};
  test.beforeAll(async () => {
    [targets.noPackages, targets.firstEmpty, targets.healthy] = await Promise.all([
      staging({ SANDBOX_FAULTS: 'vet-own-entry-no-packages' }),
      staging({ SANDBOX_FAULTS: 'vet-first-page-empty' }),
      staging(),
    ]);
  });
  test.afterAll(async () => {
    await Promise.all(Object.values(targets).map((t) => t.app.close()));
  });

  test('own entries with no package: the VET- rules fail (exit 1), the submitting rules blocked by the listing', async () => {
    test.setTimeout(180_000);
    const { child, row } = await run(
      targets.noPackages!,
      'VET-FILTER-ENTRY-HAS-MATCH|VET-PAGE-ORDER|SUB-SHAPE|SUB-ECHO-IDS',
    );
    expect(child.status, child.stdout.slice(-2000) + child.stderr).toBe(EXIT.failed);
    expect(row('VET-FILTER-ENTRY-HAS-MATCH').verdict).toBe('fail');
    expect(row('VET-PAGE-ORDER').verdict).toBe('pass');
    for (const id of ['SUB-SHAPE', 'SUB-ECHO-IDS']) {
      expect(row(id).verdict, id).toBe('skip');
      expect(row(id).reasons[0], id).toMatch(BLOCKED);
      expect(row(id).reasons[0], id).toContain('(2 with no package at all)');
    }
    expect(child.stderr).toMatch(
      /the participant's vetting listing fails VET-FILTER-ENTRY-HAS-MATCH: the rules that submit were blocked by what it said/,
    );
    expect(child.stderr).not.toMatch(/LEDGER_COMMAND_TEMPLATE:|set LEDGER_SYNCHRONIZER_ID/);
  });

  test('the server-sized first page empty with a token: a VET- rule fails (exit 1), nothing blocked', async () => {
    test.setTimeout(180_000);
    const { child, row } = await run(targets.firstEmpty!, 'VET-PAGE-SIZE-DEFAULT-MAX|SUB-SHAPE');
    expect(child.status, child.stdout.slice(-2000) + child.stderr).toBe(EXIT.failed);
    expect(row('VET-PAGE-SIZE-DEFAULT-MAX').verdict).toBe('fail');
    expect(row('SUB-SHAPE').verdict).toBe('pass');
  });

  test("the listing right, the template's package not vetted: the VET- rules pass, exit 2 naming LEDGER_COMMAND_TEMPLATE", async () => {
    test.setTimeout(180_000);
    const t = targets.healthy!;
    const template = join(t.dir, 'acme.json');
    const command = {
      CreateCommand: { templateId: '#acme-treasury:Acme:Transfer', createArguments: { owner: '{{actAs0}}' } },
    };
    writeFileSync(template, JSON.stringify({ commands: [command] }));
    const { child, row } = await run(t, 'VET-FILTER-ENTRY-HAS-MATCH|VET-PAGE-ORDER|SUB-SHAPE', {
      LEDGER_COMMAND_TEMPLATE: template,
    });
    expect(child.status, child.stdout.slice(-2000) + child.stderr).toBe(EXIT.badSetting);
    expect(row('VET-FILTER-ENTRY-HAS-MATCH').verdict).toBe('pass');
    expect(row('SUB-SHAPE').reasons[0]).toMatch(BLOCKED);
    const lines = child.stderr.trimEnd().split('\n');
    expect(lines.at(-1)).toMatch(
      /^ledger-conformance: LEDGER_COMMAND_TEMPLATE: its package acme-treasury is vetted by \S+ on no synchronizer .*\(the VET- rules pass: the participant's listing stands\)$/,
    );
  });
});
