// What a run against a real participant finds out before a single command is submitted: the identity settings
// left unset, asked for (core/discovery.ts), and the checks that would otherwise fail the whole suite one
// test at a time — the token accepted, the user's rights covering the parties, the command template's package
// vetted on the synchronizer — and the rules that will skip there and why. Shared by `npm run preflight`
// (scripts/preflight/preflight.ts) and the global setup of every conformance run. Every failure is ONE line
// naming what to set; no header or token is ever in it (all requests go through core/http.ts).
import { packageRefsOf, synchronizersVetting, vettingAnswer, type Fetcher } from '../../core/discovery';
import { REQUEST_TIMEOUT_MS, TransportFailure, type HttpResponse } from '../../core/http';
import { PATHS } from '../../core/ledger-client';
import { RETRY, transientAnswer } from '../../core/retry';
import { CommandFactory, RunIds, seededFaker, seedOf } from '../../core/command-factory';
import { unreachableOf, type Unreachable } from '../../core/reachability';
import { redact } from '../../core/redact';
import { displayUrl, type Settings } from '../../core/settings';
import { TokenSourceError, tokenExpiry, tokenProviderFor } from '../../core/token-providers';
import { skipsForecast, type Skip } from '../../core/rule-needs';
import {
  CONTROL_PROBE_BODY,
  CONTROL_VET_PATH,
  controlCaller,
  controlRouteOf,
  type ControlRoute,
} from '../../core/control-route';
import { selectedRules } from '../../core/selection';
import type { AnswerTimes } from '../run/pace';

import { Client, PreflightError, preflightFailure, tokenFix, type Env } from './client';
import { ParticipantAnswer } from './answers';
import { blank, isMinting, resolveIdentity, type Resolution } from './identity';
import { checkRights, checkSecondUser } from './rights';
import { checkTokenIdentity } from './token-identity';
import { checkSynchronizerKnown } from './synchronizer';
import { EXIT } from '../../core/exit-codes';

export { PreflightError } from './client';
export { ParticipantAnswer } from './answers';
export { resolveIdentity, type IdentityValue, type Resolution } from './identity';

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
    res = await client.send('GET', PATHS.version, token);
  } catch (e) {
    const unreachable = unreachableOf(e, `${baseUrl}${PATHS.version}`);
    return { document: undefined, problem: unreachable.cause, unreachable };
  } finally {
    await client.close();
  }
  // Not an answer about the API, even after its retries (./client.ts): Canton's own for UNAVAILABLE /
  // DEADLINE_EXCEEDED (503 while it starts), contention, or a proxy's whose participant is down. Every call would
  // get the same, so the run stops as for a target that does not answer (exit 4, every rule inconclusive), not on
  // the identity calls that would fail next.
  const still = transientAnswer(res);
  if (still) {
    const cause = `GET ${PATHS.version} answered ${still.what} on every try (${RETRY.setupRetries + 1}), a participant down, not ready or too busy (or a proxy in front of one)`;
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
  const notApi = notLedgerApi(res, `${baseUrl}${PATHS.version}`);
  if (notApi)
    return { document: undefined, status: res.status, problem: `HTTP ${res.status}`, notLedgerApi: notApi };
  if (res.status !== 200) return { document: undefined, status: res.status, problem: `HTTP ${res.status}` };
  try {
    return { document: JSON.parse(res.text), status: 200 };
  } catch (e) {
    return { document: undefined, status: 200, problem: redact(e instanceof Error ? e.message : String(e)) };
  }
}

/** The participant refused the run's own token: one line, what to set per way of getting tokens. */
function tokenRefused(s: Settings, status: number): never {
  throw new PreflightError(
    `the participant refused the harness's token (GET ${PATHS.version} answered ${status}${status === 403 ? ': an unknown user or another participant' : ''}): ${status === 403 ? `set LEDGER_USER to a user of this participant, or LEDGER_PARTICIPANT_ID / LEDGER_AUDIENCE; or ${tokenFix(s)}` : tokenFix(s)}`,
    EXIT.badSetting,
  );
}

/**
 * The checks before any command: the token accepted, every configured identity (the user's rights covering the
 * parties, the second user), the template's package vetted on the synchronizer. Throws PreflightError with the
 * one line to print.
 */
