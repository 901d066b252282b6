// The conformance run of selftest/report/reporter-leaks.test.ts: the real suite (tests/, fixtures) with one
// project per way a participant can fail (LEAK_RUN_PLAN: name, target URL, grep, LEDGER_* settings), every
// output under LEAK_RUN_OUT. No global setup: each project names its own target, so no sandbox starts. The
// reporters come from the command line (--reporter=…), the point of the run.
import { resolve } from 'node:path';
import { defineConfig, type Project } from '@playwright/test';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';

export interface LeakProject {
  name: string;
  url: string;
  grep: string;
  env: Record<string, string>;
}

const out = process.env.LEAK_RUN_OUT;
if (!out)
  throw new Error('LEAK_RUN_OUT is unset: run this config through selftest/report/reporter-leaks.test.ts');
const plan = JSON.parse(process.env.LEAK_RUN_PLAN ?? '[]') as LeakProject[];

// Its tests fail on purpose (the participant breaks): uncoloured snippets, the runner's CPU saved.
plainErrorSnippets();

export default defineConfig({
  testDir: resolve(__dirname, '..', '..', 'tests'),
  outputDir: `${out}/test-results`,
  fullyParallel: true,
  workers: 2,
  retries: 0,
  // Fixed, not scaled: LEDGER_TIMEOUT_SCALE is small so the requests to the hanging target time out in
  // seconds, and a loaded machine must not turn that into a test timeout instead.
  timeout: 30_000,
  use: { trace: 'off', screenshot: 'off', video: 'off' },
  projects: plan.map((p): Project => ({
    name: p.name,
    grep: new RegExp(p.grep),
    use: { targetBaseUrl: p.url, ledgerEnv: p.env },
  })),
});
