// Every sandbox setting: read from the environment or a `--flag value`, validated up front. A bad value
// names the setting and the fix, so a misconfigured sandbox never starts half-working.
import { createHash } from 'node:crypto';

export type AuthMode = 'hs256' | 'jwks' | 'none';
export type SandboxMode = 'canton' | 'strict-interface';

export interface SandboxUser {
  id: string;
  actAs: string[];
  readAs: string[];
  /** Canton's ParticipantAdmin right: reads any user's rights and any party's connected synchronizers. */
  participantAdmin?: boolean;
}

export interface SandboxConfig {
  host: string;
  port: number;
  logLevel: string | undefined;
  /** canton: faithful to Canton 3.4/3.5, deviations from the document included; strict-interface: the document wins. */
  mode: SandboxMode;
  version: string;
  /** When true and the version is ≥ 3.5.0, the tree endpoint answers 404 (the document's announced removal). */
  removeTreeIn35: boolean;
  auth: AuthMode;
  hmacSecret: string;
  jwks: string | undefined;
  maxTokenLifetimeSeconds: number;
  participantId: string;
  users: SandboxUser[];
  synchronizerId: string;
  seed: number;
  synchronizers: number;
  participants: number;
  packages: number;
  maxVettedPackagesPageSize: number;
  tapsMaxPassesDefault: number;
  tapsMaxPassesLimit: number;
  maxDeduplicationSeconds: number;
  /** Memory bounds of the submit route (sandbox/ledger/README.md): active contracts kept; the oldest are forgotten beyond it. */
  maxContracts?: number;
  /** Deduplication entries kept; beyond it the oldest are forgotten and periods reaching behind them are rejected. */
  maxDedupEntries?: number;
  /** Vetting changes a second while the sandbox runs (sandbox/vetting/churn.ts); 0 = a quiet participant. */
  vettingChangesPerSecond: number;
  /** One vetting change after every n listing requests (0 = none): churn interleaved with walks, for fault runs. */
  vettingChangeEveryRequests: number;
  control: boolean;
  /** Start bound beyond loopback even while anyone could sign tokens (exposure.ts): the operator's choice. */
  allowInsecureHost: boolean;
  faults: string[];
  /**
   * The share of requests the faults' response rewrites and transport faults apply to (1: every request), drawn
   * per request from `faultsSeed`: a participant that really flips, for the history's intermittent rule.
   */
  faultsFraction?: number;
  faultsSeed?: number;
  /** A busy participant: a seeded fraction of requests answered with Canton's transient errors (./busy.ts). */
  busy: BusyConfig;
}

export interface BusyConfig {
  /** Of the requests to /v2/…, the share answered busy: 0 (quiet) to 1. */
  fraction: number;
  seed: number;
  /** Which of Canton's transient answers are given, chosen evenly. */
  answers: ('503' | '409')[];
  /** The `retryInfo` the answers carry; undefined: the category's own ("1 second"). */
  retryInfo: string | undefined;
}

/** The dev namespace: a real-looking Canton fingerprint (1220 + 64 lowercase hex), stable across runs. */
export const DEV_NAMESPACE = '1220' + createHash('sha256').update('ledger-conformance-sandbox').digest('hex');
export const devParty = (hint: string): string => `${hint}::${DEV_NAMESPACE}`;

export const DEV_DEFAULTS = {
  hmacSecret: 'sandbox-dev-secret',
  participantId: `participant1::${DEV_NAMESPACE}`,
  synchronizerId: `sandbox::${DEV_NAMESPACE}`,
  users: [
    { id: 'conformance', actAs: [devParty('Alice'), devParty('Bob')], readAs: [devParty('Charlie')] },
    // The same rights under another userId: another user's identical command is a new change (SUB-DEDUP-NEW-USER-ID).
    { id: 'conformance2', actAs: [devParty('Alice'), devParty('Bob')], readAs: [devParty('Charlie')] },
    { id: 'reader', actAs: [], readAs: [devParty('Alice')] },
    // ParticipantAdmin without parties, as a participant's operator user: reads anyone's rights.
    { id: 'admin', actAs: [], readAs: [], participantAdmin: true },
  ] satisfies SandboxUser[],
};