export async function checkTarget(
  s: Settings,
  baseUrl: string,
  version: VersionRead,
  vettingKnownMissing = false,
): Promise<void> {
  if (version.status === 401 || version.status === 403) tokenRefused(s, version.status);
  await withClient(s, baseUrl, async (client) => {
    await identitySteps(client, s);
    await checkSynchronizerKnown(client.fetcher(s), s);
    if (!vettingKnownMissing) await checkVetted(client.fetcher(s), s);
  });
}

/**
 * The identity checks alone, for a run against the in-process sandbox: its settings are the development
 * defaults unless overridden, and an override is as likely wrong as against any participant. (Not the
 * template's vetting: a fault run breaks the sandbox's listing on purpose, for the rules to judge.)
 */
export async function checkIdentities(s: Settings, baseUrl: string, env: Env = process.env): Promise<void> {
  await withClient(s, baseUrl, async (client) => {
    await checkTokenIdentity(client, s, env);
    await identitySteps(client, s);
  });
}

async function identitySteps(client: Client, s: Settings): Promise<void> {
  if (s.auth.kind !== 'none') await checkRights(client.fetcher(s), s);
  await checkSecondUser(client, s);
}

/** Runs `steps` with a client, every failure turned into the one line of a PreflightError. */
async function withClient(
  s: Settings,
  baseUrl: string,
  steps: (client: Client) => Promise<void>,
): Promise<void> {
  const client = new Client(baseUrl, s.timeoutScale);
  try {
    await steps(client);
  } catch (e) {
    throw preflightFailure(e, client, 'the preflight');
  } finally {
    await client.close();
  }
}

