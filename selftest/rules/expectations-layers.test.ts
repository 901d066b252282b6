// Expectations in layers (rules/expectations.ts): a team's file adds to Canton's baseline, an entry past its
// `until` day no longer excuses and is listed as expired, an entry matching no test is listed as stale, and a
// malformed file stops the run with one line naming the file, the entry and the fix. One child run proves it
// end to end (VER- rules, the sandbox breaking VER-SEMVER and VER-SHAPE).
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import {
  entriesFor,
  ExpectationsError,
  loadLayers,
  parseLayer,
  placed,
  type Baseline,
} from '../../rules/expectations';
import { expectationsStatus } from '../../reporters/expectations-status';
import { expectationsInfo } from '../../scripts/run/expectations-info';
import { cleanEnv, LEAN_RUN_CONFIG, runNode } from '../support/child-run';
import { EXIT } from '../../core/exit-codes';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { withTempDir } from '../support/temp-dir';

/** VER-FEATURES' title in the catalogue: each of its tests is titled `VER-FEATURES <this> — <feature>`. */
const FEATURES = 'every feature of the descriptor is present with a sane value';

const team = (deviations: Baseline['deviations']): string => JSON.stringify({ name: 'team', deviations });

/** A team file in a fresh folder; returns its path. */
function teamFile(dir: string, deviations: Baseline['deviations']): string {
  const file = join(dir, 'team.json');
  writeFileSync(file, team(deviations));
  return file;
}

