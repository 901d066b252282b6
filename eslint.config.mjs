// The rules that read no types. typescript-eslint's typed ones (its recommendedTypeChecked less
// require-await: Playwright test and fixture callbacks are async by contract, awaiting or not) run in oxlint
// on TypeScript 7's checker, the compiler the type check uses (.oxlintrc.json; selftest/project/typed-lint.test.ts
// holds the two lists equal and shows each rule fire). typescript@5.9 stays: typescript-eslint's parser needs
// its JS API, which TS 7 does not ship.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  { ignores: ['node_modules/', 'reports/', 'test-results/', 'allure-results/', 'spec/*.json'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      // Playwright fixtures use an empty object pattern by convention: `async ({}, use) => …`.
      'no-empty-pattern': 'off',
    },
  },
  // The house's layers (ARCHITECTURE in README "Contributing"): imports flow one way.
  ...layers(),
  ...shortFunctions(),
  // CommonJS preloads (plumbing/transform.cjs): node loads them before any TypeScript transform.
  {
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { require: 'readonly', process: 'readonly' } },
    rules: { '@typescript-eslint/no-require-imports': 'off' },
  },
);

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
 * What each layer may not import, and why: `no-restricted-imports` for import and export declarations, and
 * `no-restricted-syntax` for require() and import() calls, which that rule does not see. A call whose path is
 * computed cannot be checked against the lines, so the harness's folders allow none.
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
  const crossing = 'a require() or import() across a layer line: this folder may not load that file';
  const calls = (loads) => [
    { selector: `CallExpression[callee.name='require'][arguments.0.type!='Literal']`, message: computed },
    { selector: `ImportExpression[source.type!='Literal']`, message: computed },
    ...loads.map((pattern) => ({
      selector: `CallExpression[callee.name='require'][arguments.0.value=${pattern}]`,
      message: crossing,
    })),
    ...loads.map((pattern) => ({ selector: `ImportExpression[source.value=${pattern}]`, message: crossing })),
  ];
  const rule = (files, patterns, loads = [], ignores = []) => ({
    files,
    ignores,
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      'no-restricted-syntax': ['error', ...calls(loads)],
    },
  });
  const plumbing = group(
    ['**/plumbing', '**/plumbing/**'],
    'core/ is Playwright-free: plumbing/ is above it',
  );
  const CONFIG = '/playwright\\.config/';
  const FIXTURES = '/(^|\\/)fixtures(\\/|$)/';
  const SANDBOX = '/(^|\\/)sandbox(\\/|$)/';
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
      ignores: ['selftest/plumbing/**', 'selftest/support/quick-matchers.test.ts'],
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
