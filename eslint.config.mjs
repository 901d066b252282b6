// Typed linting needs the TypeScript compiler API, hence typescript@5.9 (TS 7 ships no JS API).
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', 'allure-results/', 'spec/*.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: { parserOptions: { project: './tsconfig.json', tsconfigRootDir: import.meta.dirname } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-floating-promises': 'error',
      // Playwright fixtures use an empty object pattern by convention: `async ({}, use) => …`.
      'no-empty-pattern': 'off',
      // Playwright test and fixture callbacks are async by contract, awaiting or not.
      '@typescript-eslint/require-await': 'off',
    },
  },
  // The house's layers (ARCHITECTURE in README "Contributing"): imports flow one way.
  ...layers(),
  { files: ['**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  // CommonJS preloads (plumbing/transform.cjs): node loads them before any TypeScript transform.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

/** `no-restricted-imports` per folder: what each layer may not import, and why. */
function layers() {
  const group = (paths, message) => ({ group: paths, message });
  const fixtures = group(['**/fixtures', '**/fixtures/**'], 'fixtures/ is for specs: import core/ instead');
  const config = group(
    ['**/playwright.config', '**/playwright.config.*'],
    'never load playwright.config.ts: its top level validates settings and may exit',
  );
  const sandbox = group(
    ['**/sandbox', '**/sandbox/**'],
    'the harness judges the sandbox: it never imports it',
  );
  const playwright = group(
    ['@playwright/test', '@playwright/test/*', 'allure-js-commons', 'allure-js-commons/*'],
    'core/ is Playwright-free',
  );
  const outward = group(
    ['**/tests/**', '**/scripts/**', '**/reporters/**', '**/selftest/**', '**/bench/**'],
    'a lower layer never imports a higher one',
  );
  const plumbing = group(
    ['**/plumbing', '**/plumbing/**'],
    'core/ is Playwright-free: plumbing/ is above it',
  );
  const rule = (files, patterns) => ({ files, rules: { 'no-restricted-imports': ['error', { patterns }] } });
  return [
    rule(['reporters/**/*.ts', 'scripts/**/*.ts'], [fixtures, config]),
    // Type-only imports of Playwright's reporter and config types are allowed in core (they vanish when compiled).
    rule(
      ['core/**/*.ts'],
      [fixtures, config, sandbox, outward, plumbing, { ...playwright, allowTypeImports: true }],
    ),
    rule(
      ['fixtures/**/*.ts'],
      [
        sandbox,
        config,
        group(['**/tests/**', '**/scripts/**', '**/reporters/**'], 'fixtures/ stands on core/ and rules/'),
      ],
    ),
    rule(
      ['tests/**/*.ts'],
      [
        sandbox,
        config,
        group(
          ['../fixtures/*', '../core/**', '../rules/**', '../plumbing/**'],
          'specs import only ../fixtures (fixtures/index.ts)',
        ),
      ],
    ),
    // plumbing/ (code on Playwright's and Allure's internals) stands on nothing of the project.
    rule(
      ['plumbing/**/*.ts'],
      [
        fixtures,
        config,
        sandbox,
        outward,
        group(['**/core/**', '**/rules/**'], 'plumbing/ imports no project code'),
      ],
    ),
    rule(
      ['sandbox/**/*.ts'],
      [
        fixtures,
        config,
        group(
          ['**/core/**', '**/tests/**', '**/scripts/**', '**/reporters/**', '**/plumbing/**'],
          'the sandbox stands alone: it is judged, not part of the judge',
        ),
      ],
    ),
  ];
}
