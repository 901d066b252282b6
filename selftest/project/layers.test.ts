// The house's layers are held by a lint rule (eslint.config.mjs, `layers()`): a planted import across a line
// it draws fails the lint with the rule's message, and the real tree passes it
// (selftest/project/static.test.ts lints it all). A require() or import() is held too: by the same lines when
// its path is written out, and refused in the harness's folders when its path is computed. Beside them,
// `shortFunctions()` holds every function of core/, reporters/ and scripts/ to sixty lines.
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { ESLint } from 'eslint';
import { ROOT } from '../support/child-run';

// The planted files do not exist: ESLint's rules read no types (the typed ones are oxlint's), so their text is enough.
const eslint = new ESLint({ cwd: ROOT });

const LAYER_RULES = new Set(['no-restricted-imports', 'no-restricted-syntax']);

async function lintErrors(file: string, code: string, rules: Set<string>): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => rules.has(m.ruleId ?? '')).map((m) => m.message);
}

const layerErrors = (file: string, code: string) => lintErrors(file, code, LAYER_RULES);

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
    "import { lean } from '../plumbing/lean-expect';\nexport const x = lean;\n",
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
  // The config or fixtures loaded by a call: by a path written out, and by one computed.
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
  ['scripts/planted.ts', "export const x = import('../playwright.config');\n", /across a layer line/],
  ['reporters/planted.ts', "export const x = require('../fixtures/ledger');\n", /across a layer line/],
];

for (const [file, code, why] of PLANTED) {
  test(`a planted import in ${file} fails the lint: ${code.split('\n')[0]}`, async () => {
    test.setTimeout(60_000);
    const errors = await layerErrors(file, code);
    expect(errors).toHaveLength(1);
    expect(errors[0]).toMatch(why);
  });
}

test('the imports the layers allow pass', async () => {
  test.setTimeout(60_000);
  expect(
    await layerErrors(
      'scripts/planted.ts',
      "import { settings } from '../core/settings';\nexport const x = settings;\n",
    ),
  ).toEqual([]);
  expect(
    await layerErrors('tests/planted.ts', "import { test } from '../fixtures';\nexport const x = test;\n"),
  ).toEqual([]);
  expect(
    await layerErrors(
      'core/planted.ts',
      "import type { ReporterDescription } from '@playwright/test';\nexport type X = ReporterDescription;\n",
    ),
  ).toEqual([]);
  expect(
    await layerErrors(
      'scripts/mutation/planted.ts',
      "import { FAULTS } from '../../sandbox/faults/catalogue';\nexport const x = FAULTS;\n",
    ),
  ).toEqual([]);
  expect(
    await layerErrors(
      'scripts/run/planted.ts',
      "import { buildApp } from '../../sandbox/app';\nexport const x = buildApp;\n",
    ),
  ).toEqual([]);
  expect(
    await layerErrors('rules/planted.ts', "import { x } from './catalogue';\nexport const y = x;\n"),
  ).toEqual([]);
  expect(
    await layerErrors(
      'bench/planted.ts',
      "import { buildApp } from '../sandbox/app';\nimport { main } from '../scripts/run/conformance';\nexport const x = [buildApp, main, require(process.argv[2]!)];\n",
    ),
  ).toEqual([]);
});

/** A function of `body` lines between its header and its closing brace, with a comment and blank lines. */
function plantedFunction(body: number): string {
  const lines = Array.from({ length: body }, (_, i) => `  total += ${i};`);
  return `// why\nexport function planted(): number {\n  let total = 0;\n  // a comment\n\n${lines.join('\n')}\n  return total;\n}\n`;
}

test('a function over sixty lines in core/, reporters/ or scripts/ fails the lint; one of sixty passes', async () => {
  test.setTimeout(60_000);
  const rules = new Set(['max-lines-per-function']);
  // Header, `let`, `return` and the closing brace count; the comment and the blank line do not.
  for (const file of ['core/planted.ts', 'reporters/planted.ts', 'scripts/run/planted.ts']) {
    const errors = await lintErrors(file, plantedFunction(57), rules);
    expect(errors, file).toHaveLength(1);
    expect(errors[0]).toMatch(/too many lines \(61\)\. Maximum allowed is 60/);
    expect(await lintErrors(file, plantedFunction(56), rules), file).toEqual([]);
  }
});
