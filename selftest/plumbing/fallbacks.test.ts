// Every patch of plumbing/ stands aside when the internal it leans on is not as it was written against, and
// when LEDGER_PLUMBING=off: the harness then runs on Playwright's and Allure's own paths. In-process, with the
// internals stood in for, and a canary per internal that fails when an upgrade moves it.
import Module from 'node:module';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as playwright from '@playwright/test';
import { expect, test } from '@playwright/test';
import AllureReporter from 'allure-playwright';
import { PlainWriter, usePlainWriter } from '../../plumbing/allure-writer';
import { baseTestOf } from '../../plumbing/base-test';
import { lean } from '../../plumbing/lean-expect';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';
import { PLAYWRIGHT_CLI, PLAYWRIGHT_TRANSFORM_PRELOAD } from '../../plumbing/playwright-cli';
import { callerStack, withoutFramesOf } from '../../plumbing/stacks';
import { PLUMBING_ENV, plumbingOn } from '../../plumbing/switch';
import { cleanEnv, runNode } from '../support/child-run';

test('the switch: unset or on is on, off is off, anything else names the variable', () => {
  expect(plumbingOn({})).toBe(true);
  expect(plumbingOn({ [PLUMBING_ENV]: 'on' })).toBe(true);
  expect(plumbingOn({ [PLUMBING_ENV]: 'off' })).toBe(false);
  expect(() => plumbingOn({ [PLUMBING_ENV]: 'no' })).toThrow(`${PLUMBING_ENV}=no is not a switch`);
});

test('base-test: _baseTest while Playwright exports it; the full test without it or when off', () => {
  expect(playwright._baseTest, 'canary: @playwright/test still exports _baseTest').toBeDefined();
  expect(baseTestOf(playwright, true)).toBe(playwright._baseTest);
  expect(baseTestOf({ test: playwright.test }, true)).toBe(playwright.test);
  expect(baseTestOf(playwright, false)).toBe(playwright.test);
});

test('lean-expect: off, the expect given is returned as it is', () => {
  const matchers = { toBeFine: () => ({ pass: true, message: () => '' }) };
  expect(lean(expect, matchers, false)).toBe(expect);
  expect(lean(expect, matchers, true)).not.toBe(expect);
});

test('stacks: without a stack hook the frames are V8’s own; off, no location and the stack untouched', () => {
  const client = () => callerStack(client);
  // oxlint-disable-next-line typescript/unbound-method -- restored as it was
  const hook = Error.prepareStackTrace;
  (Error as { prepareStackTrace?: unknown }).prepareStackTrace = undefined;
  try {
    expect(client().location?.file).toBe(__filename);
  } finally {
    Error.prepareStackTrace = hook;
  }
  const off = callerStack(client, false);
  expect(off.location).toBeUndefined();
  const error = new Error('kept');
  const stack = error.stack;
  off.pointAtCaller(error);
  expect(error.stack).toBe(stack);
  expect(withoutFramesOf(__filename, () => 42, false)).toBe(42);
});

test('plain-snippets: a no-op where playwright-core has no colors.disable, and when off', () => {
  expect(plainErrorSnippets(undefined, false)).toBe(false);
  expect(plainErrorSnippets(() => ({}))).toBe(false);
  expect(
    plainErrorSnippets(() => {
      throw new Error('Cannot find module');
    }),
  ).toBe(false);
  let disabled = 0;
  expect(plainErrorSnippets(() => ({ colors: { disable: () => void disabled++ } }))).toBe(true);
  expect(disabled).toBe(1);
});

