// Playwright compiles each TypeScript file of a run once, with Babel, into its transform cache: the runner does it
// for every spec, fixture and module a run loads (for `npm test`, some 300 files, about 5 CPU s of the runner's
// start). This compiles the same files with esbuild, which tsx already runs the harness's scripts with, into
// CommonJS with a source map, as Babel does: the same modules, the same locations in every report and stack
// (selftest/plumbing/transform.test.ts compares them with Babel's). It takes only what Babel's options would
// make plain CommonJS of: a .ts, .js or .cts file, not an ES module, with no plugin Playwright adds (component
// tests) and no JSX; anything else goes to Babel. import() stays import(), as Babel leaves it, and the code is
// strict, as Babel makes it.
// Its output lives in a transform cache of its own (PLAYWRIGHT_TRANSFORM_CACHE_DIR, set by ./transform.cjs), so
// a run with LEDGER_PLUMBING=off never reads esbuild's output, nor this path Babel's.
'use strict';
const os = require('node:os');
const path = require('node:path');

/** The signature of the bundle's babelTransform this was written against (playwright 1.65). */
const SIGNATURE =
  /\bfunction babelTransform\(code, filename, isModule, pluginsEpilogue, useDefineForClassFields, jsx\) \{/;

const PLAIN = /\.(ts|cts|js)$/;

/** The transform cache of this path: beside Playwright's own, named apart. */
function fastCacheDir() {
  return path.join(os.tmpdir(), `playwright-transform-cache-${process.geteuid?.() ?? 'user'}-esbuild`);
}

/**
 * esbuild's transform cache apart from Babel's, in `env` (a Playwright process's, before Playwright reads it;
 * its workers inherit it); whether the esbuild path may run. Off (LEDGER_PLUMBING=off), a cache dir this set in
 * a parent is taken back. A user's own PLAYWRIGHT_TRANSFORM_CACHE_DIR keeps esbuild out: Babel fills it, as
 * without this folder.
 */
function fastTransformCache(env) {
  const own = env.PLAYWRIGHT_TRANSFORM_CACHE_DIR;
  if (env.LEDGER_PLUMBING === 'off') {
    if (own === fastCacheDir()) delete env.PLAYWRIGHT_TRANSFORM_CACHE_DIR;
    return false;
  }
  if (own !== undefined && own !== fastCacheDir()) return false;
  env.PLAYWRIGHT_TRANSFORM_CACHE_DIR = fastCacheDir();
  return true;
}

/** esbuild, from the Playwright process's project, or undefined when it cannot be loaded. */
function loadEsbuild(from) {
  try {
    return require(require.resolve('esbuild', { paths: [from] }));
  } catch {
    return undefined;
  }
}

/**
 * esbuild from `from`, loaded on the first call and kept: a runner whose files are all in the transform cache,
 * most runs, never loads it.
 */
function esbuildWhenNeeded(from) {
  let esbuild = null;
  return () => (esbuild === null ? (esbuild = loadEsbuild(from)) : esbuild);
}

/**
 * A babelTransform that hands the plain CommonJS cases to `esbuild()` (esbuild, or undefined when it cannot be
 * loaded) and the rest to `babel()` (the bundle's own babelTransform, loaded when first needed). Same arguments,
 * same result: `{ code, map }`.
 */
function fastTransform(babel, esbuild) {
  return function babelTransform(code, filename, isModule, pluginsEpilogue, useDefineForClassFields, jsx) {
    const compiler =
      isModule || pluginsEpilogue.length > 0 || jsx || !PLAIN.test(filename) ? undefined : esbuild();
    if (compiler === undefined) {
      return babel()(code, filename, isModule, pluginsEpilogue, useDefineForClassFields, jsx);
    }
    const result = compiler.transformSync(code, {
      loader: filename.endsWith('.js') ? 'js' : 'ts',
      format: 'cjs',
      target: `node${process.versions.node}`,
      sourcemap: 'external',
      sourcefile: filename,
      // Babel's output is strict code, every file's (esbuild writes no directive of its own).
      banner: '"use strict";',
      tsconfigRaw: { compilerOptions: { useDefineForClassFields: !!useDefineForClassFields } },
    });
    return { code: result.code, map: JSON.parse(result.map) };
  };
}

module.exports = {
  SIGNATURE,
  fastCacheDir,
  fastTransformCache,
  loadEsbuild,
  esbuildWhenNeeded,
  fastTransform,
};
