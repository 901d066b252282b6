// allure-playwright, writing the same results without an fsync per file (plumbing/allure-writer.ts).
import type { Suite } from '@playwright/test/reporter';
import AllureReporter from 'allure-playwright';
import { usePlainWriter } from '../plumbing/allure-writer';

export default class AllureResultsReporter extends AllureReporter {
  override onBegin(suite: Suite): void {
    super.onBegin(suite);
    // allure-playwright builds its runtime (and its writer) in onBegin, from resultsDir alone: swap the writer.
    usePlainWriter(this, this.options.resultsDir);
  }
}
