// plumbing/code-cache.cjs keeps V8's compiled code of playwright-core's two bundles between processes on Node 20.
// A module loaded through it runs as Node's own loader runs it, from a fresh cache, a warm one and a corrupt
// one; it stands aside where it says it does; the preload puts it in Playwright's processes; and the bundles'
// import() calls, which fail in a cached script on Node 20, are the ones its header says none of our runs reach.
import Module from 'node:module';
import {
  chmodSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { expect, test } from '../support/test';
import { cleanEnv, ROOT, runNode } from '../support/child-run';
import { PLAYWRIGHT_CLI, PLAYWRIGHT_TRANSFORM_PRELOAD } from '../../plumbing/playwright-cli';

// oxlint-disable-next-line typescript/no-require-imports -- a CommonJS preload, typed here by hand
const codeCache = require('../../plumbing/code-cache.cjs') as {
  installCodeCache(options?: { moduleClass?: unknown; dir?: string; env?: NodeJS.ProcessEnv }): boolean;
  CACHED: RegExp;
};

const CODE_CACHE = join(ROOT, 'plumbing', 'code-cache.cjs');

/** What the probe module sees of its loader: each a thing Node's own gives a CommonJS module. */
const PROBE = `const dep = require('./dep');
module.exports = {
  dep,
  resolved: require.resolve('./dep'),
  paths: Array.isArray(require.resolve.paths('x')),
  file: __filename,
  dir: __dirname,
  self: this === module.exports,
  id: module.id === __filename,
  main: require.main === process.mainModule,
  cached: require.cache[__filename] === module,
  extensions: require.extensions === require('node:module')._extensions,
  later: () => 'a function compiled when first called',
};
`;

/** The main module (so require.main is one) loading the probe, with the cache on (`cache`) or not; prints what it saw. */
const DRIVER = `const [mode, lib, dir] = process.argv.slice(2);
const on = mode === 'cache' && require(${JSON.stringify(CODE_CACHE)}).installCodeCache({ dir });
const probe = require(lib + '/coreBundle.js');
console.log(JSON.stringify({ on, ...probe, later: probe.later() }));
`;

test('a module from a fresh, a warm and a corrupt cache runs as Node loads it; the warm one is read, not written', async () => {
  const root = mkdtempSync(join(tmpdir(), 'code-cache-'));
  try {
    const lib = join(root, 'node_modules', 'playwright-core', 'lib');
    const dir = join(root, 'cache');
    mkdirSync(lib, { recursive: true });
    writeFileSync(join(root, 'driver.js'), DRIVER);
    writeFileSync(join(lib, 'coreBundle.js'), PROBE);
    writeFileSync(join(lib, 'dep.js'), "module.exports = 'dep';\n");
    const load = async (mode: 'plain' | 'cache') => {
      const run = await runNode([join(root, 'driver.js'), mode, lib, dir], cleanEnv());
      expect(run.status, run.stderr).toBe(0);
      const { on, ...seen } = JSON.parse(run.stdout) as Record<string, unknown>;
      expect(on, `${mode}: installed`).toBe(mode === 'cache');
      return seen;
    };
    const cacheFiles = () => readdirSync(dir).map((f) => join(dir, f));
    const stamps = () => cacheFiles().map((f) => `${f} ${statSync(f).mtimeMs}`);

    const plain = await load('plain');
    expect(plain).toMatchObject({ dep: 'dep', self: true, id: true, cached: true, main: true, paths: true });
    expect(await load('cache'), 'fresh cache').toEqual(plain);
    expect(cacheFiles(), 'one cache file: the bundle (dep.js is not one)').toHaveLength(1);
    const written = stamps();
    expect(await load('cache'), 'warm cache').toEqual(plain);
    expect(stamps(), 'a warm cache is read, not written again').toEqual(written);
    for (const file of cacheFiles()) writeFileSync(file, 'not V8 data');
    expect(await load('cache'), 'corrupt cache').toEqual(plain);
    for (const file of cacheFiles())
      expect(readFileSync(file, 'latin1'), 'a rejected cache is written again').not.toBe('not V8 data');
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
});

/** A stand-in for Node's Module whose own compile records what it was given. */
function fakeModuleClass() {
  const compiled: unknown[][] = [];
  class Fake {
    exports = {};
    static wrap = Module.wrap;
  }
  (Fake.prototype as unknown as Record<string, unknown>)._compile = (...args: unknown[]) => {
    compiled.push(args);
    return 'own compile';
  };
  const compile = (content: string, filename: string, format?: string): unknown =>
    (Fake.prototype as unknown as { _compile: (...a: unknown[]) => unknown })._compile.call(
      new Fake(),
      content,
      filename,
      format,
    );
  return { Fake, compiled, compile };
}

test('stands aside: when off, in a folder others may write in, on a Node with its own compile cache; Node compiles what it does not cache', () => {
  const dir = mkdtempSync(join(tmpdir(), 'code-cache-aside-'));
  try {
    const off = fakeModuleClass();
    const ownCompile = (off.Fake.prototype as unknown as Record<string, unknown>)._compile;
    expect(codeCache.installCodeCache({ moduleClass: off.Fake, dir, env: { LEDGER_PLUMBING: 'off' } })).toBe(
      false,
    );
    expect((off.Fake.prototype as unknown as Record<string, unknown>)._compile).toBe(ownCompile);
    // A folder others may write in (or made by someone else): what it holds would run as code.
    const shared = join(dir, 'shared');
    mkdirSync(shared, { mode: 0o777 });
    chmodSync(shared, 0o777);
    const open = fakeModuleClass();
    expect(codeCache.installCodeCache({ moduleClass: open.Fake, dir: join(shared, 'cache'), env: {} })).toBe(
      false,
    );
    expect(codeCache.installCodeCache({ moduleClass: open.Fake, dir: shared, env: {} })).toBe(false);
    const node22 = fakeModuleClass();
    Object.assign(node22.Fake, { enableCompileCache: () => undefined });
    expect(codeCache.installCodeCache({ moduleClass: node22.Fake, dir, env: {} })).toBe(false);

    const on = fakeModuleClass();
    expect(codeCache.installCodeCache({ moduleClass: on.Fake, dir, env: {} })).toBe(true);
    const bundle = join(dir, 'node_modules', 'playwright-core', 'lib', 'utilsBundle.js');
    expect(codeCache.CACHED.test(bundle)).toBe(true);
    // The runner's own files, which import() ES module configs and reporters, are never cached.
    expect(codeCache.CACHED.test(join(dir, 'node_modules', 'playwright', 'lib', 'common', 'index.js'))).toBe(
      false,
    );
    const project = join(dir, 'core', 'x.js');
    expect(on.compile('module.exports = 1;', project)).toBe('own compile');
    expect(on.compile('module.exports = 1;', bundle, 'module')).toBe('own compile');
    // V8 refuses ES module syntax as a script: Node's loader takes it (and says what is wrong, if anything).
    expect(on.compile('export const x = 1;', bundle)).toBe('own compile');
    expect(on.compiled).toEqual([
      ['module.exports = 1;', project, undefined],
      ['module.exports = 1;', bundle, 'module'],
      ['export const x = 1;', bundle, undefined],
    ]);
    // Named by its stat: a bundle that cannot be read goes to Node too; one that can is compiled here.
    expect(on.compiled).toHaveLength(3);
    mkdirSync(dirname(bundle), { recursive: true });
    writeFileSync(bundle, 'module.exports = 2;');
    expect(on.compile('module.exports = 2;', bundle), 'a bundle is compiled here').toBeUndefined();
    expect(on.compiled).toHaveLength(3);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test('the preload caches Playwright’s bundles in its processes, and the next process reads them', async () => {
  const tmp = mkdtempSync(join(tmpdir(), 'code-cache-preload-'));
  try {
    const env = { ...cleanEnv(), TMPDIR: tmp };
    const files = () =>
      readdirSync(tmp, { recursive: true, withFileTypes: true })
        .filter((f) => f.isFile())
        .map((f) => join(f.parentPath, f.name))
        .sort();
    const stamps = () => files().map((f) => `${f} ${statSync(f).mtimeMs}`);
    const version = () =>
      runNode(['--require', PLAYWRIGHT_TRANSFORM_PRELOAD, PLAYWRIGHT_CLI, '--version'], env);
    expect((await version()).status).toBe(0);
    expect(files().some((f) => f.includes('ledger-conformance-code-cache-'))).toBe(true);
    const written = stamps();
    expect((await version()).status).toBe(0);
    expect(stamps()).toEqual(written);
    expect(
      (
        await runNode(['--require', PLAYWRIGHT_TRANSFORM_PRELOAD, PLAYWRIGHT_CLI, '--version'], {
          ...env,
          TMPDIR: join(tmp, 'off'),
          LEDGER_PLUMBING: 'off',
        })
      ).status,
    ).toBe(0);
    expect(
      files().filter((f) => f.startsWith(join(tmp, 'off'))),
      'LEDGER_PLUMBING=off: no cache',
    ).toEqual([]);
  } finally {
    rmSync(tmp, { recursive: true, force: true });
  }
});

/** Each import( of the bundle, with what precedes it on its line: the sites the header of code-cache.cjs reviews. */
const IMPORT_SITES: Record<string, string[]> = {
  coreBundle: [`const loadVite = new Function('return import("vite")');`],
  utilsBundle: [
    'kerberos = await import("kerberos");',
    '// annotated so the .d.cts emits an indexed access rather than an inline `import()` of an ESM path',
    'import("node:crypto").then((m) => m.webcrypto);',
  ],
};

test('canary: the import() calls of the cached bundles are the reviewed ones', () => {
  for (const [bundle, sites] of Object.entries(IMPORT_SITES)) {
    const file = join(dirname(require.resolve('playwright-core/package.json')), 'lib', `${bundle}.js`);
    expect(codeCache.CACHED.test(file), bundle).toBe(true);
    const found = readFileSync(file, 'utf8')
      .split('\n')
      .filter((line) => /\bimport\s*\(/.test(line))
      .map((line) => line.trim());
    expect(found, `${bundle}: review each new import() (code-cache.cjs says why), then list it here`).toEqual(
      sites,
    );
  }
});
