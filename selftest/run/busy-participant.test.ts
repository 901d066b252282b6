// A busy participant still gets its verdicts: the sandbox answering a seeded share of its requests with Canton's
// transient errors (sandbox/busy.ts) is judged as a quiet one — the preflight, discovery and the rules asking
// again what Canton marks retryable (core/retry.ts) — and the retried answers are counted where a reader looks.
// A participant that is really down (every answer 503) is still one verdict, exit 4, within seconds (connections
// refused: selftest/core/cleartext.test.ts's run). Each run is a child Playwright run of the lean config against
// LEDGER_BASE_URL (the sandbox listening in this worker, identity left to discovery), over rules that read,
// walk, submit and deduplicate; every run is shared by the assertions made on it. The busy answers ask for
// 100 ms instead of Canton's 1 s, which keeps the runs short; `npm run bench` times Canton's own delay.
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Fastify from 'fastify';
import { expect, test } from '../support/test';
import { runLean } from '../support/child-run';
import { listen } from '../support/harness-kit';
import { withSandbox } from '../support/sandbox-kit';
import { runExitCode } from '../../scripts/run/target-down';
import { EXIT } from '../../core/exit-codes';
import { tallyTotal, type TransientTally } from '../../core/transient-tally';
import { RETRY } from '../../core/retry';

/** Reads, a walk, submissions and the deduplication rules (their parallel one included), bad input. */
const GREP = 'VER-|SUB-DEDUP-|GEN-NO-5XX|VET-PAGE-WALK-';
/** Three seeds; the first draws a busy answer for the very first request (GET /v2/version). */
const SEEDS = ['20', '3', '5'];
/** What the harness may wait, before the tests, to say a participant is down (exit 4). */
const DOWN_WITHIN_MS = 10_000;

interface Run {
  exit: number;
  log: string;
  matrix: {
    tests: { title: string; verdict: string; reason?: string }[];
    transientRetried?: TransientTally;
  };
  md: string;
}

async function suite(baseUrl: string, grep = GREP): Promise<Run> {
  const out = mkdtempSync(join(tmpdir(), 'busy-run-'));
  const run = await runLean(out, { LEDGER_BASE_URL: baseUrl, LEDGER_TIMEOUT_SCALE: '1' }, ['--grep', grep]);
  const matrixFile = join(out, 'conformance.json');
  return {
    // The exit code `npm run conformance` gives (scripts/run/conformance.ts): exit 4 for a target down.
    exit: runExitCode(matrixFile, run.status ?? 1),
    log: run.stdout + run.stderr,
    matrix: JSON.parse(readFileSync(matrixFile, 'utf8')) as Run['matrix'],
    md: readFileSync(join(out, 'conformance.md'), 'utf8'),
  };
}

/** The suite against the sandbox with these SANDBOX_ settings, listening here for the run. */
async function sandboxRun(env: Record<string, string>): Promise<Run> {
  return withSandbox({ ...env, SANDBOX_BUSY_RETRY_INFO: '100 milliseconds' }, async (app) =>
    suite(await listen(app)),
  );
}

/**
 * What a quiet sandbox gives every test of the selection: a pass, the known deviation its test expects (the fault
 * run's clean sandbox holds that for the whole suite), or the skip its catalogue needs decide (the same whether
 * busy or not). So a run's verdicts are a quiet run's exactly when each is one of these: a test expected to
 * deviate that passed is an UNEXPECTED PASS, any other failure a FAIL, a lost exchange inconclusive.
 */
const QUIET: ReadonlySet<string> = new Set(['pass', 'known-deviation', 'skip']);
const notQuiet = (run: Run) => run.matrix.tests.filter((t) => !QUIET.has(t.verdict));

// The runs one after the other in one worker, each made once and read by every test that needs it.
test.describe.configure({ mode: 'default' });
const made = new Map<string, Promise<Run>>();
const once = (key: string, make: () => Promise<Run>): Promise<Run> => {
  if (!made.has(key)) made.set(key, make());
  return made.get(key)!;
};
const busy = (fraction: string, seed: string, answers: string) =>
  once(`${fraction}/${seed}/${answers}`, () =>
    sandboxRun({ SANDBOX_BUSY: fraction, SANDBOX_BUSY_SEED: seed, SANDBOX_BUSY_ANSWERS: answers }),
  );

