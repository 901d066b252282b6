// The project's import graph, from each .ts file's own text (TypeScript's pre-processor: no parse, no type check,
// no program). Type-only imports (`import type`, `export type … from`) are left out: they vanish when compiled, so
// they can close no cycle at run time; a value import beside them in the same file still counts.
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import ts from 'typescript';

const SKIP = new Set(['node_modules', 'reports', 'test-results', 'allure-results', '.git']);

/** Every .ts file under root (project-relative paths, `/`-separated). */
export function tsFiles(root: string, dir = root): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (SKIP.has(name)) return [];
    if (statSync(path).isDirectory()) return tsFiles(root, path);
    return name.endsWith('.ts') ? [relative(root, path).split('\\').join('/')] : [];
  });
}

/** The relative module specifiers a file loads at run time (import, re-export, require, import()). */
export function runtimeImports(text: string): string[] {
  // The pre-processor's scanner finds every specifier, type-only ones too, far faster than a parse; each found
  // by a declaration is then read back to its statement's start (the formatter puts import and export statements at
  // the start of a line) to leave out the type-only ones.
  const { importedFiles } = ts.preProcessFile(text, true, true);
  return importedFiles
    .filter(({ fileName }) => fileName.startsWith('.'))
    .filter(({ pos }) => !typeOnly(text, pos))
    .map(({ fileName }) => fileName);
}

function typeOnly(text: string, specifierAt: number): boolean {
  const before = text.slice(0, specifierAt).replace(/['"`]$/, '');
  if (/(?:\brequire|\bimport|\.resolve)\(\s*$/.test(before)) return false;
  const start = Math.max(before.lastIndexOf('\nimport'), before.lastIndexOf('\nexport'), 0);
  const statement = before.slice(start).trim();
  if (/^(?:import|export)\s+type\b/.test(statement)) return true;
  const named = /^import\s*\{([^}]*)\}\s*from\s*$/.exec(statement);
  const elements =
    named?.[1]!
      .split(',')
      .map((e) => e.trim())
      .filter(Boolean) ?? [];
  return elements.length > 0 && elements.every((e) => e.startsWith('type '));
}

/** The project file a relative specifier names, if it is a .ts file of the project. */
function resolveIn(files: Set<string>, root: string, from: string, spec: string): string | undefined {
  const base = relative(root, resolve(root, dirname(from), spec))
    .split('\\')
    .join('/');
  return [base, `${base}.ts`, `${base}/index.ts`].find((c) => files.has(c));
}

/** file → the project files it imports at run time. */
export function importGraph(root: string): Map<string, string[]> {
  const files = new Set(tsFiles(root));
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(join(root, file), 'utf8');
    const targets = runtimeImports(text).map((spec) => resolveIn(files, root, file, spec));
    graph.set(file, [...new Set(targets.filter((t): t is string => t !== undefined))]);
  }
  return graph;
}

/** Every cycle, once each, as the files around it (Tarjan's strongly connected components, then one loop each). */
export function cycles(graph: Map<string, string[]>): string[][] {
  let index = 0;
  const order = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const connect = (v: string): void => {
    order.set(v, index);
    low.set(v, index++);
    stack.push(v);
    onStack.add(v);
    for (const w of graph.get(v) ?? []) {
      if (!order.has(w)) {
        connect(w);
        low.set(v, Math.min(low.get(v)!, low.get(w)!));
      } else if (onStack.has(w)) low.set(v, Math.min(low.get(v)!, order.get(w)!));
    }
    if (low.get(v) !== order.get(v)) return;
    const component: string[] = [];
    let w: string;
    do {
      w = stack.pop()!;
      onStack.delete(w);
      component.push(w);
    } while (w !== v);
    const selfLoop = graph.get(v)?.includes(v);
    if (component.length > 1 || selfLoop) found.push(loopThrough(graph, new Set(component), v));
  };
  for (const v of graph.keys()) if (!order.has(v)) connect(v);
  return found;
}

/** A shortest loop from start back to start inside one component, for a message a reader can follow. */
function loopThrough(graph: Map<string, string[]>, component: Set<string>, start: string): string[] {
  const previous = new Map<string, string>();
  const queue = [start];
  while (queue.length > 0) {
    const v = queue.shift()!;
    for (const w of graph.get(v) ?? []) {
      if (!component.has(w)) continue;
      if (w === start) {
        const path = [v];
        while (path[0] !== start) path.unshift(previous.get(path[0]!)!);
        return [...path, start];
      }
      if (!previous.has(w)) {
        previous.set(w, v);
        queue.push(w);
      }
    }
  }
  return [start, start];
}
