// plumbing/transform.cjs, preloaded into every Playwright run the harness starts: on a Node without
// module.registerHooks it keeps Playwright from starting its off-thread ESM loader in each process, and
// changes nothing else a run shows. The probe run (support/transform-probe.*) reports how its worker loaded
// TypeScript.
import Module from 'node:module';
import { expect, test } from '@playwright/test';
import {
  PLAYWRIGHT_CLI,
  PLAYWRIGHT_TRANSFORM_PRELOAD,
  playwrightCommand,
} from '../../plumbing/playwright-cli';
import { cleanEnv, runNode } from '../support/child-run';

interface Probe {
  line: number;
  column: number;
  status: string;
  notes: Record<string, string>;
}

async function probe(args: string[]): Promise<Probe> {
  const run = await runNode(args, cleanEnv());
  const out = run.stdout.slice(run.stdout.indexOf('{'));
  expect(run.status, run.stderr + run.stdout).toBe(0);
  const report = JSON.parse(out) as {
    suites: {
      specs: {
        line: number;
        column: number;
        tests: { annotations: { type: string; description: string }[]; results: { status: string }[] }[];
      }[];
    }[];
  };
  const spec = report.suites[0]!.specs[0]!;
  const result = spec.tests[0]!;
  return {
    line: spec.line,
    column: spec.column,
    status: result.results[0]!.status,
    notes: Object.fromEntries(result.annotations.map((a) => [a.type, a.description])),
  };
}

const CONFIG = ['test', '-c', 'selftest/support/transform-probe.config.ts'];
// Node 22.15+: Playwright's hooks run in-thread and the preload stands aside.
const inThreadHooks = 'registerHooks' in Module;

test('the preload skips only the ESM loader: the same test locations and source-mapped stacks, TypeScript required as before', async () => {
  const [plain, preloaded] = await Promise.all([
    probe([PLAYWRIGHT_CLI, ...CONFIG]),
    probe(playwrightCommand(...CONFIG)),
  ]);
  expect(plain.notes['import-ts']).toBe('loaded');
  expect(preloaded.notes['import-ts']).toBe(inThreadHooks ? 'loaded' : 'ERR_UNKNOWN_FILE_EXTENSION');
  expect(preloaded).toEqual({
    ...plain,
    notes: { ...plain.notes, 'import-ts': preloaded.notes['import-ts'] },
  });
  expect(plain.notes.stack).toMatch(/transform-probe-module\.ts:6:\d+\)$/);
  // The switch is gone once the project loads: what a test starts gets Playwright's default path.
  expect(preloaded.notes.PW_DISABLE_TS_ESM).toBe('(unset)');
});

test('outside a Playwright process the preload does nothing', async () => {
  const run = await runNode(
    [
      '--require',
      PLAYWRIGHT_TRANSFORM_PRELOAD,
      '-p',
      'JSON.stringify([process.env.PW_DISABLE_TS_ESM ?? null, require("node:module")._extensions[".ts"] === undefined])',
    ],
    cleanEnv(),
  );
  expect(run.stderr).toBe('');
  expect(JSON.parse(run.stdout)).toEqual([null, true]);
});
