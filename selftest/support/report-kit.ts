// Shared by the report self-tests: a real `npm run conformance` (scripts/run/conformance.ts) through
// selftest/support/report-run.config.ts, every output under its own folder (LEDGER_REPORTS_DIR); a static
// server for the built report on 127.0.0.1; readers for what the run wrote.
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { extname, join, resolve, sep } from 'node:path';
import { chromium, type Browser, type Page } from 'playwright-core';
import { expect } from '@playwright/test';
import type { FullConfig, FullResult, TestCase, TestResult } from '@playwright/test/reporter';
import RuleMatrixReporter from '../../reporters/rule-matrix';
import type { TestVerdict } from '../../reporters/verdicts';
import { EXCUSED_BY, EXPECTATION } from '../../core/verdict-marks';
import { caughtOutput } from './caught-output';
import { cleanEnv, ROOT, runNode, type ChildOutcome } from './child-run';
import { CHROMIUM, noChromium } from './chromium';

export { ROOT };

/**
 * expect() for pages in Chromium: waits up to 20 s. The slowest wait, the single-file report showing its first
 * test (it parses every result inlined in the HTML), takes more beside other work than on a quiet host; the wait
 * is over three times that, so no browser check depends on the machine's speed. A missing element still
 * fails, only later.
 */
export const pageExpect = expect.configure({ timeout: 20_000 });

/** A run with every verdict kind: the sandbox's VER- rules and VET-PAGE-ORDER (broken by a fault) + the samples. */
export const KINDS_RUN = {
  grep: String.raw`VER-|VET-PAGE-ORDER|kinds\.sample`,
  env: {
    SANDBOX_FAULTS: 'vet-entries-unsorted',
    LEDGER_EXPECTATIONS: 'selftest/report-samples/expectations.json',
    // Where the interface document would be published: each test links to its clause's section.
    LEDGER_INTERFACE_DOC_URL: 'https://docs.example.com/ledger-api.html#s{section}',
  },
};

export type RunOutcome = ChildOutcome;

/** `node --require tsx/cjs <args>` in the project, with the machine's settings left out and `env` added. */
export function runTsx(
  args: string[],
  env: Record<string, string>,
  own?: (kill: () => void) => void,
): Promise<RunOutcome> {
  return runNode(['--require', 'tsx/cjs', ...args], { ...cleanEnv(), ...env }, own);
}

/** `npm run conformance -- -c selftest/support/report-run.config.ts --grep <grep>`, output under `out`. */
export function runConformance(
  out: string,
  grep: string,
  env: Record<string, string> = {},
  own?: (kill: () => void) => void,
): Promise<RunOutcome> {
  return runTsx(
    ['scripts/run/conformance.ts', '-c', 'selftest/support/report-run.config.ts', '--grep', grep],
    { ...env, LEDGER_REPORTS_DIR: out },
    own,
  );
}

export const readJson = <T>(path: string): T => JSON.parse(readFileSync(path, 'utf8')) as T;

export interface MatrixTest {
  id: string;
  ruleId?: string;
  title: string;
  verdict: TestVerdict;
  reason?: string;
}

export interface Matrix {
  status: string;
  tests: MatrixTest[];
  rules: { id: string; verdict: string; tests: { title: string; verdict: string }[] }[];
  totals: Record<string, number>;
  uncatalogued: string[];
  fingerprint?: Record<string, unknown>;
  fingerprintChanges: { path: string; before: unknown; after: unknown }[];
}

/** A test of the built Allure report, as the page reads it (reports/allure/data/test-results). */
export interface ReportTest {
  id: string;
  name: string;
  status: string;
  labels: { name: string; value?: string }[];
  categories?: { name: string }[];
  history?: unknown[];
  links?: { name?: string; url: string; type?: string }[];
  parameters?: { name: string; value: string }[];
}

export function reportTests(out: string): ReportTest[] {
  const dir = join(out, 'allure', 'data', 'test-results');
  return readdirSync(dir).map((f) => readJson<ReportTest>(join(dir, f)));
}

export function environmentOf(out: string): Map<string, string> {
  const items = readJson<{ name: string; values: string[] }[]>(
    join(out, 'allure', 'widgets', 'allure_environment.json'),
  );
  return new Map(items.map((i) => [i.name, i.values.join(', ')]));
}

