// Preloaded (`node --require`) into every Playwright process the harness starts — the runner, its workers and
// loader — through `playwrightCommand` (plumbing/playwright-cli.ts); the workers inherit it with the runner's
// execArgv. On a Node without `module.registerHooks` (before 22.15), Playwright registers its TypeScript
// transform twice per process: for require() (CJS hooks) and, through `module.register`, for import() — an
// off-thread ESM loader whose start costs each process time (bench/README.md). The harness is
// CommonJS (package.json "type": "commonjs") and never import()s its TypeScript, so this installs
// Playwright's own CJS hooks (`installCJSHooks`, written again from its exported transform: the same
// transformHook, resolveHook and shouldTransform) and sets PW_DISABLE_TS_ESM, Playwright's switch that skips
// the ESM loader. Every location in the reports is that of the default path (the code itself is esbuild's
// where the runner compiles it, ./fast-transform.cjs, set up at the end of this file). It does nothing on Node
// 22.15+ (Playwright's hooks run in-thread there), outside Playwright's own processes, when PW_DISABLE_TS_ESM
// is already set, or when this Playwright exports no transform: Playwright's default path then runs unchanged.
'use strict';
const Module = require('node:module');
const path = require('node:path');
// Before the hooks below exist: a file this process requires after them is taken for the project's own.
const { installLazyBabel } = require('./lazy-babel.cjs');
const { installCodeCache } = require('./code-cache.cjs');
const { fastTransformCache } = require('./fast-transform.cjs');

const INSTALLED = Symbol.for('ledger-conformance.playwright-transform');

/** The runner (`…/@playwright/test/cli.js`, `…/playwright/cli.js`) or one of its processes (`…/playwright/lib/…`). */
function isPlaywrightProcess(entry) {
  const p = (entry ?? '').split(path.sep).join('/');
  return /\/node_modules\/(@playwright\/test|playwright)\/(cli\.js|lib\/)/.test(p);
}

function install() {
  // LEDGER_PLUMBING=off turns every patch of this folder off (switch.ts; node loads this file before any TypeScript).
  if (process.env.LEDGER_PLUMBING === 'off') return;
  if (Module.registerHooks || process.env.PW_DISABLE_TS_ESM || globalThis[INSTALLED]) return;
  if (!isPlaywrightProcess(process.argv[1])) return;
  let transform;
  try {
    // The Playwright this process runs (resolved from its entry point), not whichever this file would find.
    const common = require.resolve('playwright/lib/common', { paths: [path.dirname(process.argv[1])] });
    transform = require(common).transform;
  } catch {
    return;
  }
  const { transformHook, resolveHook, shouldTransform } = transform ?? {};
  if (![transformHook, resolveHook, shouldTransform].every((f) => typeof f === 'function')) return;
  globalThis[INSTALLED] = true;

  // Playwright's installCJSHooks: specifiers through its resolveHook (tsconfig paths), then its pirates hook
  // on each transformed extension (.ts is later pointed at the .js loader, this one), style files empty.
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (specifier, parent, ...rest) {
    if (parent) {
      const resolved = resolveHook(parent.filename, specifier);
      if (resolved !== undefined) specifier = resolved;
    }
    return resolveFilename.call(this, specifier, parent, ...rest);
  };
  const loaders = Module._extensions;
  const transformed = ['.ts', '.tsx', '.js', '.jsx', '.mjs', '.mts', '.cjs', '.cts'];
  const jsLoader = loaders['.js'];
  for (const ext of transformed.filter((e) => e !== '.cjs')) {
    const original = loaders[ext] || jsLoader;
    loaders[ext] = function (mod, filename, ...args) {
      if (transformed.includes(path.extname(filename)) && shouldTransform(filename)) {
        // Playwright read the switch before it loads any file of the project (requireOrImport installs the
        // transform first): from here on, children this process starts get Playwright's default path.
        delete process.env.PW_DISABLE_TS_ESM;
        const compile = mod._compile;
        mod._compile = function (code, file) {
          mod._compile = compile;
          return compile.call(this, transformHook(code, filename).code, file);
        };
      }
      original.call(this, mod, filename, ...args);
    };
  }
  for (const ext of ['.css', '.less', '.scss']) loaders[ext] = () => {};
  process.env.PW_DISABLE_TS_ESM = '1';
}

// First: the code cache must be in place before Playwright's bundles load, the transform's included
// (./code-cache.cjs; on Node 22.15+ too, where the transform below stands aside).
if (isPlaywrightProcess(process.argv[1])) installCodeCache();
// Before install(), which loads Playwright's transform: it reads the cache dir once, when it loads.
const fast = isPlaywrightProcess(process.argv[1]) && fastTransformCache(process.env);
install();

// Independent of the transform above (Node 22.15+ included): the runner's Babel loaded on first use
// (./lazy-babel.cjs), the plain CommonJS compiled by esbuild (./fast-transform.cjs). Only the runner loads
// Babel at start and compiles a run's files; a worker or loader compiles one on a cache miss alone, with Babel.
if (
  process.env.LEDGER_PLUMBING !== 'off' &&
  isPlaywrightProcess(process.argv[1]) &&
  /cli\.js$/.test(process.argv[1])
) {
  installLazyBabel(process.argv[1], fast);
}
