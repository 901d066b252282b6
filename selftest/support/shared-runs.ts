// The child runs several self-tests only read, by name: each made once per `npm test` (once-across-workers.ts:
// the first process to ask makes it, the others wait for its outcome). In a run of the whole suite the global
// setup starts every one of them at once, in the background, so they are made beside the static checks and the
// fault run at the start, instead of in a test's beforeAll while the other worker waits for it.
//
// To share a run: add an entry to SHARED_RUNS (the function that makes it into its folder, handing `own` on to
// runNode so an unfinished run can be stopped) and read it with `sharedRun(name)`; never write in its folder.
import { onceAcrossWorkers } from './once-across-workers';
import { KINDS_RUN, runConformance, type RunOutcome } from './report-kit';

type Own = (kill: () => void) => void;

export const SHARED_RUNS = {
  /** KINDS_RUN: every verdict kind, read by the report agreement, the browser check, triage and sharding. */
  kinds: (dir: string, own?: Own): Promise<RunOutcome> =>
    runConformance(dir, KINDS_RUN.grep, KINDS_RUN.env, own),
} satisfies Record<string, (dir: string, own?: Own) => Promise<unknown>>;

export type SharedRunName = keyof typeof SHARED_RUNS;

/** The shared run `name`: its folder (read it, never write) and what its function returned. */
export async function sharedRun<K extends SharedRunName>(
  name: K,
  own?: Own,
): Promise<{ dir: string; value: Awaited<ReturnType<(typeof SHARED_RUNS)[K]>> }> {
  const make = SHARED_RUNS[name] as (
    dir: string,
    own?: Own,
  ) => Promise<Awaited<ReturnType<(typeof SHARED_RUNS)[K]>>>;
  return onceAcrossWorkers(`shared-${name}`, (dir) => make(dir, own));
}

/** The options a whole-suite run may carry; anything else (a file, --grep, --project…) selects a part. */
const WHOLE_RUN_OPTIONS = new Set(['-c', '--config', '--reporter', '-j', '--workers']);

/** Whether the runner's command line is the whole suite's: `test -c <config>`, reporters and workers aside. */
export function isWholeRun(argv: readonly string[]): boolean {
  const rest = argv.slice(argv.indexOf('test') + 1);
  for (let i = 0; i < rest.length; i++) {
    const [option, inline] = rest[i]!.split('=', 2);
    if (!WHOLE_RUN_OPTIONS.has(option!)) return false;
    if (inline === undefined) i++; // its value
  }
  return argv.includes('test');
}

/**
 * The global setup's part: in a whole-suite run, every shared run started now without waiting for it; the
 * function returned stops those still going (an interrupted run) and resolves once they have ended, before the
 * teardown removes their folders. A run of some files makes only what its tests ask for, when they ask.
 */
export function prefetchSharedRuns(argv: readonly string[] = process.argv): () => Promise<void> {
  if (!isWholeRun(argv)) return () => Promise.resolve();
  const kills: (() => void)[] = [];
  const pending = (Object.keys(SHARED_RUNS) as SharedRunName[]).map((name) =>
    // A failure reaches the tests that read the run (onceAcrossWorkers stores it for them).
    sharedRun(name, (kill) => kills.push(kill)).catch(() => undefined),
  );
  return async () => {
    for (const kill of kills) kill();
    await Promise.all(pending);
  };
}

/** The KINDS_RUN conformance run: `dir` is its reports folder. */
export async function kindsRun(): Promise<{ dir: string; run: RunOutcome }> {
  const { dir, value } = await sharedRun('kinds');
  return { dir, run: value };
}