export interface JUnitCase {
  name: string;
  outcome: 'passed' | 'skipped' | 'failure' | 'error';
  /** Its <property> elements, by name. */
  properties: Map<string, string>;
  /** The <skipped>, <failure> or <error> element's message and type, unescaped. */
  message?: string;
  type?: string;
}

/** One entry per <testcase>: its name, whether it carries <skipped>, <failure> or <error> (and its words), its properties. */
export function junitCases(path: string): JUnitCase[] {
  const xml = readFileSync(path, 'utf8');
  const unescape = (s: string) =>
    s
      .replace(/&lt;/g, '<')
      .replace(/&gt;/g, '>')
      .replace(/&quot;/g, '"')
      .replace(/&apos;/g, "'")
      .replace(/&amp;/g, '&');
  return [...xml.matchAll(/<testcase\b([^>]*?)(\/>|>([\s\S]*?)<\/testcase>)/g)].map((m) => {
    const name = unescape(/\bname="([^"]*)"/.exec(m[1]!)?.[1] ?? '');
    // Children only, not the CDATA of system-out/err, which may quote anything.
    const body = (m[3] ?? '').replace(/<!\[CDATA\[[\s\S]*?\]\]>/g, '');
    // One verdict element at most (reporters/junit-verdicts.ts): its kind is the outcome.
    const element = /<(skipped|failure|error)\b([^>]*)/.exec(body);
    const outcome = (element?.[1] ?? 'passed') as JUnitCase['outcome'];
    const properties = new Map(
      [...body.matchAll(/<property name="([^"]*)" value="([^"]*)"/g)].map((p) => [
        unescape(p[1]!),
        unescape(p[2]!),
      ]),
    );
    const attribute = (key: string) => {
      const value = new RegExp(`\\b${key}="([^"]*)"`).exec(element?.[2] ?? '')?.[1];
      return value === undefined ? undefined : unescape(value);
    };
    return { name, outcome, properties, message: attribute('message'), type: attribute('type') };
  });
}

/** Every file under `dir`. */
export function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir).flatMap((name) => {
    const p = join(dir, name);
    return statSync(p).isDirectory() ? filesUnder(p) : [p];
  });
}

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.json': 'application/json',
  '.css': 'text/css',
  '.txt': 'text/plain; charset=utf-8',
  '.svg': 'image/svg+xml',
  '.woff2': 'font/woff2',
};

/** A static file server for `dir` on 127.0.0.1, a free port (the multi-file report must be served). */
export async function serveStatic(dir: string): Promise<{ url: string; close: () => Promise<void> }> {
  const root = resolve(dir);
  const server: Server = createServer((req, res) => {
    const path = decodeURIComponent(new URL(req.url ?? '/', 'http://127.0.0.1').pathname);
    let file = resolve(root, `.${path}`);
    if (file !== root && !file.startsWith(root + sep)) {
      res.writeHead(403).end();
      return;
    }
    if (existsSync(file) && statSync(file).isDirectory()) file = join(file, 'index.html');
    if (!existsSync(file)) {
      res.writeHead(404).end();
      return;
    }
    res.writeHead(200, { 'content-type': TYPES[extname(file)] ?? 'application/octet-stream' });
    res.end(readFileSync(file));
  });
  await new Promise<void>((ok) => server.listen(0, '127.0.0.1', ok));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    close: () => new Promise<void>((ok) => server.close(() => ok())),
  };
}

export { noChromium };

let chromiumOfWorker: Promise<Browser> | undefined;

/**
 * Debian's Chromium, launched once per worker process at the first ask: the browser self-tests of a worker
 * open their pages in contexts of one browser instead of starting one each. A browser that went away is
 * launched again; playwright-core ends the one left when the worker exits.
 */
function sharedChromium(): Promise<Browser> {
  if (chromiumOfWorker) return chromiumOfWorker;
  const launching = chromium
    .launch({
      executablePath: CHROMIUM,
      args: [
        '--headless',
        '--no-sandbox',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
        '--disable-quic',
      ],
    })
    .then((browser) => {
      browser.on('disconnected', () => {
        if (chromiumOfWorker === launching) chromiumOfWorker = undefined;
      });
      return browser;
    });
  launching.catch(() => {
    if (chromiumOfWorker === launching) chromiumOfWorker = undefined;
  });
  chromiumOfWorker = launching;
  return launching;
}