export class ConfigError extends Error {}

/** pino's levels: anything else would make the logger throw at start with a less helpful message. */
const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
/** The vetting topology holds synchronizers × participants entries in memory; 10⁶ is plenty for any test. */
export const MAX_TOPOLOGY_ENTRIES = 1_000_000;

type Source = Record<string, string | undefined>;

/** `--port 7575` / `--port=7575` → SANDBOX_PORT; flags win over the environment. */
export function flagsToEnv(argv: readonly string[]): Source {
  const out: Source = {};
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? '';
    if (!arg.startsWith('--'))
      throw new ConfigError(`unexpected argument "${arg}": flags look like --port 7575`);
    const [rawName, inline] = arg.slice(2).split(/=(.*)/s, 2);
    const name = (rawName ?? '').toUpperCase().replace(/-/g, '_');
    const key = name === 'LOG_LEVEL' ? name : `SANDBOX_${name}`;
    if (inline !== undefined) out[key] = inline;
    else {
      const next = argv[i + 1];
      if (next === undefined || next.startsWith('--')) out[key] = 'true';
      else {
        out[key] = next;
        i++;
      }
    }
  }
  return out;
}

function int(src: Source, key: string, def: number, min: number, max = Number.MAX_SAFE_INTEGER): number {
  const raw = src[key];
  if (raw === undefined || raw === '') return def;
  if (!/^-?\d+$/.test(raw) || Number(raw) < min || Number(raw) > max) {
    throw new ConfigError(`${key}="${raw}" is not valid: set it to an integer between ${min} and ${max}`);
  }
  return Number(raw);
}

/** A rate: a decimal number like 1 or 0.5. */
function rate(src: Source, key: string, max: number): number {
  const raw = src[key];
  if (raw === undefined || raw === '') return 0;
  if (!/^\d+(\.\d+)?$/.test(raw) || Number(raw) > max) {
    throw new ConfigError(
      `${key}="${raw}" is not valid: set it to a number of changes a second between 0 and ${max}, like 1 or 0.5`,
    );
  }
  return Number(raw);
}

/** A share from 0 to 1 (1 when unset). */
function share(src: Source, key: string): number {
  const raw = src[key];
  if (raw === undefined || raw === '') return 1;
  if (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw)) {
    throw new ConfigError(
      `${key}="${raw}" is not valid: set it to a share of requests from 0 to 1, like 0.5`,
    );
  }
  return Number(raw);
}

function oneOf<T extends string>(src: Source, key: string, allowed: readonly T[], def: T): T {
  const raw = src[key];
  if (raw === undefined || raw === '') return def;
  if (!(allowed as readonly string[]).includes(raw)) {
    throw new ConfigError(`${key}="${raw}" is not valid: set it to one of ${allowed.join(', ')}`);
  }
  return raw as T;
}

function bool(src: Source, key: string, def: boolean): boolean {
  const raw = src[key];
  if (raw === undefined || raw === '') return def;
  if (raw === 'true' || raw === '1') return true;
  if (raw === 'false' || raw === '0') return false;
  throw new ConfigError(`${key}="${raw}" is not valid: set it to true or false`);
}

const SEMVER =
  /^(0|[1-9]\d*)\.(0|[1-9]\d*)\.(0|[1-9]\d*)(?:-((?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*)(?:\.(?:0|[1-9]\d*|\d*[a-zA-Z-][0-9a-zA-Z-]*))*))?(?:\+([0-9a-zA-Z-]+(?:\.[0-9a-zA-Z-]+)*))?$/;
const CANTON_UID = /^[A-Za-z0-9:_ -]{1,185}::[A-Za-z0-9_ -]{1,68}$/;

