// What a run against a real participant finds out before a single command is submitted (issue #12): the
// identity settings left unset, asked for (core/discovery.ts), and the checks that would otherwise fail
// the whole suite one test at a time — the token accepted, the user's rights covering the parties, the command
// template's package vetted on the synchronizer — and the rules that will skip there and why. Shared by
// `npm run preflight` (scripts/preflight.ts) and the global setup of every conformance run. Every failure is
// ONE line naming what to set; no header or token is ever in it (all requests go through core/http.ts).
import { capabilitiesOf } from '../core/target-info';
import {
  discover,
  DiscoveryError,
  packageRefsOf,
  PARTICIPANT_ID_PATH,
  participantIdOf,
  partiesFromRights,
  synchronizersVetting,
  vettedEntries,
  type Discovered,
  type Fetcher,
  type KnownIdentity,
} from '../core/discovery';
import { REQUEST_TIMEOUT_MS, Transport, TransportFailure, type HttpResponse } from '../core/http';
import { PATHS, UNAVAILABLE_STATUSES } from '../core/ledger-client';
import { CommandFactory, RunIds, seededFaker, seedOf } from '../core/command-factory';
import { unreachableOf, type Unreachable } from '../core/reachability';
import { redact } from '../core/redact';
import { displayUrl, loadSettings, type DiscoverableSetting, type Settings } from '../core/settings';
import { TokenSourceError, tokenExpiry, tokenProviderFor } from '../core/token-providers';
import { skipsForecast, type Skip } from '../core/rule-needs';
import type { AnswerTimes } from './run-pace';

/** A check that failed: its one line, and the exit code (2 a setting to give or fix, 4 the target is gone). */
export class PreflightError extends Error {
  override name = 'PreflightError';
  constructor(
    message: string,
    readonly exitCode: 2 | 4,
  ) {
    super(message);
  }
}

/** The package of Canton's built-in Ping (core/templates/canton-ping.json). */
const PING_PACKAGE = 'canton-builtin-admin-workflow-ping';

type Env = Record<string, string | undefined>;
type Json = unknown;

/** Requests over the harness's transport with the settings' token; notes whether the target stopped answering. */
class Client {
  lost = false;
  refused: PreflightError | undefined;
  private readonly transport: Transport;

  constructor(
    private readonly baseUrl: string,
    timeoutScale: number,
  ) {
    this.transport = new Transport(REQUEST_TIMEOUT_MS * timeoutScale);
  }

  /**
   * `refusal`: a 401 is the participant refusing the token itself (Canton answers 401 only for an invalid or
   * missing token), whatever was asked: stop there with the line naming the credentials to set.
   */
  fetcher(s: Settings, refusal = true): Fetcher {
    const provider = tokenProviderFor(s);
    return async ({ method, path, body }) => {
      const res = await this.send(method, path, await provider.token(), body);
      if (refusal && res.status === 401) {
        // Kept as well as thrown: discovery wraps a fetcher's error in its own, which names another setting.
        this.refused ??= new PreflightError(
          `the participant refused the harness's token (${method} ${path.split('?')[0]} answered 401): ${tokenFix(s)}`,
          2,
        );
        throw this.refused;
      }
      return { status: res.status, body: parse(res.text) };
    };
  }

