// The house's layers are held by a lint rule (eslint.config.mjs, `layers()`): a planted import across a line
// it draws fails the lint with the rule's message, and the real tree passes it
// (selftest/project/static.test.ts lints it all).
import { join } from 'node:path';
import { test, expect } from '@playwright/test';
import { ESLint } from 'eslint';
import tseslint from 'typescript-eslint';
import { ROOT } from '../support/child-run';

// The planted files do not exist: lint their text without the type-checked rules, which need a file on disk.
const eslint = new ESLint({
  cwd: ROOT,
  overrideConfig: [{ files: ['**/*.ts'], ...tseslint.configs.disableTypeChecked }],
});

async function layerErrors(file: string, code: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: join(ROOT, file) });
  return result!.messages.filter((m) => m.ruleId === 'no-restricted-imports').map((m) => m.message);
}

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
});
