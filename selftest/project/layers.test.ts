// The house's rules in the lint (oxlint.config.mjs), each shown to fail on a planted break; the real tree, which
// makes the imports the layers allow, passes them (selftest/project/static.test.ts lints it all). The layers (`layers()`): a planted import across a line
// fails with the rule's message; a require() or import() is held too, by the same lines when its path is written
// out, and refused in the harness's folders when its path is computed. No import cycle; every function of the
// product folders (`shortFunctions()`) at most sixty lines; no floating promise. Every planted file is linted in
// one oxlint run (planted-lint.ts), each under its own name in the folder it names.
import { expect, test } from '../support/test';
import { lintPlanted, type Finding } from './planted-lint';

const LAYER_RULES = new Set(['eslint(no-restricted-imports)', 'house(layer-calls)']);
const LENGTH_RULES = new Set(['eslint(max-lines-per-function)']);
const CYCLE_RULES = new Set(['import(no-cycle)']);
const PROMISE_RULES = new Set(['typescript(no-floating-promises)']);

const PLANTED: [file: string, code: string, why: RegExp][] = [
  [
    'reporters/planted.ts',
    "import { test } from '../fixtures/merged';\nexport const x = test;\n",
    /fixtures\/ is for specs/,
  ],
  [
    'scripts/planted.ts',
    "import config from '../playwright.config';\nexport const x = config;\n",
    /never load playwright\.config/,
  ],
  [
    'core/planted.ts',
    "import { test } from '@playwright/test';\nexport const x = test;\n",
    /Playwright-free/,
  ],
  [
    'core/planted.ts',
    "import { x } from '../fixtures/ledger';\nexport const y = x;\n",
    /fixtures\/ is for specs/,
  ],
  [
    'fixtures/planted.ts',
    "import { buildApp } from '../sandbox/app';\nexport const x = buildApp;\n",
    /never imports it/,
  ],
  [
    'tests/planted.ts',
    "import { settings } from '../core/settings';\nexport const x = settings;\n",
    /import only \.\.\/fixtures/,
  ],
  [
    'plumbing/planted.ts',
    "import { redact } from '../core/redact';\nexport const x = redact;\n",
    /plumbing\/ imports no project code/,
  ],
  [
    'core/planted.ts',
    "import { base } from '../plumbing/base-test';\nexport const x = base;\n",
    /plumbing\/ is above it/,
  ],
  [
    'sandbox/planted.ts',
    "import { redact } from '../core/redact';\nexport const x = redact;\n",
    /stands alone/,
  ],
  [
    'sandbox/planted.ts',
    "import { claim } from '../selftest/support/claim';\nexport const x = claim;\n",
    /nothing imports them/,
  ],
  [
    'reporters/planted.ts',
    "import { buildApp } from '../sandbox/app';\nexport const x = buildApp;\n",
    /never imports it/,
  ],
  [
    'reporters/planted.ts',
    "import { main } from '../scripts/run/conformance';\nexport const x = main;\n",
    /stand on core\/ and rules\//,
  ],
  [
    'scripts/run/planted.ts',
    "import { FAULTS } from '../../sandbox/faults/catalogue';\nexport const x = FAULTS;\n",
    /only the fault runner/,
  ],
  [
    'scripts/report/planted.ts',
    "import { buildApp } from '../../sandbox/app';\nexport const x = buildApp;\n",
    /only scripts\/run\/ \(the embedded sandbox\) and scripts\/mutation\//,
  ],
  ['scripts/history/planted.ts', "export const x = require('../../sandbox/app');\n", /across a layer line/],
  [
    'scripts/planted.ts',
    "import { run } from '../bench/run';\nexport const x = run;\n",
    /nothing imports them/,
  ],
  [
    'core/planted.ts',
    "import { run } from '../bench/run';\nexport const x = run;\n",
    /never imports a higher one/,
  ],
  [
    'fixtures/planted.ts',
    "import { run } from '../bench/run';\nexport const x = run;\n",
    /nothing imports them/,
  ],
  [
    'selftest/planted.test.ts',
    "import { run } from '../bench/run';\nexport const x = run;\n",
    /nothing imports bench/,
  ],
  [
    'selftest/core/planted.test.ts',
    "import { expect } from '@playwright/test';\nexport const x = expect;\n",
    /come from selftest\/support\/test\.ts/,
  ],
  [
    'rules/planted.ts',
    "import { settings } from '../core/settings';\nexport const x = settings;\n",
    /rules\/ is data/,
  ],
  [
    'rules/groups/planted.ts',
    "import { test } from '../../fixtures';\nexport const x = test;\n",
    /rules\/ is data/,
  ],
  [
    'rules/planted.ts',
    "import config from '../playwright.config';\nexport const x = config;\n",
    /never load playwright\.config/,
  ],
  // The config or fixtures loaded by a call: by a path written out (an import() is no-restricted-imports', a
  // require() the house's own rule's), and by one computed.
  [
    'scripts/planted.ts',
    "import { join } from 'node:path';\nexport const x = require(join(__dirname, '..', 'playwright.config'));\n",
    /computed path/,
  ],
  [
    'reporters/planted.ts',
    "const name = 'playwright.config';\nexport const x = import(`../${name}`);\n",
    /computed path/,
  ],
  ['core/planted.ts', "const where = '../fixtures';\nexport const x = import(where);\n", /computed path/],
  [
    'scripts/planted.ts',
    "export const x = import('../playwright.config');\n",
    /never load playwright\.config/,
  ],
  ['reporters/planted.ts', "export const x = require('../fixtures/ledger');\n", /across a layer line/],
];

