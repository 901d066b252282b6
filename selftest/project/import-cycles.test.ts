// No import cycle in the project: the graph of its .ts files' run-time imports (type-only imports left out:
// they vanish when compiled) has no loop, and a planted loop is found and named.
import { expect, test } from '../support/test';
import { cycles, importGraph, runtimeImports } from './import-graph';
import { ROOT } from '../support/child-run';

test('the project has no import cycle', () => {
  const found = cycles(importGraph(ROOT)).map((loop) => loop.join(' → '));
  expect(found, `import cycles:\n${found.join('\n')}`).toEqual([]);
});

test('a planted cycle is found and named, file by file', () => {
  const graph = new Map([
    ['a.ts', ['b.ts']],
    ['b.ts', ['c.ts']],
    ['c.ts', ['a.ts', 'd.ts']],
    ['d.ts', []],
    ['e.ts', ['e.ts']],
  ]);
  expect(cycles(graph)).toEqual([
    ['a.ts', 'b.ts', 'c.ts', 'a.ts'],
    ['e.ts', 'e.ts'],
  ]);
});

test('imports that load a module count; type-only imports do not', () => {
  const text = [
    "import type { A } from './a';",
    "import { type B } from './b';",
    "export type { C } from './c';",
    "const d = require('./d');",
    "const e = await import('./e');",
    "import {\n  type F,\n  G,\n} from './fg';",
    "import H, { type I } from './h';",
    "export { J } from './j';",
    "import { readFileSync } from 'node:fs';",
  ].join('\n');
  expect(runtimeImports(text)).toEqual(['./d', './e', './fg', './h', './j']);
});
