// Every lint rule is oxlint's (oxlint.config.mjs), in one native pass. Held here, against the packages that define
// the rule sets (typescript-eslint and @eslint/js, kept for that): oxlint runs exactly typescript-eslint's typed
// rules of recommendedTypeChecked, and ESLint's and typescript-eslint's recommended as they configure TypeScript
// files and JavaScript files — a rule a later version adds shows up as missing — and each rule fires, under the
// project's config, on a planted file that breaks it on a marked line.
import { join } from 'node:path';
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import { expect, test } from '../support/test';
import { ROOT, runNode } from '../support/child-run';
import { OXLINT_CONFIG } from '../../scripts/dev/lint-tools';
import { lintPlanted, type Finding } from './planted-lint';

/** Rules of those sets the project leaves off (oxlint.config.mjs), and why. */
const LEFT_OUT: Record<string, string> = {
  'require-await': 'Playwright test and fixture callbacks are async by contract, awaiting or not',
  'no-empty-pattern':
    'Playwright fixtures take an empty object pattern by convention: `async ({}, use) => …`',
};

/** Each line ending `// <rule>` breaks that typed rule. */
const PLANTED_TYPED = `declare const anything: any;
declare function later(): Promise<number>;
declare function takesString(s: string): void;
declare function voidCallback(f: () => void): void;
enum Fruit {
  Apple = 'apple',
}
class Counter {
  n = 0;
  inc(): void {
    this.n++;
  }
}
const box: { value: number }[] = [1, 2].map((value) => ({ value }));

export async function planted(): Promise<number> {
  await 42; // await-thenable
  delete box[0]; // no-array-delete
  const plain = \`\${{}.toString()}\`; // no-base-to-string
  type Twice = string | string; // no-duplicate-type-constituents
  later(); // no-floating-promises
  for (const i in box) console.log(i); // no-for-in-array
  setTimeout('console.log(1)', 1); // no-implied-eval
  voidCallback(async () => {}); // no-misused-promises
  type Redundant = unknown | string; // no-redundant-type-constituents
  const same = (1 as number) as number; // no-unnecessary-type-assertion
  takesString(anything); // no-unsafe-argument
  const assigned: string = anything; // no-unsafe-assignment
  anything(); // no-unsafe-call
  const eq = Fruit.Apple === 'apple'; // no-unsafe-enum-comparison
  const member = anything.field; // no-unsafe-member-access
  const neg = -('1' as unknown as string); // no-unsafe-unary-minus
  if (eq) throw 'text'; // only-throw-error
  await Promise.reject(1); // prefer-promise-reject-errors
  const plus = ((s: string, n: never) => s + n)('a', undefined as never); // restrict-plus-operands
  const template = \`\${{ a: 1 } as object}\`; // restrict-template-expressions
  const unbound = new Counter().inc; // unbound-method
  const _unused: [Twice?, Redundant?] = [];
  console.log(plain, same, assigned, member, neg, plus, template, unbound, _unused);
  return anything; // no-unsafe-return
}
`;

/**
 * Each line ending `// <rule>` breaks that rule (oxlint's name: ESLint's rules unprefixed, typescript-eslint's
 * `typescript/`, the house's own `house/`). NBSP stands for a no-break space.
 */
