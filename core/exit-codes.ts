// The exit codes of every command of the project, one table: the scripts exit with these names, the selftests
// assert them, and README and docs/ci.md describe them (docs/ci.md "Exit codes"). CI tells the cases apart by
// code, so a code never changes meaning.
export const EXIT = {
  /** Every test passed (or failed only as Canton is known to); a script did its job. */
  ok: 0,
  /** A test did not pass, or the report could not be built. */
  failed: 1,
  /** A setting or an argument is wrong: one line names it and the fix. */
  badSetting: 2,
  /** The secret gate found a secret in the outputs: publish nothing (wins over every other code). */
  secretFound: 3,
  /** The target could not be reached, or was lost, and nothing else was found wrong. */
  targetDown: 4,
} as const;

export type ExitCode = (typeof EXIT)[keyof typeof EXIT];
