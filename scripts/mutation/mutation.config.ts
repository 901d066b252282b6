// The mutation run's Playwright config: one project per sandbox (the clean one and one per fault), each
// naming its own target, so a single run on both cores judges every fault. The runner
// (scripts/mutation/mutation.ts) starts the sandboxes and passes their URLs and spec selections in
// MUTATION_PLAN.
import { defineConfig, type Project } from '@playwright/test';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';
import { discardAllureMetadata } from './discard-allure';
import { TIMEOUTS } from '../../core/timeouts';

export interface PlannedProject {
  name: string;
  url: string;
  /** Spec files (relative to the repo root); empty = the whole suite. */
  specs: string[];
  /** Rule ids whose tests alone run (`--by-rule`); empty = every test of `specs`. */
  rules: string[];
  /** Rule ids of @slow tests to leave out (they only run where a fault declares them). */
  skipSlow: string[];
  /** LEDGER_* settings of this project's harness (a fault profile's), on top of the environment. */
  env: Record<string, string>;
  /** Rule id → the faulty sandbox its tests run against (a project judging many faults); `url` is unused then. */
  routes?: Record<string, { url: string; fault: string }>;
}

// Hundreds of tests fail here on purpose, and nobody reads their snippets in colour.
plainErrorSnippets();
discardAllureMetadata();

const plan = JSON.parse(process.env.MUTATION_PLAN ?? '[]') as PlannedProject[];
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

export default defineConfig({
  testDir: '../../tests',
  // Its own folder: Playwright empties its output folder at start, and must not touch another run's.
  outputDir: '../../test-results/mutation',
  // A project's tests of one file share a worker: each worker started costs CPU of its own.
  fullyParallel: false,
  retries: 0,
  timeout: TIMEOUTS.testMs,
  // A dot per test, not a line: a fault run's tests are counted, not read one by one (the report lists them).
  reporter: [['dot'], ['../../reporters/mutation-collector.ts']],
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  projects: plan.map((p): Project => ({
    name: p.name,
    // One worker per project: a project's second worker (a whole worker start-up) ran a file or two of a
    // handful of tests; with one, the other slot takes the next project and every worker is reused.
    workers: 1,
    testMatch: p.specs.length > 0 ? p.specs.map((s) => `**/${s.replace(/^tests\//, '')}`) : '**/*.spec.ts',
    // A title starts with its rule id and a space (the grep sees the file and describe titles before it).
    grep: p.rules.length > 0 ? new RegExp(`(^| )(${p.rules.map(escape).join('|')}) `) : undefined,
    grepInvert: p.skipSlow.length > 0 ? new RegExp(`(${p.skipSlow.map(escape).join('|')}) `) : undefined,
    // Failing is what a fault run is for: outcomes are declared expected so Playwright keeps its workers
    // (fixtures/outcome.ts); the collector judges each test from the harness's own expectation, and reads no
    // request step or transcript (fixtures/ledger.ts `reportEvidence`).
    use: {
      reportEvidence: false,
      targetBaseUrl: p.url || undefined,
      ledgerEnv: p.env,
      declareOutcomes: true,
      targetsByRule: p.routes,
    },
  })),
});