function users(src: Source): SandboxUser[] {
  const raw = src.SANDBOX_USERS;
  if (raw === undefined || raw === '') return DEV_DEFAULTS.users;
  const fix =
    'set it to a JSON array like [{"id":"alice","actAs":["Alice::1220…"],"readAs":[],"participantAdmin":false}]';
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    throw new ConfigError(`SANDBOX_USERS is not valid JSON: ${fix}`);
  }
  if (!Array.isArray(parsed)) throw new ConfigError(`SANDBOX_USERS is not an array: ${fix}`);
  return parsed.map((u: unknown, i) => {
    const o = u as Partial<SandboxUser>;
    const strings = (v: unknown): v is string[] => Array.isArray(v) && v.every((s) => typeof s === 'string');
    if (
      typeof o?.id !== 'string' ||
      !strings(o.actAs ?? []) ||
      !strings(o.readAs ?? []) ||
      !['boolean', 'undefined'].includes(typeof o.participantAdmin)
    ) {
      throw new ConfigError(`SANDBOX_USERS[${i}] is not valid: ${fix}`);
    }
    return {
      id: o.id,
      actAs: o.actAs ?? [],
      readAs: o.readAs ?? [],
      ...(o.participantAdmin ? { participantAdmin: true } : {}),
    };
  });
}

function uid(src: Source, key: string, def: string): string {
  const raw = src[key];
  if (raw === undefined || raw === '') return def;
  if (!CANTON_UID.test(raw))
    throw new ConfigError(`${key}="${raw}" is not valid: set it to a Canton id <name>::<namespace>`);
  return raw;
}

/** The TAPS pass settings: the limit at least the default, as Canton's config validation requires. */
function tapsPasses(src: Source): { tapsMaxPassesDefault: number; tapsMaxPassesLimit: number } {
  const tapsMaxPassesDefault = int(src, 'SANDBOX_TAPS_MAX_PASSES_DEFAULT', 3, 1, 1000);
  const tapsMaxPassesLimit = int(src, 'SANDBOX_TAPS_MAX_PASSES_LIMIT', 4, 1, 1000);
  if (tapsMaxPassesLimit < tapsMaxPassesDefault) {
    throw new ConfigError(
      'SANDBOX_TAPS_MAX_PASSES_LIMIT is below SANDBOX_TAPS_MAX_PASSES_DEFAULT: raise the limit',
    );
  }
  return { tapsMaxPassesDefault, tapsMaxPassesLimit };
}

/** The vetting topology's size: synchronizers × participants, bounded. */
function topology(src: Source): { synchronizers: number; participants: number } {
  const synchronizers = int(src, 'SANDBOX_SYNCHRONIZERS', 2, 1, 1000);
  const participants = int(src, 'SANDBOX_PARTICIPANTS', 3, 1, 100_000);
  if (synchronizers * participants > MAX_TOPOLOGY_ENTRIES) {
    throw new ConfigError(
      `SANDBOX_SYNCHRONIZERS × SANDBOX_PARTICIPANTS = ${synchronizers * participants} is too large: keep the product at most ${MAX_TOPOLOGY_ENTRIES}`,
    );
  }
  return { synchronizers, participants };
}