const PLANTED_TS = String.raw`/// <reference path="./elsewhere.d.ts" /> // typescript/triple-slash-reference
declare function use(...values: unknown[]): void;
declare let n: number;
declare const obj: { a?: { b: number }; fn?: () => void; hasOwnProperty(k: string): boolean };
// @ts-ignore // typescript/ban-ts-comment
export function planted(this: unknown): unknown {
  for (let i = 0; i < 10; i--) use(i); // for-direction
  use(new Promise(async (resolve) => resolve(1))); // no-async-promise-executor
  switch (n) { case 1: let declared = 1; use(declared); } // no-case-declarations
  if (n === -0) use(n); // no-compare-neg-zero
  if (n = 2) use(n); // no-cond-assign
  use({} === {}); // no-constant-binary-expression
  if (true) use(n); // no-constant-condition
  use(/\x1f/); // no-control-regex
  debugger; // no-debugger
  if (n === 1) use(1); else if (n === 1) use(2); // no-dupe-else-if
  switch (n) { case 1: use(1); break; case 1: use(2); } // no-duplicate-case
  if (n) {} // no-empty
  use(/abc[]/); // no-empty-character-class
  use(class { static {} }); // no-empty-static-block
  try { use(1); } catch (e) { e = 1; use(e); } // no-ex-assign
  if (!!n) use(n); // no-extra-boolean-cast
  switch (n) { case 1: use(1); case 2: use(2); } // no-fallthrough
  Math = null; // no-global-assign
  use(new RegExp('[')); // no-invalid-regexp
  use(n);NBSP // no-irregular-whitespace
  use(9007199254740993); // no-loss-of-precision
  use(/^[👍]$/); // no-misleading-character-class
  use(obj.hasOwnProperty('a')); // no-prototype-builtins
  use(/a   b/); // no-regex-spaces
  n = n; // no-self-assign
  { const NaN = 1; use(NaN); } // no-shadow-restricted-names
  use([1, , 2]); // no-sparse-arrays
  let never: number | undefined; use(never); // no-unassigned-vars
  const um = use
  (1 + 1).toString(); // no-unexpected-multiline
  use(um);
  use(() => { try { use(1); } finally { return 1; } }); // no-unsafe-finally
  (obj?.fn)(); // no-unsafe-optional-chaining
  label: for (const x of [1]) use(x); // no-unused-labels
  use(class { #secret = 1; }); // no-unused-private-class-members
  let ua = 1; ua = 2; use(ua); // no-useless-assignment
  use(/(a)|\1/); // no-useless-backreference
  try { use(1); } catch (e) { throw e; } // no-useless-catch
  use('\a'); // no-useless-escape
  try { use(1); } catch (e) { use(e); throw new Error('wrapped'); } // preserve-caught-error
  use(function* () { return 1; }); // require-yield
  if (n === NaN) use(n); // use-isnan
  use(typeof n === 'strnig'); // valid-typeof
  var v = 1; use(v); // no-var
  let pc = 1; use(pc); // prefer-const
  use(function () { return arguments; }); // prefer-rest-params
  const nums = [1, 2]; use(Math.max.apply(Math, nums)); // prefer-spread
  use(new Array(1, 2)); // no-array-constructor
  enum D { A = 1, B = 1 } use(D); // typescript/no-duplicate-enum-values
  type E = {}; use(null as unknown as E); // typescript/no-empty-object-type
  let a: any; use(a); // typescript/no-explicit-any
  use(obj.a!!.b); // typescript/no-extra-non-null-assertion
  interface MN { constructor(): void } use(null as unknown as MN); // typescript/no-misused-new
  use(obj?.a!); // typescript/no-non-null-asserted-optional-chain
  use(require('node:fs')); // typescript/no-require-imports
  use(class { m() { const self = this; return self; } }); // typescript/no-this-alias
  use(<T extends unknown>(t: T) => t); // typescript/no-unnecessary-type-constraint
  let fn: Function | undefined; use(fn); // typescript/no-unsafe-function-type
  n + 1; // no-unused-expressions
  const unusedThing = 1; // no-unused-vars
  let s: String | undefined; use(s); // typescript/no-wrapper-object-types
  let lit: 'a' = 'a'; use(lit); // typescript/prefer-as-const
  return this;
}
interface Merged { a: number } class Merged { b = 1 } // typescript/no-unsafe-declaration-merging
namespace NS { export const a = 1; } use(NS); // typescript/no-namespace
declare module Legacy { const b: number; } // typescript/prefer-namespace-keyword
`.replace('NBSP', '\u00a0');

/** The rules for JavaScript files, in a CommonJS preload (sloppy mode: the parser takes what a module refuses). */
const PLANTED_CJS = String.raw`function use() { return arguments.length; }
var o = { a: 1 };
var x = 1;
delete x; // no-delete-var
use('\8'); // no-nonoctal-decimal-escape
use(017); // house/no-octal
class Derived extends Object { constructor() { use(1); } } // constructor-super
use({ get g() { use(1); } }); // getter-return
class K {} K = 1; // no-class-assign
const c = 1; c = 2; // no-const-assign
function dup(a, a) { return a; } use(dup); // house/no-dupe-args
use(class { m() { return 1; } m() { return 2; } }); // no-dupe-class-members
use({ a: 1, a: 2 }); // no-dupe-keys
function fa() { return 1; } fa = 1; // no-func-assign
use(new Symbol('s')); // no-new-native-nonconstructor
use(Math()); // no-obj-calls
var rd = 1; var rd = 2; use(rd); // no-redeclare
use({ set s(v) { return v; } }); // no-setter-return
use(class extends Object { constructor() { this.a = 1; super(); } }); // no-this-before-super
undefinedThing(); // no-undef
use(function () { return 1; use(2); }); // no-unreachable
if (!'a' in o) use(1); // no-unsafe-negation
with (o) use(a); // no-with
`;

