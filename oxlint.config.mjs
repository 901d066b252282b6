// The lint, one native pass (oxlint; `npm run lint` runs it with --type-aware): typescript-eslint's typed rules
// (its recommendedTypeChecked less require-await: Playwright test and fixture callbacks are async by contract,
// awaiting or not) on TypeScript 7's checker, the compiler the type check uses; the recommended rules of ESLint
// and typescript-eslint, which read no types; the house's layers and short functions.
// selftest/project/lint-rules.test.ts holds the rule lists equal to those packages' own and shows each rule fire.
// scripts/dev/lint-plugin.mjs holds what oxlint lacks: require() across a layer line, ESLint's no-octal.

import { fileURLToPath, URL } from 'node:url';

/** typescript-eslint's typed rules (recommendedTypeChecked), as errors. */
const TYPED = [
  'await-thenable',
  'no-array-delete',
  'no-base-to-string',
  'no-duplicate-type-constituents',
  'no-floating-promises',
  'no-for-in-array',
  'no-implied-eval',
  'no-misused-promises',
  'no-redundant-type-constituents',
  'no-unnecessary-type-assertion',
  'no-unsafe-argument',
  'no-unsafe-assignment',
  'no-unsafe-call',
  'no-unsafe-enum-comparison',
  'no-unsafe-member-access',
  'no-unsafe-return',
  'no-unsafe-unary-minus',
  'only-throw-error',
  'prefer-promise-reject-errors',
  'restrict-plus-operands',
  'restrict-template-expressions',
  'unbound-method',
];

/**
 * ESLint's recommended rules as typescript-eslint's recommended leaves them on for TypeScript, but
 * no-empty-pattern: Playwright fixtures take an empty object pattern by convention, `async ({}, use) => …`.
 */
const ESLINT_RECOMMENDED = [
  'for-direction',
  'no-async-promise-executor',
  'no-case-declarations',
  'no-compare-neg-zero',
  'no-cond-assign',
  'no-constant-binary-expression',
  'no-constant-condition',
  'no-control-regex',
  'no-debugger',
  'no-delete-var',
  'no-dupe-else-if',
  'no-duplicate-case',
  'no-empty',
  'no-empty-character-class',
  'no-empty-static-block',
  'no-ex-assign',
  'no-extra-boolean-cast',
  'no-fallthrough',
  'no-global-assign',
  'no-invalid-regexp',
  'no-irregular-whitespace',
  'no-loss-of-precision',
  'no-misleading-character-class',
  'no-nonoctal-decimal-escape',
  'house/no-octal',
  'no-prototype-builtins',
  'no-regex-spaces',
  'no-self-assign',
  'no-shadow-restricted-names',
  'no-sparse-arrays',
  'no-unassigned-vars',
  'no-unexpected-multiline',
  'no-unsafe-finally',
  'no-unsafe-optional-chaining',
  'no-unused-labels',
  'no-unused-private-class-members',
  'no-useless-assignment',
  'no-useless-backreference',
  'no-useless-catch',
  'no-useless-escape',
  'preserve-caught-error',
  'require-yield',
  'use-isnan',
  'valid-typeof',
  // typescript-eslint's eslint-recommended turns these on for TypeScript.
  'no-var',
  'prefer-const',
  'prefer-rest-params',
  'prefer-spread',
];

/** The rules of ESLint's recommended that typescript-eslint turns off for TypeScript (its checker covers them). */
const JS_ONLY = [
  'constructor-super',
  'getter-return',
  'no-class-assign',
  'no-const-assign',
  'house/no-dupe-args',
  'no-dupe-class-members',
  'no-dupe-keys',
  'no-func-assign',
  'no-import-assign',
  'no-new-native-nonconstructor',
  'no-obj-calls',
  'no-redeclare',
  'no-setter-return',
  'no-this-before-super',
  'no-undef',
  'no-unreachable',
  'no-unsafe-negation',
  'no-with',
];

