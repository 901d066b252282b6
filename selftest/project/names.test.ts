// One name per rule group across the three places it lives: `rules/groups/X.ts` ↔ `tests/X*.spec.ts` (and the
// specs' tables, `tests/X*.<kind>.ts`) ↔ `sandbox/faults/groups/X*.ts`, so a reader who knows a rule's group
// finds its test and the faults proving it by name. A fault file of no group is allowed only when it is named
// for what it crosses (CROSS_CUTTING). Each check also runs on a planted tree that breaks it.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { ROOT } from '../support/child-run';

/** Fault files named for what they are, not for one group: Canton's pinned deviations, network misbehaviour, the
 * participant's own description. */
const CROSS_CUTTING = ['pinned-deviations', 'transport', 'description'];
/** Files of rules/groups/ that hold no group: the row builder. */
const NOT_GROUPS = ['define'];

interface Tree {
  groups: string[];
  /** File names under tests/, e.g. `submission-ids.spec.ts`, `vetting.cases.ts`. */
  tests: string[];
  /** File names under sandbox/faults/groups/. */
  faults: string[];
}

const stem = (file: string) => file.replace(/\.ts$/, '');
/** Whether `name` (no extension) belongs to `group`: `X`, `X-…` or `X.…`. */
const ofGroup = (name: string, group: string) =>
  name === group || name.startsWith(`${group}-`) || name.startsWith(`${group}.`);

/** What breaks the alignment, one line each; empty when every name lines up. */
export function misalignments({ groups, tests, faults }: Tree): string[] {
  const problems: string[] = [];
  const specs = tests.filter((f) => f.endsWith('.spec.ts')).map((f) => f.replace(/\.spec\.ts$/, ''));
  const faultNames = faults.map(stem);
  for (const g of groups) {
    if (!specs.some((s) => ofGroup(s, g))) problems.push(`rules/groups/${g}.ts: no tests/${g}*.spec.ts`);
    if (!faultNames.some((f) => ofGroup(f, g)))
      problems.push(`rules/groups/${g}.ts: no sandbox/faults/groups/${g}*.ts`);
  }
  const named = (path: string, name: string) => {
    const owners = groups.filter((g) => ofGroup(name, g));
    // A name that goes on to another group's name (`version-auth-general`) holds several groups: split it.
    const others = name.split(/[-.]/).filter((part) => groups.includes(part) && !owners.includes(part));
    if (owners.length === 0) problems.push(`${path}: named for no rule group`);
    else if (others.length > 0)
      problems.push(`${path}: named for several rule groups (${others.join(', ')})`);
  };
  for (const t of tests.map(stem)) named(`tests/${t}.ts`, t);
  for (const f of faultNames.filter((f) => !CROSS_CUTTING.includes(f)))
    named(`sandbox/faults/groups/${f}.ts`, f);
  return problems;
}

const files = (dir: string) => readdirSync(join(ROOT, dir)).filter((f) => f.endsWith('.ts'));
const tree = (): Tree => ({
  groups: files('rules/groups')
    .map(stem)
    .filter((g) => !NOT_GROUPS.includes(g)),
  tests: files('tests'),
  faults: files('sandbox/faults/groups'),
});

test('every rule group names its specs and its fault files, and every spec and fault file names a group', () => {
  const t = tree();
  expect(t.groups.length).toBeGreaterThan(0);
  expect(misalignments(t)).toEqual([]);
});

test('a group without specs or faults, or a spec or fault file of no group, is found', () => {
  const t = tree();
  const planted: Tree = {
    groups: [...t.groups, 'ledger-end'],
    tests: [...t.tests, 'versions.spec.ts', 'dedup.cases.ts'],
    faults: [...t.faults, 'version-auth-general.ts'],
  };
  expect(misalignments(planted)).toEqual([
    'rules/groups/ledger-end.ts: no tests/ledger-end*.spec.ts',
    'rules/groups/ledger-end.ts: no sandbox/faults/groups/ledger-end*.ts',
    'tests/versions.spec.ts: named for no rule group',
    'tests/dedup.cases.ts: named for no rule group',
    'sandbox/faults/groups/version-auth-general.ts: named for several rule groups (auth, general)',
  ]);
  expect(misalignments({ ...t, faults: t.faults.filter((f) => !f.startsWith('auth')) })).toEqual([
    'rules/groups/auth.ts: no sandbox/faults/groups/auth*.ts',
  ]);
});
