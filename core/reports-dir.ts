// Where a run writes its reports: reports/ in the project, or LEDGER_REPORTS_DIR when a runner moves them (the
// mutation runner and the shards give every child run its own folder; the self-tests theirs). Every writer and
// reader of a run's output — the config's reporters, the global setup, the report builder, the secret gate,
// the baselines — asks here, so a moved run leaves nothing in the project's reports/.
import { resolve } from 'node:path';
import { RUN_CONTEXT } from './run-context';

type Env = Record<string, string | undefined>;

export const REPORTS_DIR_ENV = RUN_CONTEXT.reportsDir;

/** The project's folder: a relative LEDGER_REPORTS_DIR is taken from here, as every runner starts here. */
export const PROJECT_ROOT = resolve(__dirname, '..');

/** The project's own reports folder, where a run writes when nothing moves it. */
export const DEFAULT_REPORTS_DIR = resolve(PROJECT_ROOT, 'reports');

/** Whether a runner moved this run's reports elsewhere. */
export const reportsMoved = (env: Env = process.env): boolean => (env[REPORTS_DIR_ENV]?.trim() ?? '') !== '';

/** The absolute folder this run's reports go to. */
export function reportsDir(env: Env = process.env): string {
  return reportsMoved(env) ? resolve(PROJECT_ROOT, env[REPORTS_DIR_ENV]!.trim()) : DEFAULT_REPORTS_DIR;
}
