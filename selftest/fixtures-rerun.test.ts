// The rerun command of a failed or unexpected test (fixtures/rerun.ts): it selects exactly that test —
// checked with Playwright's own title matcher against every test of the suite, and by Playwright's listing of
// the command's selection on the line with the most tests —, the shell hands Playwright exactly the words
// meant whatever the title holds, it names the settings a rerun needs and no other, and it is given for the
// verdicts that need one.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { test, expect } from '@playwright/test';
import type { TestInfo } from '@playwright/test';
import { INCONCLUSIVE } from '../core/verdict-marks';
import { needsRerun, rerunOf, settingsToName, titleGrep, type RerunTarget } from '../fixtures/rerun';
import { listingEnv } from '../scripts/suite-listing';
import { playwrightCommand } from '../scripts/playwright-cli';
import { ROOT } from './support/child-run';

/**
 * Playwright's own --grep reading (a bare pattern ignores case, one between slashes is a regular expression),
 * from the playwright package @playwright/test runs, which exports it.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const { createTitleMatcher, forceRegExp } = require(
  require.resolve('playwright/lib/util', { paths: [dirname(require.resolve('@playwright/test'))] }),
) as {
  createTitleMatcher: (re: RegExp) => (title: string) => boolean;
  forceRegExp: (pattern: string) => RegExp;
};
const grepMatches = (grep: string, grepTitle: string): boolean =>
  createTitleMatcher(forceRegExp(grep))(grepTitle);

/** The words the shell hands `npm run conformance --`, and the LEDGER_SEED it sets, by running the command. */
function shellWords(command: string): { seed: string; args: string[] } {
  const probe = command.replace(
    ' npm run conformance -- ',
    ` sh -c 'printf "%s\\0" "$LEDGER_SEED" "$@"' probe `,
  );
  expect(probe, 'the command runs npm run conformance').not.toBe(command);
  const [seed, ...args] = execFileSync('sh', ['-c', probe], { encoding: 'utf8' }).split('\0').slice(0, -1);
  return { seed: seed!, args };
}

const target = (over: Partial<RerunTarget> = {}): RerunTarget => ({
  file: 'tests/version.spec.ts',
  line: 105,
  title: 'VER-FEATURES every feature of the descriptor is present — features.x',
  seed: 4711,
  settings: [],
  ...over,
});