export function loadConfig(env: Source = process.env, argv: readonly string[] = []): SandboxConfig {
  const src = { ...env, ...flagsToEnv(argv) };
  const version = src.SANDBOX_VERSION || '3.4.11';
  if (!SEMVER.test(version))
    throw new ConfigError(`SANDBOX_VERSION="${version}" is not valid: set it to a SemVer like 3.4.11`);
  const auth = oneOf<AuthMode>(src, 'SANDBOX_AUTH', ['hs256', 'jwks', 'none'], 'hs256');
  const jwks = src.SANDBOX_JWKS || undefined;
  if (auth === 'jwks' && !jwks) {
    throw new ConfigError(
      'SANDBOX_JWKS is missing: with SANDBOX_AUTH=jwks set it to a JWKS file path or URL',
    );
  }
  const hmacSecret = src.SANDBOX_HMAC_SECRET || DEV_DEFAULTS.hmacSecret;
  const { tapsMaxPassesDefault, tapsMaxPassesLimit } = tapsPasses(src);
  const { synchronizers, participants } = topology(src);
  const faults = (src.SANDBOX_FAULTS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const faultsFraction = share(src, 'SANDBOX_FAULTS_FRACTION');
  return {
    faultsFraction,
    faultsSeed: int(src, 'SANDBOX_FAULTS_SEED', 1, 0, 2 ** 32 - 1),
    host: src.SANDBOX_HOST || '127.0.0.1',
    port: int(src, 'SANDBOX_PORT', 7575, 0, 65535),
    logLevel: src.LOG_LEVEL ? oneOf(src, 'LOG_LEVEL', LOG_LEVELS, 'info') : undefined,
    mode: oneOf<SandboxMode>(src, 'SANDBOX_MODE', ['canton', 'strict-interface'], 'canton'),
    version,
    removeTreeIn35: bool(src, 'SANDBOX_REMOVE_TREE_IN_35', false),
    auth,
    hmacSecret,
    jwks,
    maxTokenLifetimeSeconds: int(src, 'SANDBOX_MAX_TOKEN_LIFETIME_SECONDS', 300, 1),
    participantId: uid(src, 'SANDBOX_PARTICIPANT_ID', DEV_DEFAULTS.participantId),
    users: users(src),
    synchronizerId: uid(src, 'SANDBOX_SYNCHRONIZER_ID', DEV_DEFAULTS.synchronizerId),
    seed: int(src, 'SANDBOX_SEED', 42, 0),
    synchronizers,
    participants,
    packages: int(src, 'SANDBOX_PACKAGES', 5, 1, 10_000),
    maxVettedPackagesPageSize: int(src, 'SANDBOX_MAX_VETTED_PAGE_SIZE', 100, 1, 1_000_000),
    tapsMaxPassesDefault,
    tapsMaxPassesLimit,
    maxDeduplicationSeconds: int(src, 'SANDBOX_MAX_DEDUP_SECONDS', 7 * 24 * 3600, 1),
    maxContracts: int(src, 'SANDBOX_MAX_CONTRACTS', 100_000, 1, 100_000_000),
    maxDedupEntries: int(src, 'SANDBOX_MAX_DEDUP_ENTRIES', 250_000, 1, 100_000_000),
    vettingChangesPerSecond: rate(src, 'SANDBOX_VETTING_CHANGES_PER_SECOND', 1000),
    vettingChangeEveryRequests: int(src, 'SANDBOX_VETTING_CHANGE_EVERY_REQUESTS', 0, 0, 1_000_000),
    control: bool(src, 'SANDBOX_CONTROL', false),
    allowInsecureHost: bool(src, 'SANDBOX_ALLOW_INSECURE_HOST', false),
    faults,
    busy: busyConfig(src),
  };
}

/** SANDBOX_BUSY, SANDBOX_BUSY_SEED, SANDBOX_BUSY_ANSWERS, SANDBOX_BUSY_RETRY_INFO. */
function busyConfig(src: Source): BusyConfig {
  const raw = src.SANDBOX_BUSY ?? '';
  if (raw !== '' && (!/^(0(\.\d+)?|1(\.0+)?)$/.test(raw) || Number(raw) > 1))
    throw new ConfigError(
      `SANDBOX_BUSY="${raw}" is not valid: set it to the share of requests answered busy, between 0 and 1, like 0.05`,
    );
  const answers = (src.SANDBOX_BUSY_ANSWERS || '503,409').split(',').map((a) => a.trim());
  if (answers.some((a) => a !== '503' && a !== '409'))
    throw new ConfigError(
      `SANDBOX_BUSY_ANSWERS="${src.SANDBOX_BUSY_ANSWERS}" is not valid: set it to 503, 409 or 503,409`,
    );
  const retryInfo = src.SANDBOX_BUSY_RETRY_INFO || undefined;
  if (retryInfo !== undefined && !/^\d+ (millisecond|second)s?$/.test(retryInfo))
    throw new ConfigError(
      `SANDBOX_BUSY_RETRY_INFO="${retryInfo}" is not valid: set it to a duration as Canton prints one, like "1 second" or "100 milliseconds"`,
    );
  return {
    fraction: raw === '' ? 0 : Number(raw),
    seed: int(src, 'SANDBOX_BUSY_SEED', 1, 0),
    answers: answers as BusyConfig['answers'],
    retryInfo,
  };
}
