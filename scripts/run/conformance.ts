// `npm run conformance [-- <playwright args>]`: validates the settings, clears the previous run's results,
// runs the suite (the global setup prints the run-information block), builds the Allure report once (served
// and single-file), then runs the secret gate over everything the run wrote. Exit code: 0 all green; 1 a test
// did not pass (non-conformance, inconclusive, harness defect, or a known deviation no longer seen), or the
// report could not be built; 2 a setting is wrong; 3 the secret gate found a secret in the output (that wins
// over everything: the output must not be published); 4 the target could not be reached, from the start or
// after it was lost during the run, and no test found anything else wrong. With --shard=i/n it runs one shard
// (scripts/shard/shard-run.ts: a blob and Allure results, no report; the same exit codes) and `npm run merge`
// builds the one report of all shards.
import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { answerHelp } from '../../core/cli-help';
import { ensureRunId, loadDotenv } from '../../core/settings';
import { buildAllureReport, preloadAllureOnResults, reportPaths, ROOT } from '../report/allure-report';
import { settingsOrExit } from './settings-check';
import { secretGate, SECRET_GATE_EXIT } from '../report/secret-gate';
import { ShardError, shardArgs, shardRunId } from '../shard/shard';
import { runExitCode } from './target-down';
import { blockedOutcome } from './blocked-exit';
import { runShard } from '../shard/shard-run';
import { publishSandbox } from './embedded-sandbox';
import { playwrightCommand } from './playwright-cli';
import { EXIT } from '../../core/exit-codes';
import { reportsMoved } from '../../core/reports-dir';
import { handOff } from '../../core/run-context';

answerHelp(`Usage: npm run conformance [-- <Playwright test arguments>]
Runs the conformance suite against LEDGER_BASE_URL (the in-process sandbox when it is unset): the global setup
checks the target and every identity setting first, then the suite runs; the reports go to reports/
(conformance.md and .json, junit.xml, the Allure report; LEDGER_REPORTS_DIR to move them). Settings: .env.example.
  --grep <RULE-ID prefix | @tag>  select rules (VET-, @readonly; LEDGER_TAGS selects by tags too)
  --shard=i/n                     run one shard of the suite; npm run merge builds the one report
  any other argument              Playwright's own (npx playwright test --help lists them)
Exit code: 0 every test passed; 1 a test did not pass; 2 a setting is wrong (one line names it); 3 the secret
gate found a secret in the outputs; 4 the participant did not answer.`);
loadDotenv();
const paths = reportPaths();
// First, before anything can stop the run: a run that ends on a wrong setting (exit 2) must leave no report of
// an earlier run to be read as its own. A shard writes to a folder of its own; the merge clears these itself.
if (!process.argv.slice(2).some((a) => a.startsWith('--shard'))) {
  for (const p of [paths.output, paths.singleFile, paths.junit, paths.target, paths.matrix, paths.markdown]) {
    rmSync(p, { recursive: true, force: true });
  }
}
// Every setting, LEDGER_INTERFACE_DOC_URL and LEDGER_TAGS included: a wrong one stops the run here.
const s = settingsOrExit();
// One run id for the whole run; playwright.config.ts keeps it and the workers inherit it.
const runId = ensureRunId();

// --shard=i/n: one part of the run, merged later with `npm run merge` (scripts/shard/shard-run.ts).
let sharding: ReturnType<typeof shardArgs>;
try {
  sharding = shardArgs(process.argv.slice(2));
  if (sharding.shard) shardRunId(runId, sharding.shard);
} catch (e) {
  if (!(e instanceof ShardError)) throw e;
  process.stderr.write(`ledger-conformance: ${e.message}\n`);
  process.exit(EXIT.badSetting);
}
if (sharding.shard) {
  const { shard, config, rest } = sharding;
  process.exit(runShard(s, shard, config, rest, runId));
}

// allure-playwright appends to its results folder and Allure never cleans its output: start from nothing.
rmSync(paths.results, { recursive: true, force: true });
if (!reportsMoved()) rmSync(join(ROOT, 'test-results', 'conformance'), { recursive: true, force: true });

/** Runs Playwright; resolves to its exit code (1 when it ended by a signal). */
function playwrightTest(args: string[]): Promise<number> {
  const child = spawn(process.execPath, playwrightCommand('test', ...args), { cwd: ROOT, stdio: 'inherit' });
  return new Promise((done) => {
    child.on('error', () => done(1));
    child.on('close', (code) => done(code ?? 1));
  });
}

/**
 * Without LEDGER_BASE_URL, the in-process sandbox starts in this process while Playwright starts: tsx loads
 * its fifty modules in a fraction of the time Playwright's Babel transform takes on a cold machine, and its
 * requests are served beside the runner rather than on the runner's thread, which also runs the reporters.
 * The global setup waits for it (the run context's embeddedSandbox); `npx playwright test` alone starts one in the runner.
 */
function embeddedSandboxFile(): { file: string; dir: string } | undefined {
  if (s.baseUrl !== undefined) return undefined;
  const dir = mkdtempSync(join(tmpdir(), 'ledger-conformance-sandbox-'));
  const file = join(dir, 'sandbox.json');
  handOff({ embeddedSandbox: file });
  return { file, dir };
}

async function main(): Promise<number> {
  // Allure's generator loads while the tests run, once their first results are written (this process only waits
  // for them): the report then costs only its generation after the tests.
  const stopWatching = preloadAllureOnResults(paths.results);
  const embedded = embeddedSandboxFile();
  // Playwright is spawned first (it inherits the variable), then the sandbox loads while the runner starts.
  const playwright = playwrightTest(process.argv.slice(2));
  const sandbox = embedded ? publishSandbox(embedded.file) : undefined;
  let playwrightStatus: number;
  try {
    playwrightStatus = await playwright;
  } finally {
    stopWatching();
    await (await sandbox)?.close();
    if (embedded) rmSync(embedded.dir, { recursive: true, force: true });
  }
  const blocked = blockedOutcome(
    paths.target,
    paths.matrix,
    runExitCode(paths.matrix, playwrightStatus, s.failOn),
  );
  const testsStatus = blocked.code;
  const reportStatus = await buildAllureReport(paths);
  const leaks = secretGate(s);
  if (blocked.line) process.stderr.write(`ledger-conformance: ${blocked.line}\n`);
  return leaks.length > 0 ? SECRET_GATE_EXIT : testsStatus !== 0 ? testsStatus : reportStatus;
}

void main().then((code) => process.exit(code));