  async send(method: string, path: string, token: string | undefined, body?: Json): Promise<HttpResponse> {
    try {
      return await this.transport.send({
        method,
        url: `${this.baseUrl}${path}`,
        headers: {
          ...(token ? { authorization: `Bearer ${token}` } : {}),
          ...(body === undefined ? {} : { 'content-type': 'application/json' }),
        },
        body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
      });
    } catch (e) {
      if (e instanceof TransportFailure) this.lost = true;
      throw e;
    }
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

function parse(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

export interface VersionRead {
  document: unknown;
  status?: number;
  problem?: string;
  /** The target gave no HTTP answer at all: why, and what to check. */
  unreachable?: Unreachable;
  /** What showed that the base URL serves no JSON Ledger API v2 at all (see notLedgerApi). */
  notLedgerApi?: string;
}

/**
 * Why an answer to GET /v2/version cannot come from a JSON Ledger API v2, if it cannot. Canton serves that route
 * at any auth setting — 200 with JSON, or a JSON error — so a 404, a redirect or an HTML page there means the
 * base URL points somewhere else: a path prefix left out (an ingress's /api/json), a login gateway, a web
 * page, another port. Anything else, a 500 or a malformed version included, is the target's to be judged by the
 * VER- and GEN- rules, so it does not stop the run (502, 503 and 504: the target is down, see readVersion).
 */
export function notLedgerApi(res: HttpResponse, url: string): string | undefined {
  // Not for an HTML 401/403 (a gateway refusing the token) or 5xx (a proxy whose participant is down): those may
  // stand in front of the right URL. Any other, a 400 included (nginx's 'plain HTTP request sent to HTTPS port'),
  // cannot be Canton's: it answers GET /v2/version, which takes no input, with JSON.
  const html =
    res.status < 500 &&
    res.status !== 401 &&
    res.status !== 403 &&
    /^\s*<(?:!doctype|html|head|body)\b/i.test(res.text)
      ? ' with an HTML page'
      : '';
  if (res.status >= 300 && res.status < 400) {
    // Its origin and path only: a login redirect's query may carry state, its URL credentials, not ours to print.
    let to: string | undefined;
    try {
      const where = new URL(res.headers.location ?? '', url);
      if (res.headers.location) to = `${where.origin}${where.pathname}`;
    } catch {
      // not a URL: the status alone
    }
    return `answered ${res.status}${to ? `, a redirect to ${to}` : ''}`;
  }
  if (res.status === 404 || html) return `answered ${res.status}${html}`;
  return undefined;
}

/** GET /v2/version with the settings' token, once. */
export async function readVersion(baseUrl: string, s: Settings): Promise<VersionRead> {
  const token = await tokenProviderFor(s).token();
  const client = new Client(baseUrl, s.timeoutScale);
  let res: HttpResponse;
  try {
    res = await client.send('GET', '/v2/version', token);
  } catch (e) {
    const unreachable = unreachableOf(e, `${baseUrl}/v2/version`);
    return { document: undefined, problem: unreachable.cause, unreachable };
  } finally {
    await client.close();
  }
  // Not an answer about the API: Canton's own for UNAVAILABLE / DEADLINE_EXCEEDED (503 while it starts), or a
  // proxy's whose participant is down. Every call would get the same, so the run stops as for a target that
  // does not answer (exit 4, every rule inconclusive), not on the identity calls that would fail next.
  if (UNAVAILABLE_STATUSES.has(res.status)) {
    const cause = `GET /v2/version answered ${res.status}, a participant down or not ready (or a proxy in front of one)`;
    return {
      document: undefined,
      status: res.status,
      problem: `HTTP ${res.status}`,
      unreachable: {
        cause,
        check:
          'check that the participant behind LEDGER_BASE_URL is running and its JSON Ledger API has started',
      },
    };
  }
  const notApi = notLedgerApi(res, `${baseUrl}/v2/version`);
  if (notApi)
    return { document: undefined, status: res.status, problem: `HTTP ${res.status}`, notLedgerApi: notApi };
  if (res.status !== 200) return { document: undefined, status: res.status, problem: `HTTP ${res.status}` };
  try {
    return { document: JSON.parse(res.text), status: 200 };
  } catch (e) {
    return { document: undefined, status: 200, problem: redact(e instanceof Error ? e.message : String(e)) };
  }
}

/** What to set when the participant refuses the harness's token, per way of getting one. */
function tokenFix(s: Settings): string {
  switch (s.auth.kind) {
    case 'none':
      return 'the participant requires authentication: set LEDGER_AUTH and its credentials';
    case 'static':
      return 'set LEDGER_TOKEN to a current access token for this participant';
    case 'hs256':
      return "set LEDGER_HMAC_SECRET to the participant's unsafe-jwt-hmac-256 secret";
    case 'rs256':
    case 'es256':
      return 'set LEDGER_JWT_PRIVATE_KEY to a key whose public half the participant trusts (and LEDGER_JWT_KID / LEDGER_JWT_ISSUER if it needs them)';
    case 'oauth2':
      return 'check LEDGER_OAUTH_CLIENT_ID / LEDGER_OAUTH_CLIENT_SECRET and LEDGER_OAUTH_AUDIENCE / LEDGER_OAUTH_SCOPE';
  }
}

/** One identity value as the run-information block and reports/target.json show it. */
export interface IdentityValue {
  setting: DiscoverableSetting;
  value: string;
  source: string;
}

export interface Resolution {
  /** The settings with every discovered value in. */
  settings: Settings;
  /** The discovered values as the variables the workers read (handed over through process.env). */
  env: Record<string, string>;
  identity: IdentityValue[];
}

const isMinting = (s: Settings): boolean =>
  s.auth.kind === 'hs256' || s.auth.kind === 'rs256' || s.auth.kind === 'es256';

const blank = (env: Env, key: string): boolean => (env[key]?.trim() ?? '') === '';

/** Every identity value of `s` with where it came from: the setting, or the development default. */
function given(s: Settings, unset: ReadonlySet<string>): IdentityValue[] {
  const src = (key: DiscoverableSetting) => (unset.has(key) ? 'development default' : key);
  return [
    { setting: 'LEDGER_PARTICIPANT_ID', value: s.participantId, source: src('LEDGER_PARTICIPANT_ID') },
    { setting: 'LEDGER_USER', value: s.user, source: src('LEDGER_USER') },
    { setting: 'LEDGER_ACT_AS', value: s.actAs.join(','), source: src('LEDGER_ACT_AS') },
    { setting: 'LEDGER_READ_AS', value: s.readAs.join(',') || 'none', source: src('LEDGER_READ_AS') },
    {
      setting: 'LEDGER_UNAUTHORIZED_PARTY',
      value: s.unauthorizedParty,
      source: src('LEDGER_UNAUTHORIZED_PARTY'),
    },
    {
      setting: 'LEDGER_SYNCHRONIZER_ID',
      value: s.synchronizerId ?? 'none',
      source: src('LEDGER_SYNCHRONIZER_ID'),
    },
    {
      setting: 'LEDGER_COMMAND_TEMPLATE',
      value: templateName(s),
      source: src('LEDGER_COMMAND_TEMPLATE'),
    },
  ];
}

function templateName(s: Settings): string {
  const m = /core\/templates\/([^/]+)\.json$/.exec(s.commandTemplate.path.replace(/\\/g, '/'));
  return m?.[1] ?? s.commandTemplate.path;
}

/**
 * The identity values of a run: as given, and for a real participant the unset ones asked for. Explicit
 * settings always win. Throws PreflightError (exit 2, or 4 when the target stopped answering).
 */
export async function resolveIdentity(
  s: Settings,
  baseUrl: string,
  env: Env = process.env,
): Promise<Resolution> {
  const unset = new Set<string>(s.discoverable);
  if (unset.size === 0) return { settings: s, env: {}, identity: given(s, unset) };
  const client = new Client(baseUrl, s.timeoutScale);
  try {
    return await resolveWith(client, s, unset, env);
  } catch (e) {
    if (client.refused) throw client.refused;
    if (e instanceof PreflightError) throw e;
    if (e instanceof DiscoveryError) throw new PreflightError(e.message, client.lost ? 4 : 2);
    if (e instanceof TransportFailure)
      throw new PreflightError(`the target stopped answering during discovery: ${e.message}`, 4);
    throw e;
  } finally {
    await client.close();
  }
}

async function resolveWith(
  client: Client,
  s: Settings,
  unset: ReadonlySet<string>,
  env: Env,
): Promise<Resolution> {
  const out: Record<string, string> = {};
  const sources = new Map<DiscoverableSetting, string>();
  const reload = () => loadSettings({ ...env, ...out });
  let current = s;

  // Minted audience tokens name the participant, which is what we do not know yet: ask for it with a
  // scope-form token first (Canton accepts both forms unless target-audience / target-scope is configured).
  let participant: Discovered<string> | undefined;
  const ask = async (via: Settings, how: string): Promise<Discovered<string>> => {
    const res = await client.fetcher(via, false)({ method: 'GET', path: PARTICIPANT_ID_PATH });
    if (res.status === 401 || res.status === 403) {
      throw new PreflightError(
        how === 'scope'
          ? `the participant refused a scope-form token on GET ${PARTICIPANT_ID_PATH} (${res.status}): if it takes only the audience form, set LEDGER_PARTICIPANT_ID (or LEDGER_AUDIENCE); if it trusts no token of this key, ${tokenFix(s)}`
          : `the participant refused the token on GET ${PARTICIPANT_ID_PATH} (${res.status}): ${tokenFix(s)}`,
        2,
      );
    }
    const id = res.status === 200 ? participantIdOf(res.body) : undefined;
    if (id === undefined)
      throw new PreflightError(
        `GET ${PARTICIPANT_ID_PATH} answered ${res.status} without a participant id: set LEDGER_PARTICIPANT_ID`,
        2,
      );
    const form = how === 'scope' ? ', with a scope-form token' : '';
    return { value: id, source: `discovered via GET ${PARTICIPANT_ID_PATH}${form}` };
  };
  if (unset.has('LEDGER_PARTICIPANT_ID')) {
    const bootstrap = isMinting(s) && s.token.form === 'audience' && blank(env, 'LEDGER_AUDIENCE');
    participant = bootstrap
      ? await ask(loadSettings({ ...env, LEDGER_TOKEN_FORM: 'scope' }), 'scope')
      : await ask(s, 'token');
    out.LEDGER_PARTICIPANT_ID = participant.value;
    sources.set('LEDGER_PARTICIPANT_ID', participant.source);
    current = reload();
  }
  const fetcher = client.fetcher(current);

  // No template setting against a real participant: Canton's built-in Ping when its package is vetted there
  // (every participant loads it unless parameters.admin-workflow.auto-load-dar = false), else the default.
  let pingAbsent = false;
  if (unset.has('LEDGER_COMMAND_TEMPLATE')) {
    const entries = await vettedEntries(
      fetcher,
      current.participantId,
      [PING_PACKAGE],
      'LEDGER_COMMAND_TEMPLATE',
    );
    const on = synchronizersVetting(entries, current.participantId, { names: [PING_PACKAGE], ids: [] });
    const usable = unset.has('LEDGER_SYNCHRONIZER_ID')
      ? on.length > 0
      : current.synchronizerId === undefined || on.includes(current.synchronizerId);
    if (usable) {
      out.LEDGER_COMMAND_TEMPLATE = 'canton-ping';
      sources.set(
        'LEDGER_COMMAND_TEMPLATE',
        `picked: ${PING_PACKAGE} is vetted, discovered via POST /v2/package-vetting/list`,
      );
      current = reload();
    } else {
      pingAbsent = true;
      sources.set(
        'LEDGER_COMMAND_TEMPLATE',
        `default: ${PING_PACKAGE} is not vetted here (auto-load-dar off?)`,
      );
    }
  }

  const known: KnownIdentity = {};
  if (!unset.has('LEDGER_USER') || isMinting(s)) known.user = current.user;
  if (!unset.has('LEDGER_ACT_AS')) known.actAs = current.actAs;
  if (!unset.has('LEDGER_READ_AS')) known.readAs = current.readAs;
  known.participantId = current.participantId;
  if (!unset.has('LEDGER_SYNCHRONIZER_ID')) known.synchronizerId = current.synchronizerId ?? null;
  if (!unset.has('LEDGER_UNAUTHORIZED_PARTY')) known.unauthorizedParty = current.unauthorizedParty;
  let found;
  try {
    found = await discover(
      {
        token: await tokenProviderFor(current).token(),
        commandTemplate: current.commandTemplate,
        known,
      },
      fetcher,
    );
  } catch (e) {
    // The default template's package is the sandbox's: say why Ping was not taken instead.
    if (e instanceof DiscoveryError && e.setting === 'LEDGER_SYNCHRONIZER_ID' && pingAbsent)
      throw new DiscoveryError(
        e.setting,
        `${e.message}; canton-ping cannot stand in: ${PING_PACKAGE} is not vetted here (parameters.admin-workflow.auto-load-dar = false?)`,
      );
    throw e;
  }
  const put = (key: DiscoverableSetting, value: string, source: string) => {
    if (!unset.has(key)) return;
    out[key] = value;
    sources.set(key, source);
  };
  put(
    'LEDGER_USER',
    found.user.value,
    unset.has('LEDGER_USER') && isMinting(s)
      ? 'development default (the user minted tokens name; set LEDGER_USER)'
      : found.user.source,
  );
  put('LEDGER_ACT_AS', found.actAs.value.join(','), found.actAs.source);
  put('LEDGER_READ_AS', found.readAs.value.join(',') || 'none', found.readAs.source);
  put('LEDGER_SYNCHRONIZER_ID', found.synchronizerId.value ?? 'none', found.synchronizerId.source);
  put('LEDGER_UNAUTHORIZED_PARTY', found.unauthorizedParty.value, found.unauthorizedParty.source);
  // A minted token's user is fixed by the settings, not discovered: nothing to hand over.
  if (isMinting(s)) delete out.LEDGER_USER;
  const settings = reload();
  const identity = given(settings, new Set()).map((v) => ({
    ...v,
    source: sources.get(v.setting) ?? v.source,
  }));
  return { settings, env: out, identity };
}

/** The participant refused the run's own token: one line, what to set per way of getting tokens. */
function tokenRefused(s: Settings, status: number): never {
  throw new PreflightError(
    `the participant refused the harness's token (GET /v2/version answered ${status}${status === 403 ? ': an unknown user or another participant' : ''}): ${status === 403 ? `set LEDGER_USER to a user of this participant, or LEDGER_PARTICIPANT_ID / LEDGER_AUDIENCE; or ${tokenFix(s)}` : tokenFix(s)}`,
    2,
  );
}

/**
 * The checks before any command: the token accepted, the user's rights covering the parties, the template's
 * package vetted on the synchronizer. Throws PreflightError with the one line to print.
 */
export async function checkTarget(s: Settings, baseUrl: string, version: VersionRead): Promise<void> {
  if (version.status === 401 || version.status === 403) tokenRefused(s, version.status);
  const client = new Client(baseUrl, s.timeoutScale);
  try {
    const fetcher = client.fetcher(s);
    if (s.auth.kind !== 'none') await checkRights(fetcher, s);
    await checkVetted(fetcher, s);
  } catch (e) {
    if (client.refused) throw client.refused;
    if (e instanceof PreflightError) throw e;
    if (e instanceof DiscoveryError) throw new PreflightError(e.message, client.lost ? 4 : 2);
    if (e instanceof TransportFailure)
      throw new PreflightError(`the target stopped answering during the preflight: ${e.message}`, 4);
    throw e;
  } finally {
    await client.close();
  }
}

async function checkRights(fetcher: Fetcher, s: Settings): Promise<void> {
  const path = `/v2/users/${encodeURIComponent(s.user)}/rights`;
  const res = await fetcher({ method: 'GET', path });
  if (res.status === 403 || res.status === 404)
    throw new PreflightError(
      `GET ${path} answered ${res.status}: the token's user is not ${s.user} (or it is unknown here): set LEDGER_USER to the token's user`,
      2,
    );
  if (res.status !== 200)
    throw new PreflightError(`GET ${path} answered ${res.status}: set LEDGER_ACT_AS and LEDGER_READ_AS`, 2);
  const rights = partiesFromRights(res.body);
  const fix = `grant it, or set LEDGER_ACT_AS (it acts as ${rights.actAs.join(',') || 'no party'})`;
  const noAct = s.actAs.find((p) => !rights.actAs.includes(p));
  if (s.actAs.length === 0 || rights.actAs.length === 0)
    throw new PreflightError(
      `user ${s.user} has no CanActAs right (GET ${path}): grant one, or set LEDGER_USER to a user that has`,
      2,
    );
  if (noAct !== undefined)
    throw new PreflightError(`user ${s.user} may not act as ${noAct} (GET ${path}): ${fix}`, 2);
  const readable = [...rights.actAs, ...rights.readAs];
  const noRead = s.readAs.find((p) => !readable.includes(p));
  if (noRead !== undefined)
    throw new PreflightError(
      `user ${s.user} may not read as ${noRead} (GET ${path}): grant it, or set LEDGER_READ_AS (it reads as ${rights.readAs.join(',') || 'none'}; none is allowed)`,
      2,
    );
  if (readable.includes(s.unauthorizedParty))
    throw new PreflightError(
      `user ${s.user} has a right for LEDGER_UNAUTHORIZED_PARTY=${s.unauthorizedParty} (GET ${path}): set it to a party the user has no right for, or leave it unset`,
      2,
    );
}

async function checkVetted(fetcher: Fetcher, s: Settings): Promise<void> {
  const refs = packageRefsOf(s.commandTemplate.document);
  if (refs.names.length + refs.ids.length === 0) return;
  const ok = (on: string[]) =>
    s.synchronizerId === undefined ? on.length > 0 : on.includes(s.synchronizerId);
  // Page by page, stopping at the first page that shows the package vetted there: on a participant with many
  // synchronizers the preflight must not walk the whole topology (Canton pages entries, then filters).
  let pageToken = '';
  for (let page = 0; page < 100; page++) {
    const res = await fetcher({
      method: 'POST',
      path: '/v2/package-vetting/list',
      body: {
        ...(refs.names.length > 0 ? { packageMetadataFilter: { packageNamePrefixes: refs.names } } : {}),
        topologyStateFilter: {
          participantIds: [s.participantId],
          ...(s.synchronizerId === undefined ? {} : { synchronizerIds: [s.synchronizerId] }),
        },
        pageToken,
      },
    });
    if (res.status !== 200)
      throw new PreflightError(
        `POST /v2/package-vetting/list answered ${res.status}: the template's package cannot be checked; set LEDGER_COMMAND_TEMPLATE and LEDGER_SYNCHRONIZER_ID to ones you know are vetted`,
        2,
      );
    const body = res.body as {
      vettedPackages?: Parameters<typeof synchronizersVetting>[0];
      nextPageToken?: string;
    };
    if (ok(synchronizersVetting(body?.vettedPackages ?? [], s.participantId, refs))) return;
    pageToken = body?.nextPageToken ?? '';
    if (pageToken === '') break;
  }
  const where = s.synchronizerId === undefined ? 'any synchronizer' : s.synchronizerId;
  throw new PreflightError(
    `the command template's package ${[...refs.names, ...refs.ids].join(', ')} is not vetted by ${s.participantId} on ${where} (POST /v2/package-vetting/list): set LEDGER_COMMAND_TEMPLATE to a template of a vetted package (canton-ping: Canton's built-in Ping), or LEDGER_SYNCHRONIZER_ID`,
    2,
  );
}

export interface Preflight {
  version: VersionRead;
  /** undefined when the target gave no answer (nothing could be asked). */
  resolution: Resolution | undefined;
}

/**
 * The whole preflight against a real participant: the version read, the identity resolved, the checks. An
 * unreachable target is returned, not thrown: the conformance run keeps its own handling of it (every rule
 * inconclusive, exit 4). Throws PreflightError on anything else that would fail the run as a whole.
 */
export async function preflight(s: Settings, baseUrl: string, env: Env = process.env): Promise<Preflight> {
  try {
    return await preflightSteps(s, baseUrl, env);
  } catch (e) {
    // The token source (an OAuth2 IdP) failed: its one line, as any other check's.
    if (e instanceof TokenSourceError) throw new PreflightError(e.message, e.targetDown ? 4 : 2);
    throw e;
  }
}

/**
 * When a static LEDGER_TOKEN runs out, for the run-information block: a request refused after that is
 * inconclusive (core/ledger-client.ts), so a QA engineer should see before the run whether it will last.
 */
export function staticTokenLife(s: Settings, nowMs = Date.now()): string | undefined {
  const exp = s.auth.kind === 'static' ? tokenExpiry(s.auth.token) : undefined;
  if (exp === undefined) return undefined;
  const left = Math.round((exp * 1000 - nowMs) / 60_000);
  return `the token expires at ${new Date(exp * 1000).toISOString()} (${left >= 1 ? `in ${left} min` : 'in under a minute'})`;
}

async function preflightSteps(s: Settings, baseUrl: string, env: Env): Promise<Preflight> {
  // A static token past its exp would be refused as any wrong token; saying it expired saves the search.
  const exp = s.auth.kind === 'static' ? tokenExpiry(s.auth.token) : undefined;
  if (exp !== undefined && exp * 1000 <= Date.now())
    throw new PreflightError(
      `LEDGER_TOKEN expired at ${new Date(exp * 1000).toISOString()} (its exp): set it to a current access token for this participant`,
      2,
    );
  let version = await readVersion(baseUrl, s);
  // A proxy that wants credentials is a setting to fix (exit 2), not a participant that is down.
  if (version.unreachable?.proxyStatus === 407)
    throw new PreflightError(
      `${version.unreachable.cause}: put the proxy's credentials in its URL (http://user:password@host:port, percent-encoded)`,
      2,
    );
  if (version.unreachable) return { version, resolution: undefined };
  // First: every later call would fail too, each naming a setting that is not the cause.
  if (version.notLedgerApi)
    throw new PreflightError(
      `LEDGER_BASE_URL=${displayUrl(baseUrl)} serves no Canton JSON Ledger API v2 (GET /v2/version ${version.notLedgerApi}): set it to the JSON API's address, with its port (7575 by default, not the gRPC port) and any path prefix in front of /v2, e.g. https://participant.example.com/api/json`,
      2,
    );
  // The token of the first read is the run's, unless it is minted for a participant yet to be asked for: then a
  // refusal here says nothing yet. Otherwise it is the first thing wrong, before any discovery call fails on it.
  const audienceUnknown =
    isMinting(s) &&
    s.token.form === 'audience' &&
    s.discoverable.includes('LEDGER_PARTICIPANT_ID') &&
    blank(env, 'LEDGER_AUDIENCE');
  if (!audienceUnknown && (version.status === 401 || version.status === 403)) tokenRefused(s, version.status);
  const resolution = await resolveIdentity(s, baseUrl, env);
  // The first read's token may have named a participant or user only now known: read again with them.
  if (Object.keys(resolution.env).length > 0) version = await readVersion(baseUrl, resolution.settings);
  if (version.unreachable)
    throw new PreflightError(
      `the target stopped answering during the preflight: ${version.unreachable.cause}`,
      4,
    );
  await checkTarget(resolution.settings, baseUrl, version);
  return { version, resolution };
}

/** The rule id slot of the ids the timed submission carries (no rule's: the run's own set-up). */
export const TIMING_ID = 'TIMEOUT-SCALE';

/**
 * How long the participant takes to answer, for the timeout scale (scripts/run-pace.ts): GET /v2/version and,
 * when `submission` is true, one submission of the command template with run-unique ids, as a test would send
 * it — the answer that waits on the synchronizer, which no read stands in for. Each on a connection already
 * open, as a worker's requests are. `submission` a string: why none is sent (`npm run preflight` submits
 * nothing; neither does a run whose selection creates nothing). Throws PreflightError (exit 4) when the target
 * stops answering.
 */
export async function timeAnswers(
  s: Settings,
  baseUrl: string,
  submission: true | string,
): Promise<AnswerTimes> {
  const client = new Client(baseUrl, s.timeoutScale);
  const provider = tokenProviderFor(s);
  try {
    const token = await provider.token();
    await client.send('GET', PATHS.version, token); // opens the connection
    let started = performance.now();
    await client.send('GET', PATHS.version, token);
    const versionMs = performance.now() - started;
    if (submission !== true) return { versionMs, submission: { why: submission } };
    const factory = new CommandFactory(
      seededFaker(s.seed ?? seedOf(TIMING_ID)),
      new RunIds(s.runId ?? 'local', TIMING_ID, 0),
      s,
      await provider.userId(),
    );
    const request = factory.submitRequest();
    started = performance.now();
    try {
      const res = await client.send('POST', PATHS.submitTree, token, request);
      return { versionMs, submission: { ms: performance.now() - started, status: res.status } };
    } catch (e) {
      if (!(e instanceof TransportFailure) || e.kind !== 'timeout') throw e;
      return { versionMs, submission: { noAnswerWithinMs: REQUEST_TIMEOUT_MS * s.timeoutScale } };
    }
  } catch (e) {
    if (e instanceof TransportFailure)
      throw new PreflightError(`the target stopped answering during the preflight: ${e.message}`, 4);
    if (e instanceof TokenSourceError) throw new PreflightError(e.message, e.targetDown ? 4 : 2);
    throw e;
  } finally {
    await client.close();
  }
}

/** The rules that will skip on this participant with these settings, and why: the tests' own words. */
export function skipForecast(s: Settings, version: string | undefined): Skip[] {
  return skipsForecast({ settings: s, version, cannotMint: tokenProviderFor(s).cannotMintReason });
}

export { capabilitiesOf };