/** typescript-eslint's recommended rules that read no types (oxlint keeps ESLint's name for three of them). */
const TS_RECOMMENDED = [
  'typescript/ban-ts-comment',
  'no-array-constructor',
  'typescript/no-duplicate-enum-values',
  'typescript/no-empty-object-type',
  'typescript/no-explicit-any',
  'typescript/no-extra-non-null-assertion',
  'typescript/no-misused-new',
  'typescript/no-namespace',
  'typescript/no-non-null-asserted-optional-chain',
  'typescript/no-require-imports',
  'typescript/no-this-alias',
  'typescript/no-unnecessary-type-constraint',
  'typescript/no-unsafe-declaration-merging',
  'typescript/no-unsafe-function-type',
  'no-unused-expressions',
  'no-unused-vars',
  'typescript/no-wrapper-object-types',
  'typescript/prefer-as-const',
  'typescript/prefer-namespace-keyword',
  'typescript/triple-slash-reference',
];

const errors = (names) => Object.fromEntries(names.map((name) => [name, 'error']));

export default {
  $schema: './node_modules/oxlint/configuration_schema.json',
  plugins: ['typescript'],
  // By its absolute path: a self-test lints planted files under a config of its own that re-exports this one.
  jsPlugins: [fileURLToPath(new URL('./scripts/dev/lint-plugin.mjs', import.meta.url))],
  // Nothing but the rules named here.
  categories: {
    correctness: 'off',
    suspicious: 'off',
    pedantic: 'off',
    perf: 'off',
    style: 'off',
    restriction: 'off',
    nursery: 'off',
  },
  ignorePatterns: ['node_modules/', 'reports/', 'test-results/', 'allure-results/', 'spec/*.json'],
  rules: {
    ...errors(TYPED.map((name) => `typescript/${name}`)),
    ...errors(ESLINT_RECOMMENDED),
    ...errors(TS_RECOMMENDED),
    'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
  },
  overrides: [
    // The house's layers (ARCHITECTURE in README "Contributing"): imports flow one way.
    ...layers(),
    ...shortFunctions(),
    // The JavaScript files (the CommonJS preloads, plumbing/*.cjs; the configs, *.mjs): ESLint's rules that
    // TypeScript's checker covers in .ts files. A preload is CommonJS: node loads it before any transform.
    // The typed rules read TypeScript's types, which a JavaScript file does not declare (ESLint never ran them there).
    {
      files: ['**/*.cjs', '**/*.mjs'],
      rules: {
        ...errors(JS_ONLY),
        ...Object.fromEntries(TYPED.map((name) => [`typescript/${name}`, 'off'])),
      },
    },
    {
      files: ['**/*.cjs'],
      env: { commonjs: true },
      globals: { process: 'readonly' },
      rules: { 'typescript/no-require-imports': 'off' },
    },
  ],
};

/** Functions short enough to read whole: an orchestrator is a sequence of named steps. No exceptions. */
function shortFunctions() {
  const limit = (max) => ['error', { max, skipComments: true, skipBlankLines: true }];
  return [
    {
      files: ['core/**/*.ts', 'reporters/**/*.ts', 'scripts/**/*.ts'],
      rules: { 'max-lines-per-function': limit(60) },
    },
  ];
}

