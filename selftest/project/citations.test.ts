// The project stands alone: every document its code and data cite is in the repository (with the section a
// citation names), and nothing points outside it, to a tracker or to an unconfirmed guess.
import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { expect, test } from '../support/test';
import { ROOT } from '../support/child-run';

const files = execFileSync('git', ['ls-files', '-co', '--exclude-standard'], { cwd: ROOT, encoding: 'utf8' })
  .split('\n')
  .filter(
    (f) =>
      f !== '' &&
      !f.startsWith('node_modules') &&
      existsSync(join(ROOT, f)) &&
      statSync(join(ROOT, f)).isFile(),
  );
// The README's own test plants broken references on purpose.
const PLANTING = new Set(['selftest/project/readme.test.ts']);
const code = files.filter(
  (f) => /\.(ts|mjs|cjs|json|yml)$/.test(f) && !f.startsWith('spec/canton-') && !PLANTING.has(f),
);
const text = (f: string) => readFileSync(join(ROOT, f), 'utf8');

/** Sections of a Markdown file as citations name them: `## 4. …` → `4`, `### 1.5 …` → `1.5`. */
function sections(md: string): Set<string> {
  return new Set([...md.matchAll(/^#{2,4} (\d+(?:\.\d+)*)\.? /gm)].map((m) => m[1]!));
}

test('every document a comment or data file cites exists, and so does the section it names', () => {
  const missing: string[] = [];
  for (const f of code) {
    for (const m of text(f).matchAll(/(?<![\w/.-])((?:[\w.-]+\/)*[\w.-]+\.md)(?: §(\d+(?:\.\d+)*))?/g)) {
      const [, doc, section] = m;
      // A document of the project (docs/…, a folder's README), not a file a run writes (reports/…/compare.md).
      const isDoc = /^docs\/|README\.md$/.test(doc!);
      if (!isDoc) continue;
      const path = [join(ROOT, doc!), join(ROOT, dirname(f), doc!)].find((p) => existsSync(p));
      if (path === undefined) missing.push(`${f}: ${doc}`);
      else if (section !== undefined && !sections(readFileSync(path, 'utf8')).has(section))
        missing.push(`${f}: ${doc} §${section}`);
    }
  }
  expect(missing, 'citations of documents or sections that are not in the repository').toEqual([]);
});

test('nothing refers outside the project, to a tracker, or to an unconfirmed guess', () => {
  // Built from parts, so this file does not match itself.
  const outside = new RegExp(['\\.\\./sha' + 'red', '[Ii]ssues? #?[0-9]+', 'UNCONF' + 'IRMED'].join('|'));
  expect(outside.test('(iss' + 'ue #12)')).toBe(true);
  expect(outside.test('Iss' + 'ue 15: a target')).toBe(true);
  const hits = files
    .filter((f) => !/\.(png|jpg|zip|ico)$/.test(f))
    .flatMap((f) =>
      text(f)
        .split('\n')
        .flatMap((line, i) => (outside.test(line) ? [`${f}:${i + 1}: ${line.trim().slice(0, 100)}`] : [])),
    );
  expect(hits).toEqual([]);
});

/** A comment line citing a project file by line (`// see core/settings.ts:87`): the line moves, the comment stays. */
const LINE_CITATION =
  /^\s*(?:\/\/|\*|#).*?(?<![\w/.-])((?:[\w.-]+\/)+[\w.-]+\.(?:ts|md|json|cjs|mjs|ya?ml)):\d+/;

test('no comment cites a project file by line number', () => {
  const hits = code.flatMap((f) =>
    text(f)
      .split('\n')
      .flatMap((line, i) => {
        const m = LINE_CITATION.exec(line);
        return m !== null && existsSync(join(ROOT, m[1]!))
          ? [`${f}:${i + 1}: ${line.trim().slice(0, 100)}`]
          : [];
      }),
  );
  expect(hits).toEqual([]);
  const planted = '  // as core/settings.ts:' + '87 says';
  expect(LINE_CITATION.exec(planted)?.[1]).toBe('core/settings.ts');
  expect(LINE_CITATION.exec("  expect(x).toBe('tests/version.spec.ts:" + "105');")).toBeNull();
});
