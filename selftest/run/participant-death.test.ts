// A participant that dies in the middle of a run gives no verdict on what it could not answer: the tests
// from its death on are inconclusive (never a non-conformance failure, never a harness defect), a known
// deviation whose test was cut short is not reported as seen, the run fails (a dead target is not green), and
// it ends fast: after the first request without an answer the target is probed once, marked lost, and every
// later test ends at set-up (core/target-lost.ts) — no timeout waited, no worker restarted per test.
//
// The participant is the sandbox listening on 127.0.0.1 (port 0) in this worker; the conformance suite runs
// against it through LEDGER_BASE_URL in a child Playwright run (selftest/support/death-run.config.ts: the
// real config, one worker so the order is fixed). The sandbox dies deterministically at a chosen request,
// like a killed process: that request's connection is dropped unanswered, every open connection is reset and
// the port refuses connections from then on.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { specsIn } from '../support/json-report';
import type { FastifyInstance } from 'fastify';
import type { TestVerdict } from '../../reporters/verdicts';
import { cleanEnv, runNode } from '../support/child-run';
import { withSandbox } from '../support/sandbox-kit';
import { DEV_NAMESPACE } from '../../sandbox/config';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { EXIT } from '../../core/exit-codes';

const VETTING = '/v2/package-vetting/list';
/** What a test may take once the target is gone: far below the suite's 30 s timeout, so nobody waited for it. */
const FAST_MS = 5_000;
/**
 * The whole rest of a suite run once the target is gone: less than one test timeout of the suite (30 s), so no test
 * waited for one. Not tighter: how fast a hundred tests end at set-up is the machine's speed, not the harness's.
 */
const SETTLE_MS = 30_000;

/**
 * The requests the global setup sends before the first test when every identity setting is given
 * (scripts/preflight/checks.ts): GET /v2/version, GET /v2/parties/participant-id (the token's participant), GET
 * …/rights, GET …/connected-synchronizers (the synchronizer known), one vetting page (the template's package), the
 * control-route probe (core/control-route.ts) and the count of the listing for the run information
 * (scripts/run/vetting-size.ts: two pages here, the entries and the empty page after them, as Canton pages). Deaths are
 * counted from after them, so they stay inside the tests they were chosen for.
 */
const PREFLIGHT = { every: 8, vetting: 3 };
/** The dev defaults given explicitly: with LEDGER_BASE_URL alone the run would ask the participant for them. */
const IDENTITY = {
  LEDGER_PARTICIPANT_ID: `participant1::${DEV_NAMESPACE}`,
  LEDGER_USER: 'conformance',
  LEDGER_ACT_AS: `Alice::${DEV_NAMESPACE},Bob::${DEV_NAMESPACE}`,
  LEDGER_READ_AS: `Charlie::${DEV_NAMESPACE}`,
  LEDGER_UNAUTHORIZED_PARTY: `Dave::${DEV_NAMESPACE}`,
  LEDGER_SYNCHRONIZER_ID: `sandbox::${DEV_NAMESPACE}`,
  LEDGER_COMMAND_TEMPLATE: 'sandbox-asset-transfer',
};

/** Which request kills the participant: the n-th of all, or the n-th vetting list call (counting from 1). */
type Fatal = { every: number } | { vetting: number };

interface Mortal {
  url: string;
  /** Requests served before the death. */
  served: () => number;
  diedAt: () => number | undefined;
}