/** The planted cases, each under a name of its own in the folder it names: `core/planted.ts` → `core/planted-3.ts`. */
const planted = (file: string, i: number) => file.replace(/\.(test\.)?ts$/, (ext) => `-${i}${ext}`);

/** A function of `body` lines between its header and its closing brace, with a comment and blank lines. */
function plantedFunction(body: number): string {
  const lines = Array.from({ length: body }, (_, i) => `  total += ${i};`);
  return `// why\nexport function planted(): number {\n  let total = 0;\n  // a comment\n\n${lines.join('\n')}\n  return total;\n}\n`;
}

const LENGTH_FOLDERS = ['core', 'fixtures', 'reporters', 'sandbox', 'scripts/run'];

/** Two modules that import each other, and a promise left floating beside one awaited. */
const CYCLE_AND_PROMISE: [string, string][] = [
  ['core/cycle-a.ts', "import { b } from './cycle-b';\nexport const a = (): number => b() + 1;\n"],
  ['core/cycle-b.ts', "import { a } from './cycle-a';\nexport const b = (): number => a() - 1;\n"],
  [
    'scripts/floating.ts',
    'async function later(): Promise<number> {\n  return 1;\n}\nexport async function run(): Promise<void> {\n  later();\n  await later();\n}\n',
  ],
];

let findings: Finding[] | undefined;

/** The findings of `rules` in the planted file `file`: every planted file is linted once, on first ask. */
async function errorsIn(file: string, rules: Set<string>): Promise<string[]> {
  findings ??= (
    await lintPlanted(
      Object.fromEntries([
        ...PLANTED.map(([f, code], i): [string, string] => [planted(f, i), code]),
        ...LENGTH_FOLDERS.flatMap((folder): [string, string][] => [
          [`${folder}/long-61.ts`, plantedFunction(57)],
          [`${folder}/long-60.ts`, plantedFunction(56)],
        ]),
        ...CYCLE_AND_PROMISE,
      ]),
      { typed: true },
    )
  ).findings;
  return findings.filter((f) => f.file === file && rules.has(f.code)).map((f) => f.message);
}

test.describe.configure({ mode: 'default' });

PLANTED.forEach(([file, code, why], i) => {
  test(`a planted import in ${file} fails the lint: ${code.split('\n')[0]}`, async () => {
    test.setTimeout(60_000);
    const errors = await errorsIn(planted(file, i), LAYER_RULES);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(why);
  });
});

test('a function over sixty lines in a product folder fails the lint; one of sixty passes', async () => {
  test.setTimeout(60_000);
  // Header, `let`, `return` and the closing brace count; the comment and the blank line do not.
  for (const folder of LENGTH_FOLDERS) {
    const errors = await errorsIn(`${folder}/long-61.ts`, LENGTH_RULES);
    expect(errors, folder).toHaveLength(1);
    expect(errors[0]).toMatch(/too many lines \(61\)\. Maximum allowed is 60/);
    expect(await errorsIn(`${folder}/long-60.ts`, LENGTH_RULES), folder).toEqual([]);
  }
});

test('an import cycle fails the lint', async () => {
  test.setTimeout(60_000);
  expect(await errorsIn('core/cycle-a.ts', CYCLE_RULES)).toHaveLength(1);
  expect(await errorsIn('core/cycle-b.ts', CYCLE_RULES)).toHaveLength(1);
});

test('a floating promise fails the lint; an awaited one passes', async () => {
  test.setTimeout(60_000);
  const errors = await errorsIn('scripts/floating.ts', PROMISE_RULES);
  expect(errors).toHaveLength(1);
});