/**
 * A page of Debian's Chromium through playwright-core (no browser download), in a context of its own that may
 * reach only the loopback: every other request is blocked and recorded. `close` ends the context.
 */
export async function openBrowser(): Promise<{
  page: Page;
  external: string[];
  close: () => Promise<void>;
}> {
  const context = await (await sharedChromium()).newContext({ viewport: { width: 1400, height: 1000 } });
  const external: string[] = [];
  await context.route('**/*', async (route) => {
    const url = new URL(route.request().url());
    const local =
      url.protocol === 'data:' ||
      url.protocol === 'file:' ||
      ['127.0.0.1', 'localhost', '[::1]'].includes(url.hostname);
    if (local) await route.continue();
    else {
      external.push(url.href);
      await route.abort('blockedbyclient');
    }
  });
  const page = await context.newPage();
  return { page, external, close: () => context.close() };
}

/**
 * A fresh folder for a run's reports, outside test-results/: a self-test run elsewhere (Playwright cleans
 * its output folder when it starts) must not delete a report while it is being built or read.
 */
export function freshReportsDir(name: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), `ledger-conformance-${name}-`));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** A test's end as Playwright hands it to the reporters: an expected failure that failed is a known deviation. */
export interface EndedTest {
  title: string;
  status: TestResult['status'];
  expected?: 'passed' | 'failed';
  /** The failure's message; an assertion's unless it carries the inconclusive mark. */
  error?: string;
  annotations?: { type: string; description?: string }[];
}

/**
 * VER-AUTH-REQUIRED's test as a clean run against the sandbox ends it: Canton's known deviation (the version
 * is answered without a token, as Canton does), excused by Canton's baseline.
 */
export const cantonVersionDeviation = (title: string): EndedTest => ({
  title,
  status: 'failed',
  expected: 'failed',
  error: 'Error: expected a rejection (4xx), got 200',
  annotations: [
    { type: 'fail', description: 'known deviation of canton 3.4.11: Canton answers without a token' },
    { type: EXPECTATION, description: 'canton#4' },
    { type: EXCUSED_BY, description: 'canton#4' },
  ],
});

/**
 * The end of a run through the rule-matrix reporter in this process: `tests` ended, then the run did with
 * Playwright's `status`. It writes `out`/conformance.{json,md} and keeps the run in `out`/history as a real run's
 * reporter does, reading the target from `targetFile` (`out`/target.json unless given). For a self-test whose
 * point is the history step: the runs before and after it can be real, this one needs no suite. Returns the
 * run's status once the verdicts have had their say (a run is never green with a test that did not pass).
 */
export async function endRunInProcess(
  out: string,
  tests: EndedTest[],
  { status = 'passed', targetFile }: { status?: FullResult['status']; targetFile?: string } = {},
): Promise<FullResult['status']> {
  const reporter = new RuleMatrixReporter({ outputDir: out, targetFile });
  reporter.onBegin({ rootDir: ROOT, reporter: [] } as unknown as FullConfig, undefined as never);
  for (const [i, t] of tests.entries()) {
    const test = {
      id: `in-process-${i}`,
      title: t.title,
      expectedStatus: t.expected ?? 'passed',
      annotations: t.annotations ?? [],
      parent: { project: () => ({ name: 'conformance' }) },
      location: { file: join(ROOT, 'tests', 'in-process.spec.ts') },
    } as unknown as TestCase;
    const error = t.error ?? '';
    const result = {
      status: t.status,
      duration: 1,
      errors: error ? [{ message: error }] : [],
      steps:
        error && !error.includes('[inconclusive]')
          ? [{ category: 'expect', error: { message: error }, steps: [] }]
          : [],
    } as unknown as TestResult;
    reporter.onTestEnd(test, result);
  }
  // The closing table on stdout is dropped (the files say the same); anything on stderr is passed on.
  const ended = await caughtOutput(() => reporter.onEnd({ status } as FullResult));
  process.stderr.write(ended.stderr);
  if (!ended.ok) throw ended.error;
  return ended.value?.status ?? status;
}
