// The mutation run's reporter: one record per test and project (project = the fault its sandbox carries),
// judged exactly as the rule matrix judges a normal run, written to the file the runner names.
import { writeFileSync } from 'node:fs';
import type { Reporter, TestCase, TestResult } from '@playwright/test/reporter';
import { ruleIdOfTitle } from '../rules/catalogue';
import { FAULT_ANNOTATION } from '../core/verdict-marks';
import { classify } from './classify';
import type { TestRecord } from './verdicts';

export interface ProjectRecord extends TestRecord {
  project: string;
}

export default class MutationCollector implements Reporter {
  private readonly records = new Map<string, ProjectRecord>();

  onTestEnd(test: TestCase, result: TestResult): void {
    const { verdict, reason } = classify(test, result);
    this.records.set(test.id, {
      // A routed test names the fault it ran against (FAULT_ANNOTATION, fixtures/target.ts writes it);
      // otherwise the project is the fault.
      project:
        test.annotations.find((a) => a.type === FAULT_ANNOTATION)?.description ??
        test.parent.project()?.name ??
        '',
      ruleId: ruleIdOfTitle(test.title),
      title: test.title,
      file: test.location.file,
      verdict,
      reason,
      durationMs: result.duration,
    });
  }

  onEnd(): void {
    const out = process.env.MUTATION_RECORDS;
    if (out) writeFileSync(out, JSON.stringify([...this.records.values()]));
  }

  printsToStdio(): boolean {
    return false;
  }
}