test.describe('the rerun command', () => {
  test('the shell hands Playwright the location, the config and the exact title grep, whatever the title holds', () => {
    for (const title of [
      'VER-SHAPE a plain title',
      `SUB-X it's "quoted" with $HOME, \`backticks\`, a \\ backslash and (a|b) [c] *+?^. / — ünïcode`,
    ]) {
      const plain = shellWords(rerunOf(target({ title })).command);
      expect(plain).toEqual({
        seed: '4711',
        args: ['tests/version.spec.ts:105', '--grep', titleGrep(title)],
      });
      const configured = shellWords(rerunOf(target({ title, config: 'my configs/run.config.ts' })).command);
      expect(configured.args).toEqual([
        '-c',
        'my configs/run.config.ts',
        'tests/version.spec.ts:105',
        '--grep',
        titleGrep(title),
      ]);
    }
  });

  test('the title grep matches that title only: not one it is part of, not another case, tags after it allowed', () => {
    const title = 'VER-FEATURES a feature (sane) — features.x';
    const grep = titleGrep(title);
    const matches = (grepTitle: string) => grepMatches(grep, grepTitle);
    // Playwright's grep title: root, project, file and describe titles, the test's title, then its tags.
    expect(matches(`  version.spec.ts GET /v2/version ${title}`)).toBe(true);
    expect(matches(`  version.spec.ts GET /v2/version ${title} @writes @flagship`)).toBe(true);
    expect(matches(title)).toBe(true);
    for (const other of [
      `${title}.y`,
      `${title} y`,
      `X${title}`,
      title.toLowerCase(),
      'VER-FEATURES a feature (sane) — features_x',
    ])
      expect(matches(`  version.spec.ts GET /v2/version ${other}`), other).toBe(false);
  });

  test('on every line of the suite, the command selects exactly its test; Playwright lists exactly it', () => {
    interface Spec {
      title: string;
      file: string;
      line: number;
      tags: string[];
    }
    interface Suite {
      title: string;
      specs?: Spec[];
      suites?: Suite[];
    }
    const list = (...args: string[]) => {
      const out = execFileSync(
        process.execPath,
        playwrightCommand('test', '--list', '--reporter=json', ...args),
        { cwd: ROOT, env: listingEnv(process.env), maxBuffer: 64 * 1024 * 1024 },
      ).toString();
      const tests: (Spec & { grepTitle: string })[] = [];
      const visit = (s: Suite, path: string[]) => {
        for (const spec of s.specs ?? [])
          tests.push({
            ...spec,
            grepTitle: [...path, spec.title, ...spec.tags.map((t) => `@${t}`)].join(' '),
          });
        for (const child of s.suites ?? []) visit(child, [...path, child.title]);
      };
      for (const s of (JSON.parse(out.slice(out.indexOf('{'))) as { suites: Suite[] }).suites)
        visit(s, ['', '', s.title]);
      return tests;
    };
    const suite = list();
    expect(suite.length, 'the listing found the suite').toBeGreaterThan(100);
    const byLine = new Map<string, typeof suite>();
    for (const t of suite)
      byLine.set(`${t.file}:${t.line}`, [...(byLine.get(`${t.file}:${t.line}`) ?? []), t]);
    for (const t of suite) {
      const grep = titleGrep(t.title);
      const selected = byLine.get(`${t.file}:${t.line}`)!.filter((o) => grepMatches(grep, o.grepTitle));
      expect(
        selected.map((o) => o.title),
        `${t.file}:${t.line} ${t.title}`,
      ).toEqual([t.title]);
    }
    // Playwright itself, on the line with the most tests, given the words the printed command hands it.
    const [, busiest] = [...byLine].sort((a, b) => b[1].length - a[1].length)[0]!;
    expect(busiest.length, 'a line making several tests').toBeGreaterThan(2);
    const chosen = busiest[busiest.length - 1]!;
    const { args } = shellWords(
      rerunOf(target({ file: `tests/${chosen.file}`, line: chosen.line, title: chosen.title })).command,
    );
    expect(list(...args).map((o) => o.title)).toEqual([chosen.title]);
  });

  test('names the settings a rerun needs, never a value, and without a setting says so', () => {
    const remote = {
      LEDGER_BASE_URL: 'https://participant.example.com',
      LEDGER_AUTH: 'static',
      LEDGER_TOKEN: 'token-value-1',
      LEDGER_USER: 'discovered-user',
      LEDGER_ACT_AS: 'Alice::1220',
      LEDGER_RESOLVED_DISCOVERED: 'LEDGER_USER,LEDGER_ACT_AS',
      LEDGER_TIMEOUT_SCALE: ' ',
      LEDGER_RUN_ID: 'nightly-42',
      LEDGER_SEED: '7',
      LEDGER_TAGS: '@readonly',
      LEDGER_WORKERS: '4',
      LEDGER_REPORTS_DIR: '/tmp/reports',
      HTTPS_PROXY: 'http://user:proxy-password@proxy.example:3128',
      no_proxy: 'localhost',
      NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      SANDBOX_FAULTS: 'vet-page-skip',
      PATH: '/usr/bin',
    };
    expect(settingsToName(remote)).toEqual([
      'HTTPS_PROXY',
      'LEDGER_AUTH',
      'LEDGER_BASE_URL',
      'LEDGER_TOKEN',
      'NODE_EXTRA_CA_CERTS',
      'no_proxy',
    ]);
    // The in-process sandbox: its own settings count, a proxy does not (the loopback is never proxied).
    expect(
      settingsToName({
        SANDBOX_FAULTS: 'vet-page-skip',
        SANDBOX_MODE: 'strict-interface',
        LEDGER_EXPECTATIONS: 'canton',
        HTTPS_PROXY: 'http://proxy.example:3128',
        NODE_EXTRA_CA_CERTS: '/etc/ca.pem',
      }),
    ).toEqual(['LEDGER_EXPECTATIONS', 'SANDBOX_FAULTS', 'SANDBOX_MODE']);
    // What the harness's runners hand their children (.env.example, "Internal") is never a setting to give.
    const example = readFileSync(join(ROOT, '.env.example'), 'utf8');
    const internal = example.slice(example.indexOf('# ─── Internal'), example.indexOf('# ─── Logging'));
    const names = [...internal.matchAll(/^# ([A-Z0-9_]+)=/gm)].map((m) => m[1]!);
    expect(names.length, 'the Internal section was found').toBeGreaterThan(5);
    expect(settingsToName(Object.fromEntries(names.map((n) => [n, 'x'])))).toEqual([]);

    const rerun = rerunOf(target({ settings: settingsToName(remote) }));
    for (const text of [rerun.line, rerun.text]) {
      expect(text).toContain('HTTPS_PROXY, LEDGER_AUTH, LEDGER_BASE_URL, LEDGER_TOKEN');
      for (const [k, v] of Object.entries(remote))
        if (k !== 'LEDGER_SEED' && v.trim().length > 1) expect(text, k).not.toContain(v);
    }
    expect(rerun.line.startsWith(`${rerun.command}   # `), 'one line: the command, then a comment').toBe(
      true,
    );
    expect(rerun.text).toContain(`\n${rerun.command}\n`);
    const none = rerunOf(target());
    expect(none.line).toMatch(/ {3}# this run was given no setting$/);
    expect(none.text).toContain('this run was given no setting, so none is needed');
  });

  test('given for a failure, an unexpected pass and a test ended by a gone target; not for a pass, a known deviation or a skip', () => {
    type Info = Pick<TestInfo, 'status' | 'expectedStatus' | 'annotations'>;
    const info = (status: Info['status'], expectedStatus: Info['expectedStatus'], skip?: string): Info => ({
      status,
      expectedStatus,
      annotations: skip === undefined ? [] : [{ type: 'skip', description: skip }],
    });
    expect(needsRerun(info('failed', 'passed'))).toBe(true);
    expect(needsRerun(info('timedOut', 'passed'))).toBe(true);
    expect(needsRerun(info('passed', 'failed')), 'an unexpected pass').toBe(true);
    expect(needsRerun(info('skipped', 'skipped', `${INCONCLUSIVE} target lost: …`))).toBe(true);
    expect(needsRerun(info('passed', 'passed'))).toBe(false);
    expect(needsRerun(info('failed', 'failed')), 'a known deviation').toBe(false);
    expect(needsRerun(info('skipped', 'skipped', 'needs LEDGER_SECOND_USER'))).toBe(false);
    expect(needsRerun(info(undefined, 'passed'))).toBe(false);
  });
});
