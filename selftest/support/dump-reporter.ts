// "A user's own reporter" for selftest/report/reporter-leaks.test.ts: writes everything Playwright hands a
// reporter — every step with its error, every test's errors, attachments (bodies and files, as text), output
// and the run's errors — as JSON lines to DUMP_REPORTER_FILE, in clear, so the scan sees what any reporter
// could print.
import { appendFileSync, existsSync, readFileSync } from 'node:fs';
import type {
  FullResult,
  Reporter,
  TestCase,
  TestError,
  TestResult,
  TestStep,
} from '@playwright/test/reporter';

const file = process.env.DUMP_REPORTER_FILE;

function write(event: string, data: unknown): void {
  if (file) appendFileSync(file, JSON.stringify({ event, data }) + '\n');
}

const text = (chunk: string | Buffer): string => (typeof chunk === 'string' ? chunk : chunk.toString('utf8'));

export default class DumpReporter implements Reporter {
  printsToStdio(): boolean {
    return false;
  }

  onStepEnd(test: TestCase, _result: TestResult, step: TestStep): void {
    write('step', { test: test.title, title: step.titlePath(), category: step.category, error: step.error });
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    write('test', {
      title: test.titlePath(),
      status: result.status,
      errors: result.errors,
      annotations: test.annotations,
      stdout: result.stdout.map(text),
      stderr: result.stderr.map(text),
      attachments: result.attachments.map((a) => ({
        name: a.name,
        body: a.body
          ? a.body.toString('utf8')
          : a.path && existsSync(a.path)
            ? readFileSync(a.path, 'utf8')
            : undefined,
      })),
    });
  }

  onStdOut(chunk: string | Buffer): void {
    write('stdout', text(chunk));
  }

  onStdErr(chunk: string | Buffer): void {
    write('stderr', text(chunk));
  }

  onError(error: TestError): void {
    write('error', error);
  }

  onEnd(result: FullResult): void {
    write('end', result);
  }
}