const PLANTED_MJS = `import fs from 'node:fs';\nfs = 1; // no-import-assign\n`;

/** What this test reads of a rule of typescript-eslint's plugin (its type exposes no rules). */
type RuleMeta = { meta?: { docs?: { requiresTypeChecking?: boolean } } };
const pluginRules = (tseslint.plugin as { rules?: Record<string, RuleMeta> }).rules ?? {};

/** A rule's level, from its setting alone or with options (`['error', {…}]`). */
const levelOf = (setting: unknown): unknown => (Array.isArray(setting) ? setting[0] : setting);

/** The rules of a chain of ESLint configs, a later config's setting over an earlier one's. */
function merged(configs: readonly { rules?: object }[]): Record<string, unknown> {
  return Object.assign({}, ...configs.map((config) => config.rules ?? {})) as Record<string, unknown>;
}

/** The typed rules of typescript-eslint's recommendedTypeChecked, unprefixed. */
function typedRecommended(): string[] {
  return Object.entries(merged(tseslint.configs.recommendedTypeChecked))
    .filter(([id, level]) => id.startsWith('@typescript-eslint/') && levelOf(level) !== 'off')
    .map(([id]) => id.slice('@typescript-eslint/'.length))
    .filter((name) => pluginRules[name]?.meta?.docs?.requiresTypeChecking === true)
    .sort();
}

/** typescript-eslint's rules oxlint keeps under ESLint's name (typescript-eslint's extend ESLint's own). */
const ESLINT_NAMED = new Set(['no-array-constructor', 'no-unused-expressions', 'no-unused-vars']);
/** ESLint's rules oxlint does not implement: the house's plugin does (scripts/dev/lint-plugin.mjs). */
const HOUSE = new Set(['no-octal', 'no-dupe-args']);

/** An ESLint or typescript-eslint rule id as oxlint names it. */
function oxlintName(id: string): string {
  if (id.startsWith('@typescript-eslint/')) {
    const name = id.slice('@typescript-eslint/'.length);
    return ESLINT_NAMED.has(name) ? name : `typescript/${name}`;
  }
  return HOUSE.has(id) ? `house/${id}` : id;
}

/** The rules a chain of ESLint configs leaves on, as oxlint names them. */
function enabled(configs: readonly { rules?: object }[]): string[] {
  return Object.entries(merged(configs))
    .filter(([id, level]) => levelOf(level) !== 'off' && LEFT_OUT[id] === undefined)
    .map(([id]) => oxlintName(id))
    .sort();
}

/** What ESLint ran on a TypeScript file: ESLint's recommended, then typescript-eslint's recommended chain. */
const forTypeScript = () => enabled([js.configs.recommended, ...tseslint.configs.recommended]);
/** ESLint's recommended rules that typescript-eslint turns off for TypeScript files: TypeScript checks them. */
const forJavaScriptOnly = () => {
  const typeScript = new Set(forTypeScript());
  return enabled([js.configs.recommended]).filter((name) => !typeScript.has(name));
};

interface OxlintConfig {
  rules: Record<string, unknown>;
  overrides: { files: string[]; rules: Record<string, unknown> }[];
}

let resolved: Promise<OxlintConfig> | undefined;

/** The config oxlint resolves from oxlint.config.mjs (`--print-config`; once): its levels are `deny`, `allow`… */
function resolvedConfig(): Promise<OxlintConfig> {
  resolved ??= runNode(
    [join(ROOT, 'node_modules/oxlint/bin/oxlint'), '-c', OXLINT_CONFIG, '--print-config'],
    process.env,
  ).then((run) => {
    if (run.status !== 0) throw new Error(`oxlint --print-config failed:\n${run.stderr}`);
    return JSON.parse(run.stdout) as OxlintConfig;
  });
  return resolved;
}

