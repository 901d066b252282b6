// A participant that dies in the middle of a run gives no verdict on what it could not answer: the tests
// from its death on are inconclusive (never a non-conformance failure, never a harness defect), a known
// deviation whose test was cut short is not reported as seen, the run fails (a dead target is not green), and
// it ends fast — connection refused is immediate, no test waits for its timeout.
//
// The participant is the sandbox listening on 127.0.0.1 (port 0) in this worker; the conformance suite runs
// against it through LEDGER_BASE_URL in a child Playwright run (selftest/support/death-run.config.ts: the
// real config, one worker so the order is fixed). The sandbox dies deterministically at a chosen request —
// the second POST /v2/package-vetting/list, i.e. inside the first vetting test the selection runs — like a
// killed process: that request's connection is dropped unanswered, every open connection is reset and the
// port refuses connections from then on.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '@playwright/test';
import type { TestCase, TestResult } from '@playwright/test/reporter';
import type { FastifyInstance } from 'fastify';
import { classify } from '../reporters/classify';
import type { TestVerdict } from '../reporters/verdicts';
import { cleanEnv, runNode } from './support/child-run';
import { sandbox } from './support/sandbox-kit';

const VETTING = '/v2/package-vetting/list';
/** The sandbox dies on this vetting request (counting from 1). */
const FATAL_VETTING_REQUEST = 2;
/** What a test may take once the target is gone: far below the suite's 30 s timeout, so nobody waited for it. */
const FAST_MS = 5_000;

interface Mortal {
  url: string;
  /** Requests served before the death. */
  served: () => number;
  diedAt: () => number | undefined;
}

/** Listens on 127.0.0.1 and dies like a killed process on the FATAL_VETTING_REQUEST-th vetting request. */
async function mortal(app: FastifyInstance): Promise<Mortal> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const server = app.server;
  const serve = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  let served = 0;
  let vetting = 0;
  let diedAt: number | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    const fatal = req.method === 'POST' && req.url === VETTING && ++vetting === FATAL_VETTING_REQUEST;
    if (diedAt !== undefined || fatal) {
      diedAt ??= Date.now();
      server.close(); // the port refuses new connections
      server.closeAllConnections(); // open ones are reset
      req.socket.destroy(); // this request is never answered
      return;
    }
    served++;
    for (const handle of serve) handle.call(server, req, res);
  });
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    served: () => served,
    diedAt: () => diedAt,
  };
}

interface Run {
  status: number | null;
  log: string;
  out: string;
  endedAt: number;
}

async function runSuite(baseUrl: string, grep: string): Promise<Run> {
  const out = mkdtempSync(join(tmpdir(), 'participant-death-'));
  const cli = require.resolve('@playwright/test/cli');
  const args = [cli, 'test', '-c', 'selftest/support/death-run.config.ts', '--grep', grep];
  const run = await runNode(args, { ...cleanEnv(), LEDGER_BASE_URL: baseUrl, LEDGER_REPORTS_DIR: out });
  return { status: run.status, log: run.stdout + run.stderr, out, endedAt: Date.now() };
}

interface MatrixTest {
  title: string;
  ruleId?: string;
  verdict: TestVerdict;
  reason?: string;
}
interface Matrix {
  status: string;
  tests: MatrixTest[];
  rules: { id: string; verdict: string }[];
}
/** A test as Playwright's JSON reporter writes it: when it started and how long it took. */
interface Timed {
  title: string;
  startMs: number;
  duration: number;
  status: string;
}

function timings(out: string): Timed[] {
  interface Suite {
    suites?: Suite[];
    specs?: {
      title: string;
      tests: { results: { startTime: string; duration: number; status: string }[] }[];
    }[];
  }
  const report = JSON.parse(readFileSync(join(out, 'playwright.json'), 'utf8')) as { suites: Suite[] };
  const all: Timed[] = [];
  const walk = (s: Suite): void => {
    for (const spec of s.specs ?? []) {
      for (const t of spec.tests) {
        const r = t.results[t.results.length - 1];
        if (r)
          all.push({
            title: spec.title,
            startMs: Date.parse(r.startTime),
            duration: r.duration,
            status: r.status,
          });
      }
    }
    for (const child of s.suites ?? []) walk(child);
  };
  report.suites.forEach(walk);
  return all.sort((a, b) => a.startMs - b.startMs);
}

const matrixOf = (out: string): Matrix =>
  JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Matrix;
const tail = (run: Run): string => run.log.slice(-4000);

