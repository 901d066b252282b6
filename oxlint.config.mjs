// The lint: oxlint's own preset (its correctness category, with the type-aware rules it holds when run with
// --type-aware, through oxlint-tsgolint on TypeScript 7's checker) plus the house's rules — the import layers and
// no import cycle, functions of at most sixty lines in product code, no floating promises. A preset rule turned
// off says why on its line. scripts/dev/lint-plugin.mjs holds the layer rule oxlint lacks: require() across a
// layer line, and a load whose path is computed.

import { fileURLToPath, URL } from 'node:url';

/** The product code's folders: the harness, its reporters and commands, the catalogue and the sandbox. */
const PRODUCT = ['core', 'fixtures', 'reporters', 'rules', 'sandbox', 'scripts'];

// The paths a require() of each layer may not load (house/layer-calls).
const CONFIG = 'playwright\\.config';
const FIXTURES = '(^|/)fixtures(/|$)';
const SANDBOX = '(^|/)sandbox(/|$)';

export default {
  $schema: './node_modules/oxlint/configuration_schema.json',
  // oxlint's default plugins, and its import plugin for the cycle rule.
  plugins: ['eslint', 'typescript', 'unicorn', 'oxc', 'import'],
  // By its absolute path: a self-test lints planted files under a config of its own that re-exports this one.
  jsPlugins: [fileURLToPath(new URL('./scripts/dev/lint-plugin.mjs', import.meta.url))],
  categories: { correctness: 'error' },
  ignorePatterns: ['node_modules/', 'reports/', 'test-results/', 'allure-results/', 'spec/*.json'],
  rules: {
    // House rules: a promise is awaited, returned or voided on purpose; imports flow one way, with no loop.
    'typescript/no-floating-promises': 'error',
    'import/no-cycle': ['error', { ignoreTypes: true }],
    'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
    // Playwright fixtures take an empty object pattern by convention: `async ({}, use) => …`.
    'no-empty-pattern': 'off',
    // Where the project sorts without a compare, the default order (by each item's text) is the one meant.
    'typescript/require-array-sort-compare': 'off',
  },
  overrides: [...layers(), ...shortFunctions()],
};

/** Functions short enough to read whole: an orchestrator is a sequence of named steps. No exceptions. */
function shortFunctions() {
  const limit = ['error', { max: 60, skipComments: true, skipBlankLines: true }];
  return [
    { files: PRODUCT.map((folder) => `${folder}/**/*.ts`), rules: { 'max-lines-per-function': limit } },
  ];
}

/**
 * What each layer may not import, and why: `no-restricted-imports` for import and export declarations and
 * import() of a path written out, and `house/layer-calls` (scripts/dev/lint-plugin.mjs) for require(), which that
 * rule does not see. A call whose path is computed cannot be checked against the lines, so the harness's folders
 * allow none.
 */
function layers() {
  const g = layerGroups();
  return [...harnessLayers(g), ...otherLayers(g)];
}

/** A line: the paths it closes to a folder, and the message a crossing gets. */
function group(paths, message) {
  return { group: paths, message };
}

/** The lines, each a set of paths and the message a crossing gets. */
function layerGroups() {
  const leafOf = [
    'core',
    'fixtures',
    'tests',
    'scripts',
    'reporters',
    'sandbox',
    'selftest',
    'bench',
    'spec',
  ];
  return {
    fixtures: group(['**/fixtures', '**/fixtures/**'], 'fixtures/ is for specs: import core/ instead'),
    config: group(
      ['**/playwright.config', '**/playwright.config.*'],
      'never load playwright.config.ts: its top level validates settings and may exit',
    ),
    sandbox: group(['**/sandbox', '**/sandbox/**'], 'the harness judges the sandbox: it never imports it'),
    playwright: group(
      ['@playwright/test', '@playwright/test/*', 'allure-js-commons', 'allure-js-commons/*'],
      'core/ is Playwright-free',
    ),
    outward: group(
      ['**/tests/**', '**/scripts/**', '**/reporters/**', '**/selftest/**', '**/bench/**'],
      'a lower layer never imports a higher one',
    ),
    checks: group(
      ['**/selftest/**', '**/bench/**'],
      'selftest/ and bench/ import the house; nothing imports them',
    ),
    specs: group(['**/tests/**'], 'specs are run, not imported'),
    startsSandbox: group(
      ['**/sandbox', '**/sandbox/**'],
      'only scripts/run/ (the embedded sandbox) and scripts/mutation/ (the fault runner) start the sandbox',
    ),
    faultCatalogue: group(
      ['**/sandbox/faults/catalogue', '**/sandbox/faults/profiles', '**/sandbox/faults/groups/**'],
      "only the fault runner (scripts/mutation/) reads the sandbox's fault catalogue",
    ),
    leaf: group(
      [...leafOf, 'plumbing'].flatMap((folder) => [`**/${folder}`, `**/${folder}/**`]),
      'rules/ is data: it imports nothing but rules/ and schemas/',
    ),
    plumbing: group(['**/plumbing', '**/plumbing/**'], 'core/ is Playwright-free: plumbing/ is above it'),
    noBench: group(['**/bench/**'], 'nothing imports bench/'),
  };
}

/** One folder's lines: the imports it may not write, and the require() paths it may not load. */
function rule(files, patterns, loads = [], excludeFiles = []) {
  return {
    files,
    excludeFiles,
    rules: {
      'no-restricted-imports': ['error', { patterns }],
      'house/layer-calls': [
        'error',
        {
          patterns: loads,
          computed: 'a require() or import() with a computed path: the layer lint cannot see what it loads',
          crossing: 'a require() across a layer line: this folder may not load that file',
        },
      ],
    },
  };
}

/** The harness's folders: scripts/, reporters/, core/, fixtures/ and tests/. */
function harnessLayers({ fixtures, config, sandbox, playwright, outward, checks, specs, ...g }) {
  return [
    // scripts/: the embedded sandbox (run/) and the fault runner (mutation/) alone start the sandbox, and only
    // the fault runner reads its fault catalogue.
    rule(
      ['scripts/**/*.ts'],
      [fixtures, config, checks, specs, g.startsSandbox],
      [CONFIG, FIXTURES, SANDBOX],
      ['scripts/run/**', 'scripts/mutation/**'],
    ),
    rule(['scripts/run/**/*.ts'], [fixtures, config, checks, specs, g.faultCatalogue], [CONFIG, FIXTURES]),
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
      [fixtures, config, sandbox, outward, g.plumbing, { ...playwright, allowTypeImports: true }],
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
  ];
}

/** The sandbox, the catalogue, plumbing/ and the self-tests. */
function otherLayers({ fixtures, config, sandbox, outward, checks, leaf, noBench }) {
  return [
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
    // plumbing/ (patches on Playwright) stands on nothing of the project.
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
    { files: ['selftest/**/*.ts'], rules: { 'no-restricted-imports': ['error', { patterns: [noBench] }] } },
    // A self-test takes `test` and `expect` from selftest/support/test.ts (no browser fixtures).
    {
      files: ['selftest/**/*.test.ts'],
      rules: {
        'no-restricted-imports': [
          'error',
          {
            patterns: [noBench],
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
