// How fast a run goes at the participant: the default workers (at most 8 against a remote participant, whatever
// the machine's cores), the timeout scale chosen from measured answer times (an explicit setting always wins,
// never below today's defaults), the run-information lines that state both, and the timed submission the
// global setup sends (valid, with the run's ids) only when the selection writes anyway.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { expect, test } from '../support/test';
import { chooseWorkers, REMOTE_WORKERS_CAP, loadSettings } from '../../core/settings';
import { selectionWrites } from '../../core/selection';
import { TIMEOUTS } from '../../core/timeouts';
import { chooseTimeoutScale, timeoutScaleLine, workersLine, type AnswerTimes } from '../../scripts/run/pace';
import { TIMING_ID, timeAnswers } from '../../scripts/preflight/checks';
import { startParticipant } from '../support/held-out-faults';

const ROOT = resolve(__dirname, '..', '..');
const REMOTE = { LEDGER_BASE_URL: 'https://staging.example.com/api/json' };

test.describe('workers', () => {
  test('a remote participant on a 16-core runner gets at most 8 workers unless LEDGER_WORKERS says otherwise', () => {
    expect(REMOTE_WORKERS_CAP).toBe(8);
    expect(loadSettings(REMOTE, 16).workers).toBe(8);
    expect(loadSettings(REMOTE, 2).workers).toBe(4);
    expect(loadSettings(REMOTE, 1).workers).toBe(2);
    expect(loadSettings({ ...REMOTE, LEDGER_WORKERS: '32' }, 16).workers).toBe(32);
    // The in-process sandbox shares the cores with the harness: all of them, no cap.
    expect(loadSettings({}, 16).workers).toBe(16);
    expect(chooseWorkers(undefined, true, 16)).toEqual({
      workers: 8,
      why: '2 × cores, at most 8 against a remote participant',
    });
    expect(chooseWorkers(3, true, 16)).toEqual({ workers: 3, why: 'LEDGER_WORKERS' });
  });

  test('README, .env.example and the run-information line state the same default', () => {
    const phrase = `twice the cores, at most ${REMOTE_WORKERS_CAP}`;
    const readme = readFileSync(resolve(ROOT, 'README.md'), 'utf8');
    const example = readFileSync(resolve(ROOT, '.env.example'), 'utf8');
    expect(readme).toContain(phrase);
    expect(example).toContain(phrase);
    expect(workersLine(8, loadSettings(REMOTE, 16))).toBe(
      `8 (2 × cores, at most ${REMOTE_WORKERS_CAP} against a remote participant)`,
    );
    expect(workersLine(5, loadSettings({ ...REMOTE, LEDGER_WORKERS: '5' }, 16))).toBe('5 (LEDGER_WORKERS)');
    // `--workers` on the command line wins over both; Playwright hands the global setup the number it runs.
    expect(workersLine(3, loadSettings(REMOTE, 16))).toBe('3 (--workers)');
    expect(workersLine(2, loadSettings({}, 2))).toBe('2 (the cores: the in-process sandbox shares them)');
  });
});

