// The run context: what the runner's processes hand each other — `npm run conformance` to Playwright, the global
// setup to the workers, the runner's main process to the workers, the shard and merge runners to their configs,
// the mutation runner to its child runs. One table defines every field: its variable (the transport is the
// environment the child starts with, so a worker Playwright starts inherits it), and what it holds. Parents
// write through `handOff`, children read through `runContext`; a rerun of one test leaves out every variable
// of the table (fixtures/rerun.ts), and .env.example lists them under "Internal" (a self-test holds the two
// equal). None is a setting: a user never sets one, except LEDGER_REPORTS_DIR to move a run's reports.

type Env = Record<string, string | undefined>;

export const RUN_CONTEXT = {
  /** The in-process sandbox's URL, from the global setup to the workers. */
  resolvedBaseUrl: 'LEDGER_RESOLVED_BASE_URL',
  /** Why the target gave no HTTP answer when the run started: every test then ends at set-up, inconclusive. */
  unreachable: 'LEDGER_RESOLVED_UNREACHABLE',
  /** What the participant's vetting listing lacks that the submitting rules need, as JSON (core/blocked.ts). */
  blocked: 'LEDGER_RESOLVED_BLOCKED',
  /** The identity settings the global setup asked the participant for, comma-separated. */
  discovered: 'LEDGER_RESOLVED_DISCOVERED',
  /** The timeout scale the global setup measured while LEDGER_TIMEOUT_SCALE is unset (validated by settings). */
  measuredTimeoutScale: 'LEDGER_MEASURED_TIMEOUT_SCALE',
  /** The file `npm run conformance` publishes its in-process sandbox in, for the global setup to wait for. */
  embeddedSandbox: 'LEDGER_EMBEDDED_SANDBOX',
  /** The selection the main process read from its command line (`--grep @tag`, `--grep VET-`), as JSON. */
  cliTagSelection: 'LEDGER_CLI_TAG_SELECTION',
  /** A shard's part, `i/n`, for scripts/shard/shard.config.ts. */
  shard: 'LEDGER_SHARD',
  /** The config a shard's config extends. */
  shardBaseConfig: 'LEDGER_SHARD_BASE_CONFIG',
  /** The shards' test folder in this checkout, for `playwright merge-reports`. */
  mergeTestDir: 'LEDGER_MERGE_TEST_DIR',
  /** Where a run writes its reports when a runner moves them (core/reports-dir.ts). */
  reportsDir: 'LEDGER_REPORTS_DIR',
} as const;

export type RunContextField = keyof typeof RUN_CONTEXT;
export type RunContext = { readonly [K in RunContextField]?: string };

/** Every variable of the run context: never a setting to give a rerun, never a secret or variable of a job. */
export const RUN_CONTEXT_VARIABLES: ReadonlySet<string> = new Set(Object.values(RUN_CONTEXT));

/** What this process was handed (a blank value is none). */
export function runContext(env: Env = process.env): RunContext {
  const out: Partial<Record<RunContextField, string>> = {};
  for (const [field, variable] of Object.entries(RUN_CONTEXT) as [RunContextField, string][]) {
    const value = env[variable]?.trim();
    if (value) out[field] = value;
  }
  return out;
}

/** Hands fields to the processes started after this call (undefined takes a field back). */
export function handOff(
  fields: Partial<Record<RunContextField, string | undefined>>,
  env: Env = process.env,
): void {
  for (const [field, value] of Object.entries(fields) as [RunContextField, string | undefined][]) {
    if (value === undefined) delete env[RUN_CONTEXT[field]];
    else env[RUN_CONTEXT[field]] = value;
  }
}

/** The run context as variables, for a child's environment: `{ ...process.env, ...childContext({ … }) }`. */
export function childContext(fields: Partial<Record<RunContextField, string>>): Record<string, string> {
  return Object.fromEntries(
    (Object.entries(fields) as [RunContextField, string | undefined][])
      .filter((e): e is [RunContextField, string] => e[1] !== undefined)
      .map(([field, value]) => [RUN_CONTEXT[field], value]),
  );
}