test.describe('expectations layers', () => {
  let dir: string;
  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'expectations-'));
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("a team file adds to Canton's baseline: both apply", () => {
    const file = teamFile(dir, [{ rule: 'VER-SEMVER', expect: 'fail', reason: 'our proxy rewrites it' }]);
    const layers = loadLayers(`auto,${file}`, '3.4.11');
    expect(layers.map((l) => l.from)).toEqual(['canton', file]);
    expect(entriesFor(layers, 'VER-AUTH-REQUIRED', 'VER-AUTH-REQUIRED x', '3.4.11').active?.layer).toBe(
      'canton',
    );
    expect(entriesFor(layers, 'VER-SEMVER', 'VER-SEMVER y', '3.4.11').active?.layer).toBe(file);
    // `none` leaves Canton's out; a non-3.x target gets no Canton baseline with auto.
    expect(loadLayers(`none,${file}`, '3.4.11').map((l) => l.from)).toEqual([file]);
    expect(loadLayers(file, '2.9.0').map((l) => l.from)).toEqual([file]);
  });

  test('an entry narrows to one test; past its until day it no longer excuses', () => {
    const layers = [
      parseLayer(
        team([
          { rule: 'VER-FEATURES', test: `${FEATURES} — a.b`, expect: 'fail', reason: 'r' },
          { rule: 'VER-SEMVER', expect: 'fail', reason: 'r', until: '2026-01-31' },
        ]),
        'team.json',
      ),
    ];
    const title = (s: string) => `VER-FEATURES ${FEATURES} — ${s}`;
    expect(entriesFor(layers, 'VER-FEATURES', title('a.b'), '3.4.0').active).toBeDefined();
    expect(entriesFor(layers, 'VER-FEATURES', title('a.c'), '3.4.0').active).toBeUndefined();
    expect(entriesFor(layers, 'VER-SEMVER', 'VER-SEMVER t', '3.4.0', '2026-01-31').active).toBeDefined();
    const late = entriesFor(layers, 'VER-SEMVER', 'VER-SEMVER t', '3.4.0', '2026-02-01');
    expect(late.active).toBeUndefined();
    expect(late.expired.map((d) => d.key)).toEqual(['team.json#2']);
  });

  test('expired and stale entries are listed, entries of rules outside the selection are not', () => {
    const file = teamFile(dir, [
      { rule: 'VER-SEMVER', expect: 'fail', reason: 'old', until: '2020-01-01' },
      { rule: 'VER-FEATURES', test: `${FEATURES} — gone`, expect: 'fail', reason: 'renamed' },
      { rule: 'VET-SHAPE', expect: 'fail', reason: 'not selected' },
    ]);
    const info = expectationsInfo(`none,${file}`, '3.4.11', '2026-11-26');
    const status = expectationsStatus(info, new Set(), new Set(['VER-SEMVER', 'VER-FEATURES']));
    expect(status.expired.map((e) => e.rule)).toEqual(['VER-SEMVER']);
    // A detail after the rule's title is the spec's: only the run's tests show that it names none.
    expect(status.stale.map((e) => [e.rule, e.why])).toEqual([
      ['VER-FEATURES', `no test of VER-FEATURES is titled "${FEATURES} — gone"`],
    ]);
    expect(placed(loadLayers(`none,${file}`, '3.4.11'))).toHaveLength(3);
  });

  test('a malformed file: one line naming the file, the entry and the fix', () => {
    const cases: [string, string][] = [
      [
        team([{ rule: 'VER-SEMVER', expect: 'fail' } as never]),
        'bad.json, entry 1 (VER-SEMVER): add "reason"',
      ],
      [
        team([{ rule: 'VER-SEMVER', expect: 'fail', reason: 'r', until: '31/12/2026' }]),
        'bad.json, entry 1 (VER-SEMVER): write "until" as a date, YYYY-MM-DD',
      ],
      [
        team([{ rule: 'VER-SEMVER', expect: 'maybe', reason: 'r' } as never]),
        'bad.json, entry 1 (VER-SEMVER): set "expect" to one of "fail", "skip"',
      ],
      ['{"name": "x", "deviations": [', 'bad.json is not JSON'],
      // Checked against the catalogue before any test: a typo never waits for the run to show it as stale.
      [
        team([{ rule: 'SUB-DEDUP-NEGATIV-PERIOD', expect: 'fail', reason: 'r' }]),
        'bad.json, entry 1 (SUB-DEDUP-NEGATIV-PERIOD): no rule SUB-DEDUP-NEGATIV-PERIOD in the catalogue (did you mean SUB-DEDUP-NEGATIVE-PERIOD?)',
      ],
      [
        team([{ rule: 'VER-SHAPE', test: 'no such test', expect: 'fail', reason: 'r' }]),
        'bad.json, entry 1 (VER-SHAPE): "test" names no test of VER-SHAPE: its tests are titled "VER-SHAPE the version response',
      ],
    ];
    for (const [text, line] of cases) {
      let message = '';
      try {
        parseLayer(text, 'bad.json');
      } catch (e) {
        expect(e).toBeInstanceOf(ExpectationsError);
        message = (e as Error).message;
      }
      expect(message).toContain(line);
      expect(message).not.toContain('\n');
    }
  });

  test('end to end: the waiver and Canton’s deviation both apply, the expired one is listed, a wrong file exits 2 before any test', async () => {
    test.setTimeout(180_000);
    await withTempDir('expectations-run-', async (out) => {
      const file = teamFile(out, [
        { rule: 'VER-SEMVER', expect: 'fail', reason: 'waived by QA', owner: 'qa', until: '2999-12-31' },
        { rule: 'VER-SHAPE', expect: 'fail', reason: 'waiver that ran out', until: '2020-01-01' },
      ]);
      const env = {
        ...cleanEnv(),
        LEDGER_REPORTS_DIR: out,
        LEDGER_EXPECTATIONS: `auto,${file}`,
        SANDBOX_FAULTS: 'ver-not-semver',
      };
      // Playwright itself with the lean config: the rule matrix and the run-information block are all it reads.
      const run = await runNode(
        playwrightCommand('test', '-c', LEAN_RUN_CONFIG, '--grep', 'VER-(SEMVER|SHAPE|STABLE|AUTH-REQUIRED)'),
        env,
      );
      const matrix = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
        rules: { id: string; verdict: string; reasons: string[] }[];
        expectations: { expired: { rule: string }[]; stale: { rule: string }[] };
      };
      const row = (id: string) => matrix.rules.find((r) => r.id === id)!;
      expect(row('VER-SEMVER').verdict, run.stdout).toBe('known-deviation');
      expect(row('VER-SEMVER').reasons[0]).toContain('waived by');
      expect(row('VER-SHAPE').verdict, 'an expired waiver no longer excuses').toBe('fail');
      expect(matrix.expectations.expired.map((e) => e.rule)).toEqual(['VER-SHAPE']);
      expect(matrix.expectations.stale).toEqual([]);
      expect(run.stdout).toMatch(
        /expectations\s+canton \(5 entries\) \+ .*team\.json \(2 entries, 1 expired\)/,
      );

      writeFileSync(file, team([{ rule: 'VER-SEMVER', expect: 'fail', reason: 'r', until: 'soon' }]));
      const bad = await runNode(['--require', 'tsx/cjs', 'scripts/run/conformance.ts'], env);
      expect(bad.status, bad.stderr).toBe(EXIT.badSetting);
      expect(bad.stderr.trim().split('\n')).toEqual([
        `ledger-conformance: LEDGER_EXPECTATIONS=auto,${file}: ${file}, entry 1 (VER-SEMVER): write "until" as a date, YYYY-MM-DD (the format: rules/expectations/README.md; auto, canton and none name Canton's baseline)`,
      ]);
      // The run stopped by the malformed file left no matrix of the run before to be read as its own.
      expect(existsSync(join(out, 'conformance.json')), "the earlier run's matrix").toBe(false);
      // A title whose detail names no test of the suite (the spec's part, past the catalogue's title): the same,
      // once the suite is loaded and before any test (reporters/expectations-titles.ts).
      const renamed = { rule: 'VER-STABLE', test: 'two reads of the version agree — renamed' };
      writeFileSync(file, team([{ ...renamed, expect: 'fail', reason: 'stale' }]));
      const title = await runNode(
        ['--require', 'tsx/cjs', 'scripts/run/conformance.ts', '--grep', 'VER-STABLE'],
        env,
      );
      expect(title.status, title.stderr).toBe(EXIT.badSetting);
      expect(title.stderr).toContain(
        `entry 1 (VER-STABLE): "test" names no test of the suite: fix it to one of "two reads of the version agree"`,
      );
      expect(title.stdout, 'no test ran').not.toMatch(/✓|✘/);
    });
  });
});