test('allure-writer: swapped into allure-playwright’s runtime; its own writer stays without one, or when off', () => {
  const dir = mkdtempSync(join(tmpdir(), 'plumbing-allure-'));
  try {
    // Canary: allure-playwright still builds a runtime with a writer in onBegin.
    const reporter = new AllureReporter({ resultsDir: dir });
    reporter.onBegin({ allTests: () => [], suites: [] } as unknown as Parameters<typeof reporter.onBegin>[0]);
    const runtime = (reporter as unknown as { allureRuntime?: { writer?: unknown } }).allureRuntime;
    expect(typeof runtime?.writer, 'canary: allure-playwright keeps allureRuntime.writer').toBe('object');
    const own = runtime!.writer;
    expect(usePlainWriter(reporter, dir, false)).toBe(false);
    expect(runtime!.writer).toBe(own);
    expect(usePlainWriter(reporter, dir, true)).toBe(true);
    expect(runtime!.writer).toBeInstanceOf(PlainWriter);
    expect(usePlainWriter({}, dir, true)).toBe(false);
    expect(usePlainWriter({ allureRuntime: {} }, dir, true)).toBe(false);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

/** What the probe preload wrote at exit (after whatever else the child wrote to stderr). */
const probed = (stderr: string): unknown => JSON.parse(/\nPROBE (.*)$/.exec(stderr)?.[1] ?? 'undefined');

test('transform: stands aside when this Playwright exports no transform, and when off', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'plumbing-transform-'));
  try {
    // A Playwright entry point whose package has no lib/common: the layout the preload was written against gone.
    const fake = join(dir, 'node_modules', 'playwright');
    mkdirSync(fake, { recursive: true });
    writeFileSync(join(fake, 'package.json'), '{"name":"playwright","version":"0.0.0"}');
    const print = 'process.stdout.write(JSON.stringify(process.env.PW_DISABLE_TS_ESM ?? null))';
    writeFileSync(join(fake, 'cli.js'), print);
    const moved = await runNode(
      ['--require', PLAYWRIGHT_TRANSFORM_PRELOAD, join(fake, 'cli.js')],
      cleanEnv(),
    );
    expect(moved.stderr).toBe('');
    expect(JSON.parse(moved.stdout)).toBeNull();
    // The real CLI, off: Playwright's switch is never set.
    const probe = join(dir, 'probe.cjs');
    writeFileSync(
      probe,
      `process.on('exit', () => process.stderr.write('\\nPROBE ' + JSON.stringify(process.env.PW_DISABLE_TS_ESM ?? null)))`,
    );
    // The probe first: a preload after the transform's would be resolved through Playwright's hooks.
    const args = ['--require', probe, '--require', PLAYWRIGHT_TRANSFORM_PRELOAD, PLAYWRIGHT_CLI, '--version'];
    const on = await runNode(args, cleanEnv());
    const off = await runNode(args, { ...cleanEnv(), [PLUMBING_ENV]: 'off' });
    // On a Node with in-thread hooks (22.15+) the preload stands aside whatever the switch.
    expect(probed(on.stderr)).toBe('registerHooks' in Module ? null : '1');
    expect(probed(off.stderr)).toBeNull();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('lazy-babel: a stand-in that loads the bundle on first use; it stands aside without the export block it reads', () => {
  // oxlint-disable-next-line typescript/no-require-imports
  const lazy = require('../../plumbing/lazy-babel.cjs') as {
    exportNames: (source: string) => string[] | undefined;
    lazyBabel: (file: string, load?: (file: string) => unknown) => boolean;
  };
  const bundle = require.resolve('playwright/lib/transform/babelBundle');
  expect(lazy.exportNames(readFileSync(bundle, 'latin1')), 'canary: the bundle’s export block').toEqual(
    expect.arrayContaining(['babelParse', 'babelTransform', 'traverse', 'types']),
  );
  expect(lazy.exportNames('module.exports = {}')).toBeUndefined();
  expect(
    lazy.exportNames('__export(babelBundle_exports, {\n  babelParse: () => babelParse\n});'),
  ).toBeUndefined();

  const dir = mkdtempSync(join(tmpdir(), 'plumbing-babel-'));
  try {
    const file = join(dir, 'babelBundle.js');
    writeFileSync(
      file,
      '__export(babelBundle_exports, {\n  parse: () => parse,\n  types: () => types\n});\n',
    );
    const real = { parse: (s: string) => `parsed ${s}`, types: { isThing: (x: unknown) => x === 'thing' } };
    let loads = 0;
    expect(lazy.lazyBabel(file, () => (loads++, real))).toBe(true);
    expect(lazy.lazyBabel(file), 'already in require’s cache').toBe(false);
    // oxlint-disable-next-line typescript/no-require-imports
    const standIn = require(file) as typeof real;
    const types = standIn.types;
    expect(loads, 'reading types when the runner loads does not load the bundle').toBe(0);
    expect(types.isThing('thing')).toBe(true);
    expect(standIn.parse('x')).toBe('parsed x');
    expect(loads).toBe(1);
    delete require.cache[file];
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('fast-transform: esbuild for plain CommonJS, Babel for the rest; its cache apart, taken back when off', () => {
  // oxlint-disable-next-line typescript/no-require-imports
  const fast = require('../../plumbing/fast-transform.cjs') as {
    SIGNATURE: RegExp;
    fastCacheDir: () => string;
    fastTransformCache: (env: Record<string, string | undefined>) => boolean;
    loadEsbuild: (from: string) => unknown;
    esbuildWhenNeeded: (from: string) => () => unknown;
    fastTransform: (
      babel: () => (...args: unknown[]) => unknown,
      esbuild: () => unknown,
    ) => (...args: unknown[]) => { code: string; map: { sources: string[] } };
  };
  const bundle = require.resolve('playwright/lib/transform/babelBundle');
  expect(fast.SIGNATURE.test(readFileSync(bundle, 'latin1')), 'canary: babelTransform’s signature').toBe(
    true,
  );
  const esbuild = fast.loadEsbuild(__dirname);
  expect(esbuild, 'esbuild loads').toBeDefined();
  const whenNeeded = fast.esbuildWhenNeeded(__dirname);
  expect(whenNeeded(), 'loaded on first use, then kept').toBe(esbuild);
  expect(fast.esbuildWhenNeeded(tmpdir())(), 'none to be found: Babel then').toBeUndefined();
  const babelCalls: unknown[][] = [];
  const babel =
    () =>
    (...args: unknown[]) => (babelCalls.push(args), { code: 'babel', map: { sources: [] } });
  const transform = fast.fastTransform(babel, () => esbuild);
  const plain = transform('export const x: number = 1;\n', '/p/a.ts', false, [], true, undefined);
  expect(plain.code).toMatch(/^"use strict";\n/);
  expect(plain.code).toContain('module.exports');
  expect(plain.map.sources).toEqual(['/p/a.ts']);
  expect(babelCalls).toEqual([]);
  transform('export {}', '/p/b.ts', true, [], true, undefined);
  transform('export {}', '/p/c.ts', false, [['plugin']], true, undefined);
  transform('export {}', '/p/d.tsx', false, [], true, { runtime: 'automatic' });
  transform('export {}', '/p/e.mjs', false, [], true, undefined);
  fast.fastTransform(babel, () => undefined)('export {}', '/p/f.ts', false, [], true, undefined);
  expect(
    babelCalls.map((c) => c[1]),
    'an ES module, a plugin, JSX, another extension, no esbuild: Babel',
  ).toEqual(['/p/b.ts', '/p/c.ts', '/p/d.tsx', '/p/e.mjs', '/p/f.ts']);

  const env: Record<string, string | undefined> = {};
  expect(fast.fastTransformCache(env)).toBe(true);
  expect(env.PLAYWRIGHT_TRANSFORM_CACHE_DIR).toBe(fast.fastCacheDir());
  expect(fast.fastTransformCache({ ...env, [PLUMBING_ENV]: 'off' })).toBe(false);
  const off: Record<string, string | undefined> = { ...env, [PLUMBING_ENV]: 'off' };
  fast.fastTransformCache(off);
  expect(off.PLAYWRIGHT_TRANSFORM_CACHE_DIR, 'off, the parent’s choice taken back').toBeUndefined();
  const users = { PLAYWRIGHT_TRANSFORM_CACHE_DIR: '/theirs' };
  expect(fast.fastTransformCache(users), 'a cache dir of the user’s own: Babel’s path').toBe(false);
  expect(users.PLAYWRIGHT_TRANSFORM_CACHE_DIR).toBe('/theirs');
});

test('lazy-babel: babelTransform through esbuild only with the signature it was written against', () => {
  // oxlint-disable-next-line typescript/no-require-imports
  const lazy = require('../../plumbing/lazy-babel.cjs') as {
    lazyBabel: (file: string, load: (file: string) => unknown, esbuild?: () => unknown) => boolean;
  };
  // oxlint-disable-next-line typescript/no-require-imports
  const fast = require('../../plumbing/fast-transform.cjs') as { loadEsbuild: (f: string) => unknown };
  const esbuild = fast.loadEsbuild(__dirname);
  const dir = mkdtempSync(join(tmpdir(), 'plumbing-fast-'));
  try {
    const block =
      '__export(babelBundle_exports, {\n  babelTransform: () => babelTransform,\n  types: () => types\n});\n';
    const signature =
      'function babelTransform(code, filename, isModule, pluginsEpilogue, useDefineForClassFields, jsx) {}\n';
    const real = { babelTransform: () => ({ code: 'babel', map: {} }), types: {} };
    const transformOf = (name: string, source: string) => {
      const file = join(dir, name);
      writeFileSync(file, source);
      expect(
        lazy.lazyBabel(
          file,
          () => real,
          () => esbuild,
        ),
      ).toBe(true);
      // oxlint-disable-next-line typescript/no-require-imports
      const standIn = require(file) as { babelTransform: (...args: unknown[]) => { code: string } };
      const out = standIn.babelTransform('const a = 1;\n', '/p/a.ts', false, [], true, undefined).code;
      delete require.cache[file];
      return out;
    };
    expect(transformOf('written-against.js', signature + block)).toMatch(/^"use strict";\nconst a = 1;/);
    expect(transformOf('moved.js', signature.replace('jsx', 'jsxOptions') + block), 'another signature').toBe(
      'babel',
    );
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