async function checkVetted(fetcher: Fetcher, s: Settings): Promise<void> {
  const refs = packageRefsOf(s.commandTemplate.document);
  if (refs.names.length + refs.ids.length === 0) return;
  const ok = (on: string[]) =>
    s.synchronizerId === undefined ? on.length > 0 : on.includes(s.synchronizerId);
  // Page by page, stopping at the first page that shows the package vetted there: on a participant with many
  // synchronizers the preflight must not walk the whole topology (Canton pages entries, then filters).
  let pageToken = '';
  const seen: Parameters<typeof synchronizersVetting>[0][number][] = [];
  for (let page = 0; page < 100; page++) {
    const res = await fetcher({
      method: 'POST',
      path: PATHS.vettingList,
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
        `POST ${PATHS.vettingList} answered ${res.status}: the template's package cannot be checked; set LEDGER_COMMAND_TEMPLATE and LEDGER_SYNCHRONIZER_ID to ones you know are vetted`,
        EXIT.badSetting,
      );
    const body = res.body as {
      vettedPackages?: Parameters<typeof synchronizersVetting>[0];
      nextPageToken?: string;
    };
    seen.push(...(body?.vettedPackages ?? []));
    if (ok(synchronizersVetting(body?.vettedPackages ?? [], s.participantId, refs))) return;
    pageToken = body?.nextPageToken ?? '';
    if (pageToken === '') break;
  }
  const where = s.synchronizerId === undefined ? 'any synchronizer' : s.synchronizerId;
  const packages = [...refs.names, ...refs.ids].join(', ');
  throw new ParticipantAnswer(
    `LEDGER_COMMAND_TEMPLATE: its package ${packages} is not vetted by ${s.participantId} on ${where} (POST ${PATHS.vettingList} lists no entry with it): set it to a template of a vetted package (canton-ping: Canton's built-in Ping), or LEDGER_SYNCHRONIZER_ID`,
    vettingAnswer(seen, s.participantId, packages, where),
  );
}

export interface Preflight {
  version: VersionRead;
  /** undefined when the target gave no answer (nothing could be asked). */
  resolution: Resolution | undefined;
  /**
   * What a check resting on the participant's own answers found missing: the preflight stops on it, a run lets
   * the rules judging those answers run and blocks only the rules needing what is missing.
   */
  missing?: ParticipantAnswer;
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
    if (e instanceof TokenSourceError)
      throw new PreflightError(e.message, e.targetDown ? EXIT.targetDown : EXIT.badSetting);
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
      EXIT.badSetting,
    );
  let version = await readVersion(baseUrl, s);
  // A proxy that wants credentials is a setting to fix (exit 2), not a participant that is down.
  if (version.unreachable?.proxyStatus === 407)
    throw new PreflightError(
      `${version.unreachable.cause}: put the proxy's credentials in its URL (http://user:password@host:port, percent-encoded)`,
      EXIT.badSetting,
    );
  if (version.unreachable) return { version, resolution: undefined };
  // First: every later call would fail too, each naming a setting that is not the cause.
  if (version.notLedgerApi)
    throw new PreflightError(
      `LEDGER_BASE_URL=${displayUrl(baseUrl)} serves no Canton JSON Ledger API v2 (GET ${PATHS.version} ${version.notLedgerApi}): set it to the JSON API's address, with its port (7575 by default, not the gRPC port) and any path prefix in front of /v2, e.g. https://participant.example.com/api/json`,
      EXIT.badSetting,
    );
  // The token of the first read is the run's, unless it is minted for a participant yet to be asked for: then a
  // refusal here says nothing yet. Otherwise it is the first thing wrong, before any discovery call fails on it.
  const audienceUnknown =
    isMinting(s) &&
    s.token.form === 'audience' &&
    s.discoverable.includes('LEDGER_PARTICIPANT_ID') &&
    blank(env, 'LEDGER_AUDIENCE');
  if (!audienceUnknown && (version.status === 401 || version.status === 403)) tokenRefused(s, version.status);
  // Before discovery: its calls would fail on a misdirected token too, each naming a setting that is not the cause.
  if (!audienceUnknown)
    await withClient(s, baseUrl, async (client) => void (await checkTokenIdentity(client, s, env)));
  let missing: ParticipantAnswer | undefined;
  const resolution = await resolveIdentity(s, baseUrl, env).catch((e: unknown) => {
    if (!(e instanceof ParticipantAnswer) || e.resolution === undefined) throw e;
    missing = e;
    return e.resolution;
  });
  // The first read's token may have named a participant or user only now known: read again with them.
  if (Object.keys(resolution.env).length > 0) version = await readVersion(baseUrl, resolution.settings);
  if (version.unreachable)
    throw new PreflightError(
      `the target stopped answering during the preflight: ${version.unreachable.cause}`,
      EXIT.targetDown,
    );
  try {
    await checkTarget(resolution.settings, baseUrl, version, missing !== undefined);
  } catch (e) {
    if (!(e instanceof ParticipantAnswer)) throw e;
    missing ??= e;
  }
  return { version, resolution, missing };
}

/** The rule id slot of the ids the timed submission carries (no rule's: the run's own set-up). */
export const TIMING_ID = 'TIMEOUT-SCALE';

/**
 * How long the participant takes to answer, for the timeout scale (scripts/run/pace.ts): GET /v2/version and,
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
    throw preflightFailure(e, client, 'the preflight');
  } finally {
    await client.close();
  }
}

/**
 * The rules of the run's selection that will skip on this participant with these settings, and why: the tests'
 * own words, from the same function their skips call (core/rule-needs.ts).
 */
export function skipForecast(s: Settings, version: string | undefined, controlRoute: ControlRoute): Skip[] {
  return skipsForecast(
    { settings: s, version, cannotMint: tokenProviderFor(s).cannotMintReason, controlRoute },
    selectedRules(),
  );
}

/**
 * Whether the target offers the sandbox's control route to the caller the rule will present, asked as the workers
 * ask (core/control-route.ts).
 */
export async function probeControlRoute(s: Settings, baseUrl: string): Promise<ControlRoute> {
  const client = new Client(baseUrl, s.timeoutScale);
  try {
    const { token } = await controlCaller(s, tokenProviderFor(s));
    const res = await client.send('POST', CONTROL_VET_PATH, token, CONTROL_PROBE_BODY);
    return controlRouteOf(res.status, res.text);
  } catch (e) {
    if (e instanceof TransportFailure)
      throw new PreflightError(
        `the target stopped answering during the preflight: ${e.message}`,
        EXIT.targetDown,
      );
    throw e;
  } finally {
    await client.close();
  }
}
