// The command factory builds requests the request schema accepts, for any seed; ids are run-unique
// LedgerStrings; one-field overrides change exactly that field; the id generators agree with the schemas'
// grammars (valid boundaries accepted, invalid values rejected) — two independent readings of the rules.
import { writeFileSync } from 'node:fs';
import { expect, test } from '../support/test';
import fc from 'fast-check';
import { defRef, validate } from '../../schemas';
import { CommandFactory, RunIds, seededFaker, seedOf } from '../../core/command-factory';
import {
  GRAMMARS,
  invalidSynchronizerIds,
  invalidValues,
  validBoundaries,
  type GrammarName,
} from '../../core/grammars';
import { DEV_NAMESPACE } from '../../core/dev-defaults';
import { SettingsError } from '../../core/settings';
import { settingsFor } from '../support/harness-kit';

const settings = settingsFor();
const factory = (seed: number, ruleId = 'SUB-SHAPE') =>
  new CommandFactory(
    seededFaker(seed),
    new RunIds('20250101-000000-abcd', ruleId, 3),
    settings,
    'conformance',
  );

test('for any seed, the default submission validates against the request schema', () => {
  fc.assert(
    fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
      const req = factory(seed).submitRequest();
      expect(validate('submit-request', req), `seed ${seed}`).toEqual([]);
    }),
    { numRuns: 300 },
  );
});

test('the same seed builds the same values (ids aside)', () => {
  const strip = ({ commandId: _c, submissionId: _s, workflowId: _w, ...rest }: Record<string, unknown>) =>
    rest;
  const a = factory(seedOf('SUB-SHAPE a title')).submitRequest();
  const b = factory(seedOf('SUB-SHAPE a title')).submitRequest();
  const c = factory(seedOf('SUB-SHAPE another title')).submitRequest();
  expect(strip({ ...a })).toEqual(strip({ ...b }));
  expect(strip({ ...a })).not.toEqual(strip({ ...c }));
});

test('the template is filled: parties from actAs, a Numeric-10 amount, no placeholder left', () => {
  const req = factory(7).submitRequest();
  const text = JSON.stringify(req.commands);
  expect(text).not.toMatch(/\{\{/);
  const cmd = (req.commands[0] as { CreateAndExerciseCommand: Record<string, Record<string, string>> })
    .CreateAndExerciseCommand;
  expect(cmd.createArguments).toMatchObject({ issuer: settings.actAs[0], owner: settings.actAs[0] });
  expect(cmd.createArguments!.amount).toMatch(/^\d+\.\d{10}$/);
  expect(cmd.choiceArgument).toEqual({ newOwner: settings.actAs[1] });
});

test('ids are unique across a run, carry the run and rule id, and are valid LedgerStrings', () => {
  const ids = new RunIds('20250101-000000-abcd', 'SUB-DEDUP-PARALLEL', 12);
  const seen = new Set<string>();
  const problems: string[] = [];
  // Checked in plain code, one expect at the end: thousands of expect calls would take half a minute.
  for (let i = 0; i < 2000; i++) {
    const id = [ids.commandId(), ids.submissionId(), ids.workflowId()][i % 3]!;
    if (seen.has(id)) problems.push(`repeated: ${id}`);
    seen.add(id);
    if (!id.startsWith('20250101-000000-abcd:SUB-DEDUP-PARALLEL:w12:'))
      problems.push(`no run/rule prefix: ${id}`);
    if (validate(defRef('LedgerString'), id).length) problems.push(`not a LedgerString: ${id}`);
  }
  expect(problems).toEqual([]);
});

test('an override changes one field; undefined removes it', () => {
  const f = factory(1);
  const base = f.submitRequest();
  const mutated = f.submitRequest({ commandId: '', userId: undefined, tapsMaxPasses: 0 });
  expect(mutated.commandId).toBe('');
  expect('userId' in mutated).toBe(false);
  expect(mutated.tapsMaxPasses).toBe(0);
  expect(Object.keys(mutated).sort()).toEqual(
    [...Object.keys(base).filter((k) => k !== 'userId'), 'tapsMaxPasses'].sort(),
  );
  expect(f.submitRequest({ commands: [] }).commands).toEqual([]);
});

const DEF_OF: Record<GrammarName, Parameters<typeof defRef>[0]> = {
  LedgerString: 'LedgerString',
  PartyIdString: 'PartyIdString',
  UserIdString: 'UserIdString',
};

for (const name of Object.keys(GRAMMARS) as GrammarName[]) {
  test(`${name}: boundary values are valid and invalid values are not, per the schema's grammar`, () => {
    const max = GRAMMARS[name].maxLength;
    const valid = validBoundaries(name, { prefix: 'run1-' }, '3.4.11');
    expect(valid[0]!.value).toHaveLength(max);
    for (const p of GRAMMARS[name].punctuation) expect(valid[0]!.value).toContain(p);
    for (const c of valid)
      expect(validate(defRef(DEF_OF[name]), c.value), `${c.description}: ${c.value}`).toEqual([]);
    const invalid = invalidValues(name, { prefix: 'run1-' });
    expect(invalid.find((c) => c.description.startsWith(String(max + 1)))!.value).toHaveLength(max + 1);
    for (const c of invalid) {
      expect(validate(defRef(DEF_OF[name]), c.value), `${c.description} must be rejected`).not.toEqual([]);
    }
  });
}

test('UserIdString "()" is a boundary only from 3.4.11 on', () => {
  expect(validBoundaries('UserIdString', {}, '3.4.10').map((c) => c.value)).not.toContain('a(b');
  expect(validBoundaries('UserIdString', {}, '3.4.11').map((c) => c.value)).toContain('a(b');
});

test('invalid synchronizer ids are not Canton ids', () => {
  for (const c of invalidSynchronizerIds(DEV_NAMESPACE)) {
    expect(validate(defRef('CantonUid'), c.value), c.description).not.toEqual([]);
  }
});

test('a command template with a placeholder the harness cannot fill stops the run', ({}, testInfo) => {
  const path = testInfo.outputPath('template.json');
  writeFileSync(path, JSON.stringify({ commands: [{ CreateCommand: { templateId: '{{nope}}' } }] }));
  expect(() => settingsFor({ LEDGER_COMMAND_TEMPLATE: path })).toThrow(SettingsError);
  expect(() => settingsFor({ LEDGER_COMMAND_TEMPLATE: path })).toThrow(
    /LEDGER_COMMAND_TEMPLATE=".*template\.json" is not valid: the file uses \{\{nope\}\}/,
  );
});
