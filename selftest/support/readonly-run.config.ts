// The read-only runs of selftest/suite/readonly-inert.test.ts: the lean conformance run
// (./discovery-run.config.ts) against a sandbox with faults on, whose failures are declared expected as a
// fault run's are (fixtures/outcome.ts), so Playwright keeps its one worker instead of starting a new one
// after every failed test.
import { defineConfig } from '@playwright/test';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';
import lean from './discovery-run.config';

// Its tests fail on purpose (the faults break them): uncoloured snippets, the runner's CPU saved.
plainErrorSnippets();

// `declareOutcomes` is the fixtures' own option, unknown to the config's types (the mutation config sets it alike).
const use = { ...lean.use, declareOutcomes: true } as typeof lean.use;

export default defineConfig({ ...lean, use });