/** Listens on 127.0.0.1 (`port`, else a free one) and dies like a killed process on the `fatal` request. */
async function mortal(app: FastifyInstance, fatal: Fatal, port = 0): Promise<Mortal> {
  await app.listen({ host: '127.0.0.1', port });
  const server = app.server;
  const serve = server.listeners('request') as ((req: IncomingMessage, res: ServerResponse) => void)[];
  server.removeAllListeners('request');
  let served = 0;
  let requests = 0;
  let vetting = 0;
  let diedAt: number | undefined;
  server.on('request', (req: IncomingMessage, res: ServerResponse) => {
    requests++;
    if (req.method === 'POST' && req.url === VETTING) vetting++;
    const dies =
      'every' in fatal
        ? requests === fatal.every + PREFLIGHT.every
        : vetting === fatal.vetting + PREFLIGHT.vetting;
    if (diedAt !== undefined || dies) {
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

async function runSuite(
  baseUrl: string,
  grep?: string,
  out = mkdtempSync(join(tmpdir(), 'participant-death-')),
): Promise<Run> {
  const args = playwrightCommand(
    'test',
    '-c',
    'selftest/support/death-run.config.ts',
    ...(grep ? ['--grep', grep] : []),
  );
  const run = await runNode(args, {
    ...cleanEnv(),
    ...IDENTITY,
    // Given, so the global setup times no answers: the preflight's requests stay the ones PREFLIGHT counts.
    LEDGER_TIMEOUT_SCALE: '1',
    LEDGER_BASE_URL: baseUrl,
    LEDGER_REPORTS_DIR: out,
  });
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
  targetLost?: string;
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
  const all: Timed[] = [];
  for (const spec of specsIn(join(out, 'playwright.json'))) {
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
  return all.sort((a, b) => a.startMs - b.startMs);
}

const matrixOf = (out: string): Matrix =>
  JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as Matrix;
const tail = (run: Run): string => run.log.slice(-4000);

test.describe('a participant that dies mid-run', () => {
  test('the tests from its death on are inconclusive, none is a failure, the run fails and the rest settles in seconds', async () => {
    test.setTimeout(240_000);
    await withSandbox({ SANDBOX_CONTROL: 'true' }, async (app) => {
      // The whole suite, one worker: it dies early (a few tests in), so almost the whole suite comes after.
      const target = await mortal(app, { every: 12 });
      const run = await runSuite(target.url);
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

      // The test it died in got no response; every test after it ended at set-up as "target lost", which
      // names the request that went unanswered and the probe that confirmed it.
      const timed = timings(run.out);
      const late = timed.filter((t) => t.startMs + t.duration >= diedAt!);
      const lateTitles = new Set(late.map((t) => t.title));
      const after = matrix.tests.filter((t) => lateTitles.has(t.title));
      expect(after.length, verdicts).toBeGreaterThan(100);
      // The test in flight when it died: exactly one in the whole run got no response — found by its reason,
      // not by times: its start and duration are whole milliseconds of two clocks, and a test that failed within a
      // millisecond or two of the death can add up to just before it (seen under load).
      const NO_RESPONSE = /^Error: \[inconclusive\] \w+ \/v2\/\S+(?: \(.*?\))? got no response/;
      const cut = matrix.tests.filter((t) => NO_RESPONSE.test(t.reason ?? ''));
      expect(
        cut.map((t) => `${t.verdict} ${t.title}`),
        verdicts,
      ).toHaveLength(1);
      expect(cut[0]?.verdict, verdicts).toBe('inconclusive');
      const rest = after.filter((t) => t !== cut[0]);
      for (const t of rest) {
        expect(t.verdict, verdicts).toBe('inconclusive');
        expect(t.reason, verdicts).toMatch(
          /^\[inconclusive\] target lost: \w+ \/v2\/\S+(?: \(.*?\))? got no response: .*; probed again: the connection was refused/,
        );
      }
      expect(matrix.targetLost, verdicts).toMatch(/^target lost: /);

      // The run fails (a dead target is never green), and the matrix says so too.
      expect(run.status, tail(run)).toBe(EXIT.failed);
      expect(matrix.status).toBe('failed');

      // Fast: no test after the death waited for a timeout, and the whole rest of the run settled in seconds.
      for (const t of late) {
        expect(t.status, t.title).not.toBe('timedOut');
        expect(t.duration, `${t.title} took ${t.duration} ms after the death`).toBeLessThan(FAST_MS);
      }
      const afterDeathMs = run.endedAt - diedAt!;
      const summary = `${late.length} tests from the death on, in ${afterDeathMs} ms (longest ${Math.max(...late.map((t) => t.duration))} ms)`;
      test.info().annotations.push({ type: 'timing', description: summary });
      console.log(`[participant-death] ${summary}`);
      expect(afterDeathMs, summary).toBeLessThanOrEqual(SETTLE_MS);
      rmSync(run.out, { recursive: true, force: true }); // kept when an assertion failed, for a look
    });
  });

  test('a death inside the last test, a known deviation, still fails the run', async () => {
    test.setTimeout(120_000);
    await withSandbox({}, async (app) => {
      const target = await mortal(app, { vetting: 2 });
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
      expect(run.status, tail(run)).toBe(EXIT.failed);
      rmSync(run.out, { recursive: true, force: true });
    });
  });
});
