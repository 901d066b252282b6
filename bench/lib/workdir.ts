// A private copy of the project for the runs of the suite: `npm run conformance` and `playwright test` write
// reports/ and test-results/ into the project, where others are working; the copy takes the same sources
// (the working tree, as on disk now) and the same node_modules (a symlink), and is thrown away afterwards.
import { cpSync, mkdtempSync, rmSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { ROOT } from './child';

const SKIP = new Set(['node_modules', '.git', 'reports', 'test-results', 'allure-results', '.env']);

export interface Workdir {
  dir: string;
  remove(): void;
}

export function projectCopy(): Workdir {
  const dir = mkdtempSync(join(tmpdir(), 'ledger-conformance-bench-'));
  cpSync(ROOT, dir, {
    recursive: true,
    filter: (src) => !SKIP.has(relative(ROOT, src)),
  });
  symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}