const denied = (rules: Record<string, unknown>) =>
  Object.entries(rules)
    .filter(([, level]) => levelOf(level) === 'deny')
    .map(([id]) => id)
    .sort();

const typedNames = () => typedRecommended().filter((name) => LEFT_OUT[name] === undefined);

test('oxlint runs every typed rule of recommendedTypeChecked, as errors, but those the project leaves off', async () => {
  const expected = typedNames();
  expect(expected.length, 'typescript-eslint lists typed rules').toBeGreaterThan(15);
  const typed = denied((await resolvedConfig()).rules).filter((id) =>
    expected.includes(id.replace(/^typescript\//, '')),
  );
  expect(typed).toEqual(expected.map((name) => `typescript/${name}`));
});

test('oxlint runs ESLint’s and typescript-eslint’s recommended rules as they configure TypeScript files', async () => {
  const typed = new Set(typedNames().map((name) => `typescript/${name}`));
  const untyped = denied((await resolvedConfig()).rules).filter((id) => !typed.has(id));
  expect(forTypeScript().length, 'the packages list rules').toBeGreaterThan(50);
  expect(untyped).toEqual(forTypeScript());
});

test('JavaScript files also get ESLint’s rules that typescript-eslint leaves to TypeScript', async () => {
  const { overrides } = await resolvedConfig();
  const js = overrides.filter((o) => o.files.includes('**/*.cjs') && o.files.includes('**/*.mjs'));
  expect(js, 'one override for the JavaScript files').toHaveLength(1);
  expect(forJavaScriptOnly().length, 'typescript-eslint turns rules off').toBeGreaterThan(10);
  expect(denied(js[0]!.rules)).toEqual(forJavaScriptOnly());
});

/** `<line> <rule>` of every line of `text` ending `// <rule>`. */
function markedLines(text: string): string[] {
  return text.split('\n').flatMap((line, i) => {
    const rule = / \/\/ ([\w/-]+)$/.exec(line)?.[1];
    return rule ? [`${i + 1} ${rule}`] : [];
  });
}

/** `<line> <rule>` of a finding, the rule named as in the config (`eslint(no-debugger)` → `no-debugger`). */
const foundAs = (f: Finding) =>
  `${f.line} ${f.code.replace(/^eslint\((.+)\)$/, '$1').replace(/^(\w+)\((.+)\)$/, '$1/$2')}`;

test('each typed rule fires under the project’s config on the line planted to break it', async () => {
  test.setTimeout(60_000);
  const run = await lintPlanted({ 'planted.ts': PLANTED_TYPED }, { typed: true });
  const found = new Set(run.findings.map(foundAs));
  const planted = markedLines(PLANTED_TYPED).map((p) => p.replace(' ', ' typescript/'));
  expect(planted.map((p) => p.split(' ')[1]).sort(), 'one planted line per typed rule').toEqual(
    typedNames().map((name) => `typescript/${name}`),
  );
  expect(
    planted.filter((p) => !found.has(p)),
    `planted violations oxlint did not report:\n${run.output}`,
  ).toEqual([]);
  expect(run.status, 'oxlint exits non-zero on them').not.toBe(0);
});

test('each rule that reads no types fires under the project’s config on the line planted to break it', async () => {
  test.setTimeout(60_000);
  const files = { 'planted.ts': PLANTED_TS, 'planted.cjs': PLANTED_CJS, 'planted.mjs': PLANTED_MJS };
  const run = await lintPlanted(files);
  const found = new Set(run.findings.map((f) => `${f.file} ${foundAs(f)}`));
  const planted = Object.entries(files).flatMap(([file, text]) =>
    markedLines(text).map((p) => `${file} ${p}`),
  );
  expect(planted.map((p) => p.split(' ')[2]).sort(), 'one planted line per rule').toEqual(
    [...forTypeScript(), ...forJavaScriptOnly()].sort(),
  );
  expect(
    planted.filter((p) => !found.has(p)),
    `planted violations oxlint did not report:\n${run.output}`,
  ).toEqual([]);
  expect(run.status, 'oxlint exits non-zero on them').not.toBe(0);
});
