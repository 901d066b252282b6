// The run's console list, in the rule matrix's words: one line per test as it ends, marked by its verdict
// (classify.ts), not by Playwright's status. Playwright's own list marks an expected failure that failed ✘ and
// counts it "passed"; here a known deviation is `~ … — known deviation`, and the closing count names each
// verdict ("122 passed, 4 known deviations, 4 skipped"). What did not pass is printed after the list with its
// error, where it failed, and the command that reruns it alone.
import { dirname, relative } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestError,
  TestResult,
} from '@playwright/test/reporter';
import { RERUN_ANNOTATION, withoutInconclusive } from '../core/verdict-marks';
import { classify, TARGET_GONE } from './classify';
import { errorDetail } from './reason';
import { VERDICT_WORDS, type TestVerdict } from './verdicts';

/** A verdict's mark and words (one, many): VERDICT_WORDS', and for many the word with `plural` after it. */
const counted = (v: TestVerdict, plural = '') => ({
  mark: VERDICT_WORDS[v].mark,
  one: VERDICT_WORDS[v].word,
  many: `${VERDICT_WORDS[v].word}${plural}`,
});

/**
 * Each verdict's mark and the words it is counted in (one, many), in the order the count lists them: the matrix's
 * words (VERDICT_WORDS), but for passed and skipped, which count tests as Playwright's own summary does.
 */
const SHOWN: Record<TestVerdict, { mark: string; one: string; many: string }> = {
  pass: { mark: VERDICT_WORDS.pass.mark, one: 'passed', many: 'passed' },
  fail: counted('fail'),
  'unexpected-pass': counted('unexpected-pass'),
  'harness-defect': counted('harness-defect', 'S'),
  setup: counted('setup', 'S'),
  inconclusive: counted('inconclusive'),
  'known-deviation': counted('known-deviation', 's'),
  skip: { mark: VERDICT_WORDS.skip.mark, one: 'skipped', many: 'skipped' },
};

const NEEDS_A_LOOK: ReadonlySet<TestVerdict> = new Set([
  'fail',
  'unexpected-pass',
  'harness-defect',
  'setup',
  'inconclusive',
]);

interface Ended {
  test: TestCase;
  result: TestResult;
  verdict: TestVerdict;
  reason?: string;
}

export default class ConsoleReporter implements Reporter {
  /** Locations are shown from the config's folder, as Playwright's list shows them. */
  private rootDir = process.cwd();
  private readonly ended = new Map<string, Ended>();
  private index = 0;
  /** The tests that ended at their start because the target was gone: the first is listed, the rest counted. */
  private gone = 0;
  private readonly started = Date.now();

  onBegin(config: FullConfig, suite: Suite): void {
    this.rootDir = config.configFile ? dirname(config.configFile) : config.rootDir;
    const n = suite.allTests().length;
    const workers =
      (config.metadata as { actualWorkers?: number } | undefined)?.actualWorkers ?? config.workers;
    this.write(
      `\nRunning ${n} test${n === 1 ? '' : 's'} using ${workers} worker${workers === 1 ? '' : 's'}\n\n`,
    );
  }

  onStdOut(chunk: string | Buffer): void {
    process.stdout.write(chunk);
  }

  onStdErr(chunk: string | Buffer): void {
    process.stderr.write(chunk);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const { verdict, reason } = classify(test, result);
    this.ended.set(test.id, { test, result, verdict, reason });
    ++this.index;
    // Once the target is gone every later test ends at its start the same way: said once, then counted.
    const gone = verdict === 'inconclusive' && TARGET_GONE.test(reason ?? '');
    if (gone && this.gone++ > 0) return;
    const shown = SHOWN[verdict];
    const words = verdict === 'pass' ? '' : ` — ${shown.one}`;
    const why = gone
      ? `\n         ${withoutInconclusive(reason!)}: every later test ends at its start the same way`
      : '';
    this.write(
      `  ${shown.mark} ${String(this.index).padStart(4)} ${this.where(test)}${words} (${result.duration}ms)${why}\n`,
    );
  }

  onError(error: TestError): void {
    this.write(`\nError: ${error.message ?? error.value ?? 'unknown'}\n`);
  }

  onEnd(_result: FullResult): void {
    const all = [...this.ended.values()];
    // The tests ended only because the participant was gone are one line in the rule matrix's table.
    const look = all.filter((e) => NEEDS_A_LOOK.has(e.verdict) && !TARGET_GONE.test(e.reason ?? ''));
    if (this.gone > 1)
      this.write(`  ? ${this.gone - 1} more tests ended at their start, the target gone (not listed)\n`);
    look.forEach((e, i) => this.write(this.failure(e, i + 1)));
    const counts = (Object.keys(SHOWN) as TestVerdict[])
      .map((v) => [v, all.filter((e) => e.verdict === v).length] as const)
      .filter(([, n]) => n > 0)
      .map(([v, n]) => `${n} ${n === 1 ? SHOWN[v].one : SHOWN[v].many}`);
    const seconds = ((Date.now() - this.started) / 1000).toFixed(1);
    this.write(`\n  ${counts.join(', ') || 'no test ran'} (${seconds}s)\n`);
  }

  printsToStdio(): boolean {
    return true;
  }

  private where(test: TestCase): string {
    const file = relative(this.rootDir, test.location.file);
    const path = test.titlePath().slice(3, -1); // project, file and its root out: the describe blocks
    const title = [test.title, ...test.tags].join(' ');
    return [`${file}:${test.location.line}:${test.location.column}`, ...path, title].join(' › ');
  }

  private failure(e: Ended, n: number): string {
    const lines = [`\n  ${n}) ${this.where(e.test)} — ${SHOWN[e.verdict].one}\n`];
    if (e.reason) lines.push(`    ${e.reason}\n`);
    for (const error of e.result.errors) {
      const text = [errorDetail(error.message ?? error.value ?? '', e.reason), error.snippet ?? '']
        .filter(Boolean)
        .join('\n\n');
      lines.push(`\n${indent(text)}\n`);
      const frames = (error.stack ?? '').split('\n').filter((l) => /^\s+at /.test(l));
      if (frames.length > 0) lines.push(`${indent(frames.map((f) => f.trim()).join('\n'))}\n`);
    }
    const rerun = e.test.annotations.find((a) => a.type === RERUN_ANNOTATION)?.description;
    if (rerun) lines.push(`\n    rerun: ${rerun}\n`);
    return lines.join('');
  }

  private write(text: string): void {
    process.stdout.write(text);
  }
}

const indent = (text: string) =>
  text
    .split('\n')
    .map((l) => (l ? `    ${l}` : l))
    .join('\n');
