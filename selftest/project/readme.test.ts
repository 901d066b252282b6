// The README fits in 16 KB. Every project path it or a page of docs/ names (a relative link, or a path in
// backticks) exists, a link's #anchor is a heading of its page, and no line of a project file is cited. Each
// check is also run on a planted text that breaks it, so it is shown to fail.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize, relative } from 'node:path';
import { expect, test } from '../support/test';
import { ROOT } from '../support/child-run';

const MAX_BYTES = 16 * 1024;
/** What a run writes, and what git and npm keep: not files of the project. */
const OUTPUTS = ['reports', 'test-results', 'playwright-report', 'blob-report', 'node_modules', '.git'];
/** The project's kinds of file; a path with another extension is someone else's (docs cite Canton's sources). */
const PROJECT_EXTENSIONS = ['.ts', '.md', '.json', '.mjs', '.cjs', '.yml', '.yaml'];
const TOP_LEVEL = new Set(readdirSync(ROOT));

const read = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const DOCS = readdirSync(join(ROOT, 'docs'))
  .filter((f) => f.endsWith('.md'))
  .map((f) => `docs/${f}`);

/** The lines outside fenced code blocks, with their index (a `#` in a YAML or shell block is no heading). */
function prose(md: string): { line: string; index: number }[] {
  let fenced = false;
  const out: { line: string; index: number }[] = [];
  md.split('\n').forEach((line, index) => {
    if (/^\s*```/.test(line)) fenced = !fenced;
    else if (!fenced) out.push({ line, index });
  });
  return out;
}

/** GitHub's anchors for a page's headings: lower case, punctuation dropped, spaces as hyphens, repeats numbered. */
function anchors(md: string): Set<string> {
  const seen = new Map<string, number>();
  const out = new Set<string>();
  for (const { line } of prose(md)) {
    const heading = /^#{1,6} (.+)$/.exec(line)?.[1];
    if (heading === undefined) continue;
    const slug = heading
      .toLowerCase()
      .replace(/[^\p{L}\p{N} _-]/gu, '')
      .replace(/ /g, '-');
    const n = seen.get(slug) ?? 0;
    seen.set(slug, n + 1);
    out.add(n === 0 ? slug : `${slug}-${n}`);
  }
  return out;
}

/** `a/{b,c}.md` → `a/b.md`, `a/c.md`. */
const expand = (path: string): string[] => {
  const m = /^(.*?)\{([^}]*)\}(.*)$/.exec(path);
  return m ? m[2]!.split(',').flatMap((alt) => expand(`${m[1]}${alt}${m[3]}`)) : [path];
};

/**
 * Where `file`'s references lead that do not exist: relative links (and their #anchors) and paths in backticks
 * that start at a top-level entry of the project (or with ../). Outputs, placeholders (`<name>`, `…`, `*`) and
 * other projects' files (another extension) are left out.
 */
function brokenReferences(file: string, md: string, exists: (path: string) => boolean): string[] {
  const broken: string[] = [];
  const text = prose(md)
    .map(({ line }) => line)
    .join('\n');
  for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
    if (/^[a-z]+:/i.test(target!)) continue;
    const [path, anchor] = target!.split('#') as [string, string | undefined];
    const resolved = path === '' ? file : normalize(join(dirname(file), path));
    if (!exists(resolved)) broken.push(`${target} (no ${resolved})`);
    else if (anchor !== undefined && resolved.endsWith('.md') && !anchors(read(resolved)).has(anchor))
      broken.push(`${target} (no heading #${anchor} in ${resolved})`);
  }
  for (const [, span] of text.matchAll(/`([^`\n]+)`/g)) {
    const path = span!.replace(/:\d+$/, '');
    if (/[\s<>…*$=]/.test(path)) continue;
    const relativeToFile = path.startsWith('../');
    const first = path.split('/')[0]!;
    if (!relativeToFile && !(TOP_LEVEL.has(first) && (path.includes('/') || first.includes('.')))) continue;
    if (OUTPUTS.includes(first)) continue;
    const last = path.replace(/\/$/, '').split('/').pop()!;
    const ext = /(\.[a-z]+)$/.exec(last)?.[1];
    if (ext !== undefined && !PROJECT_EXTENSIONS.includes(ext) && !TOP_LEVEL.has(last)) continue;
    for (const one of expand(path)) {
      const resolved = relativeToFile ? normalize(join(dirname(file), one)) : one;
      if (!exists(resolved)) broken.push(`\`${span}\` (no ${resolved})`);
    }
  }
  return broken;
}

const inProject = (path: string) =>
  !relative(ROOT, join(ROOT, path)).startsWith('..') && existsSync(join(ROOT, path));

/**
 * A project file cited by line (`tests/version.spec.ts:116`): the line moves with the next edit, the citation
 * stays. Cite a test by its title or rule id; a command's line is a placeholder (`<line>`).
 */
function lineCitations(md: string): string[] {
  return [...md.matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.(?:ts|md|json|cjs|mjs|ya?ml)):\d+/g)]
    .filter((m) => TOP_LEVEL.has(m[1]!.split('/')[0]!) && !OUTPUTS.includes(m[1]!.split('/')[0]!))
    .map((m) => m[0]);
}

const README = read('README.md');

test(`the README fits in ${MAX_BYTES} bytes`, () => {
  expect(Buffer.byteLength(README)).toBeLessThanOrEqual(MAX_BYTES);
  expect(Buffer.byteLength(README + 'x'.repeat(MAX_BYTES))).toBeGreaterThan(MAX_BYTES);
});

test('every project path and relative link in the README and docs/ exists', () => {
  const broken = ['README.md', ...DOCS].flatMap((file) =>
    brokenReferences(file, read(file), inProject).map((b) => `${file}: ${b}`),
  );
  expect(broken).toEqual([]);
});

test('a path, a link or an anchor that does not exist is found', () => {
  const planted = [
    'See `scripts/no-such-script.ts`, [the guide](docs/no-such-page.md) and',
    '[a part](docs/ci.md#no-such-heading), `rules/expectations/{README,nothing}.md`, `tests/version.spec.ts:1`.',
    'Not ours: `scripts/ci/obtain-release-suffix.sh`, `reports/conformance.md`, `selftest/<file>.test.ts`.',
    '```sh\nnpm run x -- `core/no-such.ts`\n```',
  ].join('\n');
  expect(brokenReferences('README.md', planted, inProject)).toEqual([
    'docs/no-such-page.md (no docs/no-such-page.md)',
    'docs/ci.md#no-such-heading (no heading #no-such-heading in docs/ci.md)',
    '`scripts/no-such-script.ts` (no scripts/no-such-script.ts)',
    '`rules/expectations/{README,nothing}.md` (no rules/expectations/nothing.md)',
  ]);
  expect(brokenReferences('docs/x.md', '[up](../README.md#contributing) `../no-such.md`', inProject)).toEqual(
    ['`../no-such.md` (no no-such.md)'],
  );
});

test('the README and docs/ cite no line of a project file', () => {
  const hits = ['README.md', ...DOCS].flatMap((file) =>
    lineCitations(read(file)).map((c) => `${file}: ${c}`),
  );
  expect(hits).toEqual([]);
  expect(lineCitations('rerun `tests/version.spec.ts:11' + '6` or `tests/version.spec.ts:<line>`')).toEqual([
    'tests/version.spec.ts:116',
  ]);
  // Not a project file: another project's source, a host and port.
  expect(lineCitations('`Foo.scala:12`, 127.0.0.1:7575, `node_modules/x.ts:3`')).toEqual([]);
});