test.describe('a participant that dies mid-run', () => {
  test('the tests from its death on are inconclusive, none is a failure, the run fails and ends fast', async () => {
    test.setTimeout(180_000);
    const app = await sandbox({ SANDBOX_CONTROL: 'true' });
    try {
      const target = await mortal(app);
      // The version rules (GETs only), then from vetting: a known deviation first (it dies inside it), then
      // page-token and filter rules, which never get to run against a live target.
      const run = await runSuite(target.url, 'VER-|VET-PAGE-FINAL-TOKEN-EMPTY|VET-PAGE-TOKEN-|VET-FILTER-');
      const diedAt = target.diedAt();
      expect(diedAt, `the participant never died (served ${target.served()}):\n${tail(run)}`).toBeDefined();
      const matrix = matrixOf(run.out);
      const verdicts = matrix.tests
        .map((t) => `${t.verdict.padEnd(15)} ${t.title} — ${t.reason ?? ''}`)
        .join('\n');

      // No verdict on the target from a dead target: no failure, no harness defect, no unexpected pass.
      for (const t of matrix.tests) {
        expect(
          ['pass', 'known-deviation', 'skip', 'inconclusive'],
          `${t.title}: ${t.verdict} ${t.reason}`,
        ).toContain(t.verdict);
      }
      for (const r of matrix.rules)
        expect(['fail', 'harness-defect', 'unexpected-pass']).not.toContain(r.verdict);

      // Before the death: the version rules, judged normally (VER-AUTH-REQUIRED is Canton's known deviation).
      const version = matrix.tests.filter((t) => t.ruleId?.startsWith('VER-'));
      expect(version.length, verdicts).toBeGreaterThan(3);
      for (const t of version) expect(['pass', 'known-deviation'], verdicts).toContain(t.verdict);
      expect(version.find((t) => t.ruleId === 'VER-AUTH-REQUIRED')?.verdict, verdicts).toBe(
        'known-deviation',
      );

      // The known deviation cut short is inconclusive, not "known deviation" (it was never seen).
      const cut = matrix.tests.find((t) => t.ruleId === 'VET-PAGE-FINAL-TOKEN-EMPTY');
      expect(cut?.verdict, verdicts).toBe('inconclusive');
      expect(cut?.reason, verdicts).toMatch(
        /^Error: \[inconclusive\] POST \/v2\/package-vetting\/list got no response/,
      );
      expect(matrix.rules.find((r) => r.id === 'VET-PAGE-FINAL-TOKEN-EMPTY')?.verdict).toBe('inconclusive');

      // After it: every test inconclusive — each in the fresh worker Playwright starts after a failure (the
      // cut-short deviation counts as one: its expectation is turned back to "passed"), its probe refused.
      const after = matrix.tests.filter((t) => /^VET-(PAGE-TOKEN|FILTER)-/.test(t.ruleId ?? ''));
      expect(after.length, verdicts).toBeGreaterThan(5);
      for (const t of after) {
        expect(t.verdict, verdicts).toBe('inconclusive');
        expect(t.reason, verdicts).toMatch(
          /\[inconclusive\] (POST \/v2\/\S+ got no response|the target .* cannot be reached)/,
        );
      }
      expect(after.some((t) => /cannot be reached/.test(t.reason ?? ''))).toBe(true);

      // The run fails (a dead target is never green), and the matrix says so too.
      expect(run.status, tail(run)).toBe(1);
      expect(matrix.status).toBe('failed');

      // Fast: no test after the death waited for a timeout, and the rest of the run took seconds per test
      // (the cost is Playwright restarting its worker after each failed test, not waiting on the network).
      const timed = timings(run.out);
      const lateTitles = new Set([cut!, ...after].map((t) => t.title));
      const late = timed.filter((t) => lateTitles.has(t.title));
      expect(late.length).toBe(lateTitles.size);
      for (const t of timed.filter((x) => x.startMs > diedAt!)) expect(lateTitles).toContain(t.title);
      for (const t of late) {
        expect(t.status, t.title).not.toBe('timedOut');
        expect(t.duration, `${t.title} took ${t.duration} ms after the death`).toBeLessThan(FAST_MS);
      }
      const afterDeathMs = run.endedAt - diedAt!;
      const summary = `${late.length} tests from the death on, in ${afterDeathMs} ms (longest ${Math.max(...late.map((t) => t.duration))} ms)`;
      test.info().annotations.push({ type: 'timing', description: summary });
      console.log(`[participant-death] ${summary}`);
      expect(afterDeathMs, summary).toBeLessThan(15_000 + late.length * 3_000);
      rmSync(run.out, { recursive: true, force: true }); // kept when an assertion failed, for a look
    } finally {
      await app.close();
    }
  });

  test('a death inside the last test, a known deviation, still fails the run', async () => {
    test.setTimeout(120_000);
    const app = await sandbox();
    try {
      const target = await mortal(app);
      const run = await runSuite(target.url, 'VET-PAGE-FINAL-TOKEN-EMPTY');
      expect(target.diedAt(), tail(run)).toBeDefined();
      const matrix = matrixOf(run.out);
      expect(matrix.tests.map((t) => t.verdict)).toEqual(['inconclusive']);
      // Playwright alone would call an expected failure that failed "passed": the deviation fixture turns
      // the expectation back to "passed" when the test was cut short, so JUnit counts it failed as well.
      const json = readFileSync(join(run.out, 'playwright.json'), 'utf8');
      expect(json).toContain('"status": "unexpected"');
      expect(json).not.toContain('"status": "expected"');
      expect(matrix.status).toBe('failed');
      expect(run.status, tail(run)).toBe(1);
      rmSync(run.out, { recursive: true, force: true });
    } finally {
      await app.close();
    }
  });

  test('a lost target is inconclusive whatever the test expected: classify', () => {
    const deviation = {
      expectedStatus: 'failed',
      annotations: [{ type: 'fail', description: 'Canton does X' }],
    };
    const result = (status: TestResult['status'], message?: string) =>
      ({ status, errors: message ? [{ message }] : [], steps: [] }) as unknown as TestResult;
    const lost = 'Error: [inconclusive] POST /v2/package-vetting/list got no response: socket hang up';
    expect(classify(deviation as unknown as TestCase, result('failed', lost))).toEqual({
      verdict: 'inconclusive',
      reason: lost,
    });
    expect(classify(deviation as unknown as TestCase, result('timedOut')).verdict).toBe('inconclusive');
    expect(classify(deviation as unknown as TestCase, result('interrupted')).verdict).toBe('inconclusive');
    // Seen: still a known deviation, and its disappearance still flagged.
    expect(
      classify(deviation as unknown as TestCase, result('failed', 'Error: expect(received)')).verdict,
    ).toBe('known-deviation');
    expect(classify(deviation as unknown as TestCase, result('passed')).verdict).toBe('unexpected-pass');
  });
});