test.describe('the timeout scale', () => {
  const unset = loadSettings(REMOTE);
  const slow: AnswerTimes = { versionMs: 1004, submission: { ms: 2080, status: 200 } };

  test('measured answer times set it: the slowest over the reference, rounded up, never below 1', () => {
    expect(chooseTimeoutScale(unset, slow).scale).toBe(
      Math.ceil((2080 / TIMEOUTS.referenceAnswerMs) * 10) / 10,
    );
    expect(chooseTimeoutScale(unset, { versionMs: 2500, submission: { ms: 900, status: 200 } }).scale).toBe(
      12.5,
    );
    expect(chooseTimeoutScale(unset, { versionMs: 3, submission: { ms: 12, status: 200 } }).scale).toBe(1);
    expect(chooseTimeoutScale(unset, { versionMs: 3, submission: { why: 'read-only' } }).scale).toBe(1);
    // A version read alone counts when no submission was timed.
    expect(chooseTimeoutScale(unset, { versionMs: 600, submission: { why: 'read-only' } }).scale).toBe(
      Math.ceil((600 / TIMEOUTS.referenceAnswerMs) * 10) / 10,
    );
    // No time is right for a submission that never answered: it is said, not counted.
    expect(chooseTimeoutScale(unset, { versionMs: 10, submission: { noAnswerWithinMs: 20_000 } }).scale).toBe(
      1,
    );
    expect(chooseTimeoutScale(unset, { versionMs: 60_000, submission: { why: '-' } }).scale).toBe(100);
    expect(chooseTimeoutScale(unset, undefined, 'the in-process sandbox: nothing to measure').scale).toBe(1);
  });

  test('an explicit LEDGER_TIMEOUT_SCALE always wins, in either direction', () => {
    for (const value of ['1', '0.5', '30']) {
      const s = loadSettings({ ...REMOTE, LEDGER_TIMEOUT_SCALE: value });
      expect(chooseTimeoutScale(s, slow)).toEqual({
        scale: Number(value),
        source: 'LEDGER_TIMEOUT_SCALE',
        measured: false,
      });
    }
    // And over a scale the run measured and handed to its workers.
    const both = loadSettings({ ...REMOTE, LEDGER_TIMEOUT_SCALE: '2', LEDGER_MEASURED_TIMEOUT_SCALE: '9' });
    expect([both.timeoutScale, both.timeoutScaleExplicit]).toEqual([2, true]);
    const handed = loadSettings({ ...REMOTE, LEDGER_MEASURED_TIMEOUT_SCALE: '9' });
    expect([handed.timeoutScale, handed.timeoutScaleExplicit]).toEqual([9, false]);
  });

  test('the run-information line says what was measured and the scale chosen', () => {
    expect(timeoutScaleLine(chooseTimeoutScale(unset, slow))).toBe(
      '10.4 (measured: version 1.0 s, submission 2.1 s; LEDGER_TIMEOUT_SCALE unset)',
    );
    expect(
      timeoutScaleLine(
        chooseTimeoutScale(unset, { versionMs: 4.4, submission: { why: 'the selection creates nothing' } }),
      ),
    ).toBe(
      '1 (measured: version 4 ms, no submission: the selection creates nothing; LEDGER_TIMEOUT_SCALE unset)',
    );
    expect(
      timeoutScaleLine(chooseTimeoutScale(unset, { versionMs: 30, submission: { ms: 31, status: 400 } })),
    ).toBe('1 (measured: version 30 ms, submission 31 ms (answered 400); LEDGER_TIMEOUT_SCALE unset)');
    expect(
      timeoutScaleLine(
        chooseTimeoutScale(unset, { versionMs: 30, submission: { noAnswerWithinMs: 20_000 } }),
      ),
    ).toBe(
      '1 (measured: version 30 ms, submission: no answer within 20.0 s, not counted; LEDGER_TIMEOUT_SCALE unset: set it for a participant this slow)',
    );
    expect(timeoutScaleLine(chooseTimeoutScale(loadSettings({ LEDGER_TIMEOUT_SCALE: '3' }), slow))).toBe(
      '3 (LEDGER_TIMEOUT_SCALE)',
    );
    expect(
      timeoutScaleLine(chooseTimeoutScale(unset, undefined, 'the in-process sandbox: nothing to measure')),
    ).toBe('1 (the in-process sandbox: nothing to measure; LEDGER_TIMEOUT_SCALE unset)');
  });
});

test.describe('the timed submission', () => {
  test('only when the selection writes anyway: a read-only selection submits nothing', () => {
    expect(selectionWrites({}, [])).toBe(true);
    expect(selectionWrites({ LEDGER_TAGS: '@readonly' }, [])).toBe(false);
    expect(selectionWrites({}, ['--grep', '@readonly'])).toBe(false);
    expect(selectionWrites({}, ['--grep-invert', '@writes'])).toBe(false);
    expect(selectionWrites({}, ['--grep', 'VER-'])).toBe(false);
    expect(selectionWrites({}, ['--grep', 'SUB-'])).toBe(true);
    // A regular expression of Playwright's own: taken as the whole catalogue.
    expect(selectionWrites({}, ['--grep', 'VER-|VET-'])).toBe(true);
  });

  test('is a valid submission with the run’s ids, accepted by the sandbox; a read-only run sends none', async () => {
    const submitted: { commandId?: string; submissionId?: string; workflowId?: string }[] = [];
    // A clean sandbox behind a front that only records what is submitted.
    const participant = await startParticipant({
      name: 'submission-recorder',
      operation: 'submit-tree',
      breaks: 'nothing: it records the submissions',
      against: 'nothing',
      install: (front) =>
        front.addHook('preHandler', async (req) => {
          if (req.method === 'POST')
            submitted.push(JSON.parse(String(req.body)) as (typeof submitted)[number]);
        }),
    });
    try {
      const s = loadSettings({ LEDGER_BASE_URL: participant.url, LEDGER_RUN_ID: 'run-pace-1' });
      const times = await timeAnswers(s, participant.url, true);
      expect(times.submission).toEqual({ ms: expect.any(Number), status: 200 });
      expect(times.versionMs).toBeGreaterThan(0);
      expect(submitted).toHaveLength(1);
      const { commandId, submissionId, workflowId } = submitted[0]!;
      for (const id of [commandId, submissionId, workflowId])
        expect(id).toMatch(new RegExp(`^run-pace-1:${TIMING_ID}:w0:`));

      const read = await timeAnswers(s, participant.url, 'read-only');
      expect(read.submission).toEqual({ why: 'read-only' });
      expect(submitted).toHaveLength(1);
    } finally {
      await participant.close();
    }
  });
});