/**
 * What each layer may not import, and why: `no-restricted-imports` for import and export declarations and
 * import() of a path written out, and `house/layer-calls` (scripts/dev/lint-plugin.mjs) for require(), which that
 * rule does not see. A call whose path is computed cannot be checked against the lines, so the harness's folders
 * allow none.
 */
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
  const checks = group(
    ['**/selftest/**', '**/bench/**'],
    'selftest/ and bench/ import the house; nothing imports them',
  );
  const specs = group(['**/tests/**'], 'specs are run, not imported');
  const startsSandbox =
    'only scripts/run/ (the embedded sandbox) and scripts/mutation/ (the fault runner) start the sandbox';
  const faultCatalogue = group(
    ['**/sandbox/faults/catalogue', '**/sandbox/faults/profiles', '**/sandbox/faults/groups/**'],
    "only the fault runner (scripts/mutation/) reads the sandbox's fault catalogue",
  );
  const higher = [
    'core',
    'fixtures',
    'tests',
    'scripts',
    'reporters',
    'sandbox',
    'selftest',
    'bench',
    'spec',
    'plumbing',
  ];
  const leaf = group(
    higher.flatMap((folder) => [`**/${folder}`, `**/${folder}/**`]),
    'rules/ is data: it imports nothing but rules/ and schemas/',
  );
  const computed = 'a require() or import() with a computed path: the layer lint cannot see what it loads';
  const crossing = 'a require() across a layer line: this folder may not load that file';
  const rule = (files, patterns, loads = [], excludeFiles = []) => ({
    files,
    excludeFiles,
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      'house/layer-calls': ['error', { patterns: loads, computed, crossing }],
    },
  });
  const plumbing = group(
    ['**/plumbing', '**/plumbing/**'],
    'core/ is Playwright-free: plumbing/ is above it',
  );
  const CONFIG = 'playwright\\.config';
  const FIXTURES = '(^|/)fixtures(/|$)';
  const SANDBOX = '(^|/)sandbox(/|$)';
  return [
    // scripts/: the embedded sandbox (run/) and the fault runner (mutation/) alone start the sandbox, and only
    // the fault runner reads its fault catalogue.
    rule(
      ['scripts/**/*.ts'],
      [fixtures, config, checks, specs, group(['**/sandbox', '**/sandbox/**'], startsSandbox)],
      [CONFIG, FIXTURES, SANDBOX],
      ['scripts/run/**', 'scripts/mutation/**'],
    ),
    rule(['scripts/run/**/*.ts'], [fixtures, config, checks, specs, faultCatalogue], [CONFIG, FIXTURES]),
    rule(['scripts/mutation/**/*.ts'], [fixtures, config, checks, specs], [CONFIG, FIXTURES]),
    rule(
      ['reporters/**/*.ts'],
      [
        fixtures,
        config,
        sandbox,
        group(
          ['**/tests/**', '**/scripts/**', '**/selftest/**', '**/bench/**'],
          'reporters/ stand on core/ and rules/',
        ),
      ],
      [CONFIG, FIXTURES, SANDBOX],
    ),
    // Type-only imports of Playwright's reporter and config types are allowed in core (they vanish when compiled).
    rule(
      ['core/**/*.ts'],
      [fixtures, config, sandbox, outward, plumbing, { ...playwright, allowTypeImports: true }],
      [CONFIG, FIXTURES, SANDBOX],
    ),
    rule(
      ['fixtures/**/*.ts'],
      [
        sandbox,
        config,
        checks,
        group(['**/tests/**', '**/scripts/**', '**/reporters/**'], 'fixtures/ stands on core/ and rules/'),
      ],
      [CONFIG, SANDBOX],
    ),
    rule(
      ['tests/**/*.ts'],
      [
        sandbox,
        config,
        checks,
        group(
          ['../fixtures/*', '../core/**', '../rules/**', '../plumbing/**'],
          'specs import only ../fixtures (fixtures/index.ts)',
        ),
      ],
      [CONFIG, SANDBOX],
    ),
    rule(
      ['sandbox/**/*.ts'],
      [
        fixtures,
        config,
        checks,
        group(
          ['**/core/**', '**/tests/**', '**/scripts/**', '**/reporters/**', '**/plumbing/**'],
          'the sandbox stands alone: it is judged, not part of the judge',
        ),
      ],
      [CONFIG],
    ),
    rule(['rules/**/*.ts'], [leaf, config], [CONFIG]),
    // plumbing/ (code on Playwright's and Allure's internals) stands on nothing of the project; it reaches into
    // those packages by computed paths on purpose, so only its imports are held.
    {
      files: ['plumbing/**/*.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [
              fixtures,
              config,
              sandbox,
              outward,
              group(['**/core/**', '**/rules/**'], 'plumbing/ imports no project code'),
            ],
          },
        ],
      },
    },
    // selftest/ may import anything but bench/, and load what it likes: it tests the house from outside.
    {
      files: ['selftest/**/*.ts'],
      rules: {
        'no-restricted-imports': ['error', { patterns: [group(['**/bench/**'], 'nothing imports bench/')] }],
      },
    },
    // A self-test takes `test` and `expect` from selftest/support/test.ts (no browser fixtures, passing checks
    // without a reported step); the self-tests of that plumbing itself compare it with Playwright's own.
    {
      files: ['selftest/**/*.test.ts'],
      excludeFiles: ['selftest/plumbing/**', 'selftest/support/quick-matchers.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [group(['**/bench/**'], 'nothing imports bench/')],
            paths: [
              {
                name: '@playwright/test',
                importNames: ['test', 'expect'],
                message: "a self-test's test and expect come from selftest/support/test.ts",
              },
            ],
          },
        ],
      },
    },
  ];
}
