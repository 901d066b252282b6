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
  { files: ['**/*.mjs', '**/*.cjs'], ...tseslint.configs.disableTypeChecked },
  // CommonJS preloads (scripts/playwright-transform.cjs): node loads them before any TypeScript transform.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);
