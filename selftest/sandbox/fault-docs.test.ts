// The docs name real faults: every `SANDBOX_FAULTS=…` (or `SANDBOX_FAULTS: …`) example in the project's Markdown,
// .env.example and workflows names a fault of the catalogue, so a reader who copies one gets a broken sandbox,
// not "SANDBOX_FAULTS names an unknown fault".
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { ROOT } from '../support/child-run';
import { FAULTS } from '../../sandbox/faults/catalogue';

/** The fault names of each SANDBOX_FAULTS example in `text`; placeholders (`<name>`) and empty values aside. */
function faultNamesIn(text: string): string[] {
  return [...text.matchAll(/\bSANDBOX_FAULTS\s*[=:]\s*['"]?([a-z0-9][a-z0-9,-]*)/g)].flatMap((m) =>
    m[1]!.split(',').filter((n) => n !== ''),
  );
}

const DOCS = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter((f) => /\.md$|^\.env\.example$|^\.github\/.*\.ya?ml$/.test(f) && existsSync(join(ROOT, f)));

test('every SANDBOX_FAULTS example in the docs names a fault of the catalogue', () => {
  const known = new Set<string>(FAULTS.map((f) => f.name));
  const examples = DOCS.flatMap((f) =>
    faultNamesIn(readFileSync(join(ROOT, f), 'utf8')).map((name) => ({ f, name })),
  );
  expect(examples.length, 'the docs show examples').toBeGreaterThan(2);
  expect(examples.filter((e) => !known.has(e.name)).map((e) => `${e.f}: ${e.name}`)).toEqual([]);
});

test('the check reads an example as the docs write it, and a misspelt name is not a fault', () => {
  const planted =
    'Off unless named: `SANDBOX_FAULTS=vet-unsorted,sub-dedup-ignored`. Or `SANDBOX_FAULTS=<name>`.';
  expect(faultNamesIn(planted)).toEqual(['vet-unsorted', 'sub-dedup-ignored']);
  expect(FAULTS.some((f) => (f.name as string) === 'vet-unsorted')).toBe(false);
  expect(faultNamesIn("SANDBOX_FAULTS: 'ver-unstable'")).toEqual(['ver-unstable']);
});
