// The nightly workflow's settings step (.github/workflows/nightly.yml, the shard and report jobs): a target's
// settings taken from its GitHub secrets and variables by the names the harness knows (core/setting-names.ts:
// .env.example's list) and written to $GITHUB_ENV for the job's later steps, so a setting added to the harness
// reaches the nightly with no edit to the workflow. A secret setting (core/secrets.ts) is taken only from a
// secret; any other from a variable, or from a secret (LEDGER_BASE_URL: a URL may carry credentials).
// Called from another repository, it also points LEDGER_CALLER_DIR at that repository's checkout, so the paths
// of its settings resolve against the caller's files first (core/settings.ts).
// Input: SECRETS_JSON (toJSON(secrets)), VARS_JSON (toJSON(vars)), HARNESS_REPOSITORY, CALLER_CHECKOUT and the
// runner's GITHUB_REPOSITORY, GITHUB_WORKSPACE, GITHUB_ENV. It prints names, never a value. A setting in the wrong
// place: one line naming it and the fix, exit 2.
import { randomUUID } from 'node:crypto';
import { appendFileSync, existsSync } from 'node:fs';
import { resolve } from 'node:path';
import { isSecretSetting } from '../../core/secrets';
import { isInternalSetting, knownSettings, type KnownSetting } from '../../core/setting-names';
import { EXIT } from '../../core/exit-codes';

export class NightlyEnvError extends Error {}

/** The settings the workflow sets itself, and why a variable or secret of that name may not replace them. */
export const SET_BY_THE_WORKFLOW: Readonly<Record<string, string>> = {
  LEDGER_RUN_ID: 'one id per night, shared by every shard of it',
  LEDGER_CALLER_DIR: 'the checkout of the repository that calls the workflow',
};

/** Why a known setting is not passed from secrets and variables, or undefined when it is. */
export function heldBack(s: KnownSetting): string | undefined {
  if (isInternalSetting(s)) return "the harness's own runners set it";
  return SET_BY_THE_WORKFLOW[s.name] && `the workflow sets it: ${SET_BY_THE_WORKFLOW[s.name]}`;
}

export interface NightlyEnv {
  /** What the job's later steps get. */
  env: Record<string, string>;
  fromSecrets: string[];
  fromVars: string[];
}

type Store = Record<string, unknown>;

/** GitHub's names of secrets and variables ignore case: the store's value for `name`, if set and not blank. */
function find(store: Store, name: string): string | undefined {
  const key = Object.keys(store).find((k) => k.toUpperCase() === name.toUpperCase());
  const v = key === undefined ? undefined : store[key];
  return typeof v === 'string' && v.trim() !== '' ? v : undefined;
}

/** The job's settings from the target's secrets and variables; `callerDir` the calling repository's checkout. */
export function nightlyEnv(
  secrets: Store,
  vars: Store,
  callerDir: string | undefined,
  known: readonly KnownSetting[] = knownSettings(),
): NightlyEnv {
  const out: NightlyEnv = { env: {}, fromSecrets: [], fromVars: [] };
  for (const s of known) {
    const secret = find(secrets, s.name);
    const variable = find(vars, s.name);
    if (secret === undefined && variable === undefined) continue;
    const why = heldBack(s);
    if (why !== undefined) {
      throw new NightlyEnvError(
        `${s.name} is set as a ${secret === undefined ? 'variable' : 'secret'}, but ${why}: remove it`,
      );
    }
    if (variable !== undefined && isSecretSetting(s.name)) {
      throw new NightlyEnvError(
        `${s.name} is set as a variable, and its value is a secret (variables show in logs): make it a secret of the environment instead`,
      );
    }
    if (variable !== undefined && secret !== undefined) {
      throw new NightlyEnvError(
        `${s.name} is set both as a secret and as a variable: keep one (a secret, if it may hold credentials)`,
      );
    }
    out.env[s.name] = (secret ?? variable)!;
    (secret === undefined ? out.fromVars : out.fromSecrets).push(s.name);
  }
  if (callerDir !== undefined) out.env.LEDGER_CALLER_DIR = callerDir;
  return out;
}

/** The checkout of the calling repository, when another repository calls the workflow. */
export function callerDir(env: NodeJS.ProcessEnv): string | undefined {
  const harness = env.HARNESS_REPOSITORY?.trim() ?? '';
  const caller = env.GITHUB_REPOSITORY?.trim() ?? '';
  // GitHub's `!=` in the checkout step's `if` ignores case, as repository names do.
  if (harness === '' || harness.toLowerCase() === caller.toLowerCase()) return undefined;
  const dir = resolve(env.GITHUB_WORKSPACE ?? '.', env.CALLER_CHECKOUT || '.caller');
  if (!existsSync(dir)) {
    throw new NightlyEnvError(
      `the checkout of ${caller} (the calling repository) is missing at ${dir}: the step "The calling repository's files" must run before this one`,
    );
  }
  return dir;
}

/** `NAME<<delimiter` blocks: a value may span lines (an inline PEM key). */
export function githubEnvText(env: Record<string, string>): string {
  return Object.entries(env)
    .map(([k, v]) => {
      const end = `ghadelimiter_${randomUUID()}`;
      return `${k}<<${end}\n${v}\n${end}\n`;
    })
    .join('');
}

function parse(text: string | undefined, what: string): Store {
  try {
    const v: unknown = JSON.parse(text?.trim() || '{}');
    if (typeof v === 'object' && v !== null && !Array.isArray(v)) return v as Store;
  } catch {
    // the line below says it
  }
  throw new NightlyEnvError(`${what} is not a JSON object: the step gives toJSON(secrets) and toJSON(vars)`);
}

if (require.main === module) {
  const env = process.env;
  let result: NightlyEnv;
  try {
    result = nightlyEnv(
      parse(env.SECRETS_JSON, 'SECRETS_JSON'),
      parse(env.VARS_JSON, 'VARS_JSON'),
      callerDir(env),
    );
  } catch (e) {
    if (!(e instanceof NightlyEnvError)) throw e;
    process.stderr.write(`nightly-env: ${e.message}\n`);
    process.exit(EXIT.badSetting);
  }
  if (env.GITHUB_ENV) appendFileSync(env.GITHUB_ENV, githubEnvText(result.env));
  const names = (list: string[]) => (list.length ? list.join(', ') : 'none');
  process.stdout.write(
    `nightly-env: from variables ${names(result.fromVars)}; from secrets ${names(result.fromSecrets)}` +
      (result.env.LEDGER_CALLER_DIR ? `; LEDGER_CALLER_DIR=${result.env.LEDGER_CALLER_DIR}` : '') +
      '\n',
  );
}
