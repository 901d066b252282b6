// typescript-eslint's typed rules run in oxlint, on TypeScript 7's checker (.oxlintrc.json), and ESLint keeps
// the rules that read no types (eslint.config.mjs). Held here: oxlint runs exactly the typed rules of
// typescript-eslint's recommendedTypeChecked (a typed rule a later typescript-eslint adds shows up as missing),
// and each of them fires, under the project's own config, on a planted file that breaks it on a marked line.
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import tseslint from 'typescript-eslint';
import { expect, test } from '../support/test';
import { ROOT, runNode } from '../support/child-run';

/** Typed rules of recommendedTypeChecked that eslint.config.mjs turned off, and why; oxlint leaves them off too. */
const LEFT_OUT: Record<string, string> = {
  'require-await': 'Playwright test and fixture callbacks are async by contract, awaiting or not',
};

/** Each line ending `// <rule>` breaks that rule. */
const PLANTED = `declare const anything: any;
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

const PLANTED_TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'commonjs',
    lib: ['ES2022', 'DOM'],
    types: [],
    noEmit: true,
    skipLibCheck: true,
  },
  files: ['planted.ts'],
};

/** What this test reads of a rule of typescript-eslint's plugin (its type exposes no rules). */
type RuleMeta = { meta?: { docs?: { requiresTypeChecking?: boolean } } };
const pluginRules = (tseslint.plugin as { rules?: Record<string, RuleMeta> }).rules ?? {};

/** The typed rules of typescript-eslint's recommendedTypeChecked, unprefixed. */
function typedRecommended(): string[] {
  const rules: Record<string, unknown> = {};
  for (const config of tseslint.configs.recommendedTypeChecked) Object.assign(rules, config.rules ?? {});
  return Object.entries(rules)
    .filter(([id, level]) => id.startsWith('@typescript-eslint/') && level !== 'off')
    .map(([id]) => id.slice('@typescript-eslint/'.length))
    .filter((name) => pluginRules[name]?.meta?.docs?.requiresTypeChecking === true)
    .sort();
}

/** The rules .oxlintrc.json turns on, unprefixed. */
function oxlintRules(): string[] {
  const config = JSON.parse(readFileSync(join(ROOT, '.oxlintrc.json'), 'utf8')) as {
    rules: Record<string, string>;
  };
  return Object.entries(config.rules)
    .filter(([, level]) => level === 'error')
    .map(([id]) => id.replace(/^typescript\//, ''))
    .sort();
}

test('oxlint runs every typed rule of recommendedTypeChecked, as errors, but those ESLint had off', () => {
  const expected = typedRecommended().filter((name) => LEFT_OUT[name] === undefined);
  expect(expected.length, 'typescript-eslint lists typed rules').toBeGreaterThan(15);
  expect(oxlintRules()).toEqual(expected);
});

test('each typed rule fires under the project’s config on the line planted to break it', async () => {
  test.setTimeout(60_000);
  const dir = mkdtempSync(join(tmpdir(), 'typed-lint-'));
  try {
    writeFileSync(join(dir, 'planted.ts'), PLANTED);
    writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(PLANTED_TSCONFIG));
    const run = await runNode(
      [
        join(ROOT, 'node_modules/oxlint/bin/oxlint'),
        '--type-aware',
        '-c',
        join(ROOT, '.oxlintrc.json'),
        '--tsconfig',
        join(dir, 'tsconfig.json'),
        '-f',
        'unix',
        join(dir, 'planted.ts'),
      ],
      process.env,
    );
    const found = new Set(
      [...run.stdout.matchAll(/:(\d+):\d+: .*\[Error\/typescript\(([\w-]+)\)\]$/gm)].map(
        ([, line, rule]) => `${line} ${rule}`,
      ),
    );
    const planted = PLANTED.split('\n').flatMap((text, i) => {
      const rule = / \/\/ ([\w-]+)$/.exec(text)?.[1];
      return rule ? [`${i + 1} ${rule}`] : [];
    });
    expect(planted.map((p) => p.split(' ')[1]).sort(), 'one planted line per configured rule').toEqual(
      oxlintRules(),
    );
    expect(
      planted.filter((p) => !found.has(p)),
      `planted violations oxlint did not report:\n${run.stdout}${run.stderr}`,
    ).toEqual([]);
    expect(run.status, 'oxlint exits non-zero on them').not.toBe(0);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
