// Playwright's runner loads its Babel bundle when it starts, for one job: rewriting a spec's snapshot
// expectations (`--update-snapshots` of an aria snapshot). Its transform needs Babel only for a file missing
// from its compilation cache. A run whose files are all cached never calls Babel, yet every runner paid for
// loading it. This puts a stand-in for `playwright/lib/transform/babelBundle` in require's
// cache: the same export names, each loading the real bundle on first use (`types`, which the runner reads
// when it loads, is forwarded property by property). What Babel does, and when, is unchanged.
// Stands aside — the real bundle loads as before — when the bundle is already loaded, cannot be found, or its
// export block is not the one it was written against (the names are read from the bundle itself).
'use strict';
const Module = require('node:module');
const fs = require('node:fs');
const path = require('node:path');
const { SIGNATURE, fastTransform, esbuildWhenNeeded } = require('./fast-transform.cjs');

/** The names in the bundle's `__export(babelBundle_exports, { name: () => …, … })` block, or undefined. */
function exportNames(source) {
  const block = /__export\(babelBundle_exports, \{([^}]*)\}\);/.exec(source)?.[1];
  if (block === undefined) return undefined;
  const names = [...block.matchAll(/(\w+): \(\) =>/g)].map((m) => m[1]);
  return names.includes('types') ? names : undefined;
}

/** A stand-in whose every property is `target()`'s, read when asked. */
function forwarding(target) {
  return new Proxy(
    {},
    {
      get: (_, key) => target()[key],
      has: (_, key) => key in target(),
      ownKeys: () => Reflect.ownKeys(target()),
      getOwnPropertyDescriptor: (_, key) => {
        const d = Reflect.getOwnPropertyDescriptor(target(), key);
        return d && { ...d, configurable: true };
      },
    },
  );
}

/**
 * Installs the stand-in for the bundle `file`; returns whether it did. `load` (tests) replaces the real
 * require of the bundle. With `esbuild` (a function giving esbuild, or undefined when it cannot be loaded), and a
 * babelTransform of the signature ./fast-transform.cjs was written against, the stand-in's babelTransform
 * compiles plain CommonJS with esbuild, and the stand-in stays what require() gives once the real bundle is
 * loaded.
 */
function lazyBabel(file, load = (f) => require(f), esbuild = undefined) {
  if (require.cache[file] !== undefined) return false;
  let names;
  let fast;
  try {
    const source = fs.readFileSync(file, 'latin1');
    names = exportNames(source);
    if (esbuild !== undefined && SIGNATURE.test(source))
      fast = fastTransform(() => bundle().babelTransform, esbuild);
  } catch {
    return false;
  }
  if (names === undefined) return false;
  let real;
  const bundle = () => {
    if (real === undefined) {
      if (require.cache[file] === standIn) delete require.cache[file];
      real = load(file);
      if (fast !== undefined) require.cache[file] = standIn;
    }
    return real;
  };
  const exports = {};
  Object.defineProperty(exports, '__esModule', { value: true });
  let types;
  for (const name of names) {
    Object.defineProperty(exports, name, {
      enumerable: true,
      get: () => {
        if (name === 'babelTransform' && fast !== undefined) return fast;
        if (name !== 'types' || real !== undefined) return bundle()[name];
        return (types ??= forwarding(() => bundle().types));
      },
    });
  }
  const standIn = new Module(file, null);
  standIn.filename = file;
  standIn.paths = Module._nodeModulePaths(path.dirname(file));
  standIn.exports = exports;
  standIn.loaded = true;
  require.cache[file] = standIn;
  return true;
}

/**
 * The stand-in for the Playwright that runs `entry` (its CLI or one of its processes); with `fast`, its
 * babelTransform through esbuild where it can (./fast-transform.cjs).
 */
function installLazyBabel(entry, fast = false) {
  let file;
  try {
    file = require.resolve('playwright/lib/transform/babelBundle', { paths: [path.dirname(entry)] });
  } catch {
    return false;
  }
  return lazyBabel(file, undefined, fast ? esbuildWhenNeeded(path.dirname(entry)) : undefined);
}

module.exports = { exportNames, lazyBabel, installLazyBabel };
