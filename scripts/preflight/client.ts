// What the preflight's steps share: the error of a check that failed (its one line and exit code), the client
// that asks the participant with the settings' token, and what to set when the participant refuses that token.
import { DiscoveryError, type Fetcher } from '../../core/discovery';
import { REQUEST_TIMEOUT_MS, Transport, TransportFailure, type HttpResponse } from '../../core/http';
import { unknownUserRefusal } from '../../core/ledger-client';
import type { Settings } from '../../core/settings';
import { TokenSourceError, tokenProviderFor } from '../../core/token-providers';
import { EXIT } from '../../core/exit-codes';
import { RETRY, sendRetrying, transientAnswer } from '../../core/retry';
import { addToTally, type TransientTally } from '../../core/transient-tally';

/** The transient answers the checks before the tests asked again, in this process (reports/target.json). */
export const SETUP_RETRIED: TransientTally = {};

export type Env = Record<string, string | undefined>;
type Json = unknown;

/** A check that failed: its one line, and the exit code (2 a setting to give or fix, 4 the target is gone). */
export class PreflightError extends Error {
  override name = 'PreflightError';
  constructor(
    message: string,
    readonly exitCode: typeof EXIT.badSetting | typeof EXIT.targetDown,
  ) {
    super(message);
  }
}

/** The package of Canton's built-in Ping (core/templates/canton-ping.json). */
export const PING_PACKAGE = 'canton-builtin-admin-workflow-ping';

/** Requests over the harness's transport with the settings' token; notes whether the target stopped answering. */
export class Client {
  lost = false;
  /** Transient answers this client asked again. */
  retried = 0;
  /** An answer still transient after its retries: the target is down or too busy, whatever the caller wraps it in. */
  unavailable: PreflightError | undefined;
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
      // Still transient after its retries: the participant is busy or down, never a setting to blame.
      // Kept as well as thrown: discovery wraps a fetcher's error in its own, which names a setting.
      const still = transientAnswer(res);
      if (still) {
        this.unavailable ??= new PreflightError(
          `the target stayed unavailable during the preflight: ${method} ${path.split('?')[0]} answered ${still.what} on every try (${RETRY.setupRetries + 1})`,
          EXIT.targetDown,
        );
        throw this.unavailable;
      }
      // A valid token of a user the participant does not know: the user setting is the cause, not the key.
      if (unknownUserRefusal(res.status, parse(res.text))) {
        this.refused ??= unknownUser(s, `${method} ${path.split('?')[0]}`);
        throw this.refused;
      }
      if (refusal && res.status === 401) {
        // Kept as well as thrown: discovery wraps a fetcher's error in its own, which names another setting.
        this.refused ??= new PreflightError(
          `the participant refused the harness's token (${method} ${path.split('?')[0]} answered 401): ${tokenFix(s)}`,
          EXIT.badSetting,
        );
        throw this.refused;
      }
      return { status: res.status, body: parse(res.text) };
    };
  }

  /**
   * One request, asked again while the answer is transient (core/retry.ts): before the tests a single busy answer
   * never decides anything, and a participant that is down still is within seconds. A request that got no
   * answer in the end throws TransportFailure; one still transient returns its last answer, for the caller to read.
   */
  async send(method: string, path: string, token: string | undefined, body?: Json): Promise<HttpResponse> {
    const request = {
      method,
      url: `${this.baseUrl}${path}`,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(body === undefined ? {} : { 'content-type': 'application/json' }),
      },
      body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)),
    };
    const { last, retried } = await sendRetrying(
      () =>
        this.transport.send(request).then(
          (res) => ({ res }),
          (error: unknown) => ({ error }),
        ),
      { retries: RETRY.setupRetries, maxDelayMs: RETRY.setupMaxDelayMs },
      (r) => addToTally(SETUP_RETRIED, `${method} ${path.split('?')[0]}`, r.transient.what),
    );
    this.retried += retried.length;
    if (last.res) return last.res;
    if (last.error instanceof TransportFailure) this.lost = true;
    throw last.error;
  }

  close(): Promise<void> {
    return this.transport.close();
  }
}

/**
 * What a failure inside a preflight step is, as the preflight reports it: the refusal the client met first, the
 * preflight's own error, discovery naming a setting, the target gone (exit 4), the token source failing (exit 2,
 * or 4 when its IdP is down); anything else as it is (a harness defect).
 */
export function preflightFailure(e: unknown, client: Client, during: string): unknown {
  if (client.unavailable) return client.unavailable;
  if (client.refused) return client.refused;
  if (e instanceof PreflightError) return e;
  if (e instanceof DiscoveryError)
    return new PreflightError(e.message, client.lost ? EXIT.targetDown : EXIT.badSetting);
  if (e instanceof TransportFailure)
    return new PreflightError(`the target stopped answering during ${during}: ${e.message}`, EXIT.targetDown);
  if (e instanceof TokenSourceError)
    return new PreflightError(e.message, e.targetDown ? EXIT.targetDown : EXIT.badSetting);
  return e;
}

export function parse(text: string): Json {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

/** The one line for a run's token whose user the participant does not know, naming the setting behind it. */
export function unknownUser(s: Settings, what: string): PreflightError {
  const answered = `${what} answered 403 "invalid token": a valid token of a user this participant does not know, or deactivated`;
  switch (s.auth.kind) {
    case 'static':
      return new PreflightError(
        `the user of LEDGER_TOKEN is not a user of this participant (${answered}): set LEDGER_TOKEN to a token of one of its users`,
        EXIT.badSetting,
      );
    case 'oauth2':
      return new PreflightError(
        `the user the IdP's token names is not a user of this participant (${answered}): create it there, or check LEDGER_OAUTH_CLIENT_ID`,
        EXIT.badSetting,
      );
    default:
      return new PreflightError(
        `LEDGER_USER=${s.user} is not a user of this participant (${answered}): set LEDGER_USER to one of its users`,
        EXIT.badSetting,
      );
  }
}

/** What to set when the participant refuses the harness's token, per way of getting one. */
export function tokenFix(s: Settings): string {
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