test('busy at 5% with 503 (three seeds): exit 0, nothing inconclusive, a quiet run’s verdicts, the retries counted', async () => {
  test.setTimeout(360_000);
  const counts: number[] = [];
  for (const seed of SEEDS) {
    const run = await busy('0.05', seed, '503');
    const what = `seed ${seed}: ${run.log.slice(-3000)}`;
    expect(run.exit, what).toBe(0);
    expect(notQuiet(run), what).toEqual([]);
    counts.push(run.matrix.tests.length);
    expect(
      run.matrix.tests.filter((t) => t.verdict === 'inconclusive'),
      what,
    ).toEqual([]);
    const retried = tallyTotal(run.matrix.transientRetried ?? {});
    expect(retried, what).toBeGreaterThan(0);
    expect(run.log).toContain(`Transient answers retried: ${retried} (`);
    expect(run.md).toContain(`Transient answers retried: ${retried} (`);
  }
  expect(new Set(counts).size, 'every seed ran the whole selection').toBe(1);
  // The very first request drew the busy answer: asked again, never "unreachable", and told in the run information.
  const first = await busy('0.05', SEEDS[0]!, '503');
  expect(first.log).toMatch(/\n {2}retried {7}\d+ \(GET \/v2\/version: 503 INDEX_DB_SQL_TRANSIENT_ERROR/);
  expect(first.log).not.toContain('cannot be reached');
});

test('busy at 20% with 503 and 409: no FAIL a quiet run lacks; an inconclusive rule says its retries ran out', async () => {
  test.setTimeout(240_000);
  const run = await busy('0.2', '11', '503,409');
  const failed = run.matrix.tests.filter((t) => t.verdict === 'fail' || t.verdict === 'unexpected-pass');
  expect(failed, run.log.slice(-3000)).toEqual([]);
  expect(run.matrix.tests.filter((t) => t.verdict === 'harness-defect')).toEqual([]);
  for (const t of run.matrix.tests.filter((x) => x.verdict === 'inconclusive'))
    expect(t.reason, t.title).toMatch(/after \d+ retr(y|ies)|time budget left no room/);
  expect(
    run.matrix.transientRetried?.['POST /v2/commands/submit-and-wait-for-transaction-tree'],
  ).toHaveProperty('409 PARTICIPANT_BACKPRESSURE');
});

/**
 * Within 10 s by construction, whatever the machine's speed: before the tests the harness waits at most
 * setupRetries × setupMaxDelayMs for a transient answer to change (the runs below show it asks no more).
 */
test('the checks before the tests wait at most 10 s for a participant to stop being transient', () => {
  expect(RETRY.setupRetries * RETRY.setupMaxDelayMs).toBeLessThan(DOWN_WITHIN_MS);
  expect(RETRY.transportRetries * RETRY.setupMaxDelayMs).toBeLessThan(DOWN_WITHIN_MS);
});

test('a participant answering every request 503: exit 4, its version asked no more than the retries allow', async () => {
  test.setTimeout(120_000);
  const app = Fastify();
  let versionReads = 0;
  app.all('/*', async (req, reply) => {
    if (req.url.startsWith('/v2/version')) versionReads++;
    // Canton's own while its JSON API starts (CommonErrors.ServiceNotRunning), with the category's retryInfo.
    return reply
      .code(503)
      .type('application/json')
      .send({
        code: 'SERVICE_NOT_RUNNING',
        cause: 'Ledger API server is not running.',
        correlationId: null,
        traceId: null,
        context: { category: '1', definite_answer: 'false' },
        resources: [],
        errorCategory: 1,
        grpcCodeValue: 14,
        retryInfo: '1 second',
        definiteAnswer: null,
      });
  });
  try {
    const run = await suite(await listen(app), 'VER-');
    expect(run.exit, run.log.slice(-3000)).toBe(EXIT.targetDown);
    expect(run.log).toContain('GET /v2/version answered 503 SERVICE_NOT_RUNNING on every try');
    // The first probe and its retries; a worker's probe of a target already marked gone asks again at most once.
    expect(versionReads).toBeLessThanOrEqual(2 * (RETRY.setupRetries + 1));
  } finally {
    await app.close();
  }
});
