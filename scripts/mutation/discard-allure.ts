// A fault run's one reporter is the collector, which reads verdicts only: the Allure metadata every test sends
// (its labels, parameters and description, each an attachment message to the runner) goes nowhere; so in the
// self-tests' lean run (selftest/support/discovery-run.config.ts), whose rule matrix reads none of it. Their
// configs install, in the runner and in each worker, an Allure test runtime that drops it — through
// allure-js-commons' own SDK, so the fixtures' calls stay as they are and allure-playwright's runtime is
// never loaded.
import { MessageTestRuntime, setGlobalTestRuntime } from 'allure-js-commons/sdk/runtime';

class DiscardingRuntime extends MessageTestRuntime {
  sendMessage(): Promise<void> {
    return Promise.resolve();
  }

  override sendMessageSync(): void {}
}

export function discardAllureMetadata(): void {
  setGlobalTestRuntime(new DiscardingRuntime());
}
