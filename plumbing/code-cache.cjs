// playwright-core's two bundles (`lib/coreBundle.js`, `lib/utilsBundle.js`: 6.7 MB of JavaScript) are compiled
// by V8 again in every process that loads them: the runner, each worker, the runs a self-test or the nightly
// starts. Node 22 caches compiled code on disk (`module.enableCompileCache`, NODE_COMPILE_CACHE); Node 20 has
// no such switch. This keeps V8's code cache of those two files under the OS temp folder, one file per source
// (named by a hash of its path, length and modification time, so an upgrade or an edit misses and writes
// anew; hashing 6.7 MB in each process cost more than reading the file's stat), read when the file is loaded
// and written when the process that compiled it without one exits, the functions it ran included. What runs
// is the same source, wrapped and called as Node's own loader does (its require, module, exports, __filename,
// __dirname).
// The cost, and why only these two files: on Node 20 a script compiled from a cache loses what import() needs
// (V8 drops the script's host-defined options), so import() in them fails. Their import() calls are Kerberos
// for Negotiate proxy authentication in Playwright's own network stack (the harness sends nothing through
// it), webcrypto on Node 18 and older, and a Vite dev server behind `if (false)`: none runs in a run of the
// harness, and selftest/plumbing/code-cache.test.ts fails when an upgrade adds another. Playwright's
// runner loads ES module configs and reporters by import() from `playwright/lib`, which is never cached.
// Stands aside — Node's own compile runs — on a Node with module.enableCompileCache, with LEDGER_PLUMBING=off,
// when its folder is not this user's alone, for any other file, for a file compiled as an ES module or that
// cannot be stat'ed, and whenever V8 refuses the source as a script (Node then reports the error it would
// anyway). A cache that cannot be read, or that V8 rejects, is compiled without and written again.
'use strict';
const Module = require('node:module');
const crypto = require('node:crypto');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const v8 = require('node:v8');
const vm = require('node:vm');

const INSTALLED = Symbol.for('ledger-conformance.code-cache');
/** The files cached: playwright-core's two bundles (the header says why no other). */
const CACHED = /[\\/]node_modules[\\/]playwright-core[\\/]lib[\\/](coreBundle|utilsBundle)\.js$/;

/**
 * The cache folder: per user, and per V8 version and flags (cachedDataVersionTag: data made under other flags
 * V8 rejects, so processes started with different flags would only overwrite each other's).
 */
function cacheDir() {
  const user = typeof process.getuid === 'function' ? process.getuid() : 'user';
  const v8Tag = `${process.version}-${process.arch}-${v8.cachedDataVersionTag()}`;
  return path.join(os.tmpdir(), `ledger-conformance-code-cache-${user}`, v8Tag);
}

/** The require function Node's loader gives a module (lib/internal/modules/helpers makeRequireFunction). */
function requireFor(mod) {
  const require = (id) => mod.require(id);
  require.resolve = (request, options) => Module._resolveFilename(request, mod, false, options);
  require.resolve.paths = (request) => Module._resolveLookupPaths(request, mod);
  require.main = process.mainModule;
  require.extensions = Module._extensions;
  require.cache = Module._cache;
  return require;
}

/**
 * Makes `dir` (mode 700) and says whether it is this user's alone, with every folder between it and the temp
 * folder (which all users share: its own permissions are the system's). What is read from it runs as code: a
 * folder someone else made first, or that others may write in, is not used.
 */
function ownFolder(dir) {
  try {
    fs.mkdirSync(dir, { recursive: true, mode: 0o700 });
    const temp = path.resolve(os.tmpdir());
    const folders = [path.resolve(dir)];
    if (folders[0].startsWith(temp + path.sep)) {
      for (let up = path.dirname(folders[0]); up !== temp; up = path.dirname(up)) folders.push(up);
    }
    return folders.every((folder) => {
      const stat = fs.lstatSync(folder);
      const mine = typeof process.getuid !== 'function' || stat.uid === process.getuid();
      return stat.isDirectory() && mine && (stat.mode & 0o022) === 0;
    });
  } catch {
    return false;
  }
}

/**
 * Installs the cache on `moduleClass` (Node's Module; tests pass their own); returns whether it did. `dir` is
 * where the cache files go.
 */
function installCodeCache({ moduleClass = Module, dir = cacheDir(), env = process.env } = {}) {
  if (env.LEDGER_PLUMBING === 'off' || globalThis[INSTALLED] === moduleClass) return false;
  if (typeof moduleClass.enableCompileCache === 'function') return false;
  const compile = moduleClass.prototype._compile;
  if (typeof compile !== 'function' || typeof moduleClass.wrap !== 'function') return false;
  if (!ownFolder(dir)) return false;
  globalThis[INSTALLED] = moduleClass;
  /** Scripts compiled here without a usable cache: their data is written when the process exits. */
  const unsaved = [];
  moduleClass.prototype._compile = function (content, filename, format) {
    if (!CACHED.test(filename) || (format !== undefined && format !== 'commonjs'))
      return compile.call(this, content, filename, format);
    let stat;
    try {
      stat = fs.statSync(filename);
    } catch {
      return compile.call(this, content, filename, format);
    }
    const key = `${filename}\0${content.length}\0${stat.size}\0${stat.mtimeMs}`;
    const file = path.join(dir, crypto.createHash('sha256').update(key).digest('hex'));
    let cachedData;
    try {
      cachedData = fs.readFileSync(file);
    } catch {
      // not cached yet
    }
    let script;
    try {
      // A shebang is only legal at the very start of a script; Node strips it the same way.
      const source = moduleClass.wrap(content.startsWith('#!') ? `//${content}` : content);
      // No importModuleDynamically: import() fails in these files, with a cache or without (see above).
      script = new vm.Script(source, { filename, cachedData });
    } catch {
      return compile.call(this, content, filename, format);
    }
    if (cachedData === undefined || script.cachedDataRejected) unsaved.push({ script, file });
    const fn = script.runInThisContext({ displayErrors: true });
    return fn.call(this.exports, this.exports, requireFor(this), this, filename, path.dirname(filename));
  };
  process.once('exit', () => {
    for (const { script, file } of unsaved) {
      const partial = `${file}.${process.pid}`;
      try {
        fs.writeFileSync(partial, script.createCachedData());
        fs.renameSync(partial, file);
      } catch {
        try {
          fs.rmSync(partial, { force: true });
        } catch {
          // a temp file left behind; the next process writes its own
        }
      }
    }
  });
  return true;
}

module.exports = { installCodeCache, cacheDir, CACHED };
