// Canton's user-token authentication (JSON layer + Authorizer), verified with `jose`.
// Shape of the decisions, as Canton: a missing, malformed, expired or wrongly signed token is not rejected
// while resolving — it becomes `unauthenticated`, and the operation answers 401 when it needs a caller.
// Only a valid token of an unknown user fails early (403 with `ledger_api_error`), like Canton's
// UserBasedClaimResolver; a token naming another participant is a 403 at authorization.
import { createSecretKey } from 'node:crypto';
import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  decodeJwt,
  decodeProtectedHeader,
  errors as joseErrors,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { readUserToken } from './auth-payload';
import { ConfigError, type SandboxConfig } from './config';
import type { Authenticator, Claims } from './context';
import { TapirDecodeError } from './decode-failures';
import { invalidArgument, permissionDenied, unauthenticated } from './errors';
import { faultSet, type FaultSet } from './faults/registry';

export type AuthenticatedClaims = Exclude<Claims, { kind: 'unauthenticated' }>;

/** Canton's Authorizer for any operation that needs a caller: 401 without one, 403 for another participant. */
export function requireAuthenticated(claims: Claims): AuthenticatedClaims {
  if (claims.kind === 'unauthenticated') throw unauthenticated();
  if (claims.kind === 'user' && claims.foreignParticipant !== undefined) throw permissionDenied();
  return claims;
}

/**
 * Canton's RequiredClaim.Admin (Authorizer, Claims.isAdmin): a caller first (401 without one), then the
 * ParticipantAdmin right, which auth off (wildcard claims) holds; a user without it is PERMISSION_DENIED
 * (MissingAdminClaim, redacted 403).
 */
export function requireParticipantAdmin(claims: Claims): AuthenticatedClaims {
  const caller = requireAuthenticated(claims);
  if (caller.kind === 'user' && caller.admin !== true) throw permissionDenied();
  return caller;
}

/**
 * tapir's bearer input: only `Bearer …` values count (any other scheme is as if there were no token);
 * `Bearer` with nothing after it fails decoding — Canton's test expects 400 for it.
 */
export function bearerToken(header: string | undefined, emptyIsMissing = false): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (!value.toLowerCase().startsWith('bearer')) return undefined;
  if (!/^bearer\s/i.test(value)) {
    if (emptyIsMissing) return undefined; // fault auth-empty-bearer-as-missing
    throw new TapirDecodeError('header Authorization', []);
  }
  return value.slice('bearer '.length);
}

/**
 * onRequest hook: the empty-bearer 400 comes from decoding the request, before any route logic (and not for
 * a path that does not exist: that stays a 404). Callback style: it runs on every request, the hot path too.
 */
export function rejectEmptyBearer(
  request: FastifyRequest,
  _reply: FastifyReply,
  done: (err?: Error) => void,
): void {
  const header = request.headers.authorization;
  if (header === undefined || request.is404) return done();
  try {
    bearerToken(header);
  } catch (e) {
    return done(e as Error);
  }
  done();
}

/** The onRequest hook of an app: Canton's empty-bearer 400, unless fault auth-empty-bearer-as-missing is on. */
export function emptyBearerHook(config: SandboxConfig) {
  return faultSet(config.faults).has('auth-empty-bearer-as-missing')
    ? (_request: FastifyRequest, _reply: FastifyReply, done: (err?: Error) => void): void => done()
    : rejectEmptyBearer;
}

type Verify = (token: string) => Promise<JWTPayload>;

/** HS256 with the shared secret (Canton's unsafe-jwt-hmac-256), or RS256/ES256/ES512 from a JWKS. */
function verifier(config: SandboxConfig): Verify {
  if (config.auth === 'hs256') {
    // A KeyObject made once: jose would otherwise import the raw secret into WebCrypto on every request.
    const key = createSecretKey(Buffer.from(config.hmacSecret, 'utf8'));
    return async (token) =>
      (await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] })).payload;
  }
  const keys = jwksKeys(config.jwks ?? '');
  const algorithms = ['RS256', 'ES256', 'ES512'];
  return async (token) => (await jwtVerify(token, keys, { algorithms, requiredClaims: ['exp'] })).payload;
}

/** How many verified tokens are remembered: clients reuse a handful, so a small bound keeps memory flat. */
const VERIFIED_CACHE_SIZE = 1024;

/**
 * Remembers tokens that verified, until their `exp`: a client sends the same token on every call, and a
 * signature check per request is the sandbox's largest cost. Only successes are kept (a refused token is
 * checked again every time), an entry past `exp` is dropped and verified anew (so it fails as expired), and
 * the map is bounded (oldest first out).
 */
export function cachedVerifier(verify: Verify, now: () => number = Date.now): Verify {
  const verified = new Map<string, JWTPayload>();
  return async (token) => {
    const hit = verified.get(token);
    if (hit !== undefined && (hit.exp ?? 0) * 1000 > now()) return hit;
    verified.delete(token);
    const payload = await verify(token);
    if (verified.size >= VERIFIED_CACHE_SIZE) verified.delete(verified.keys().next().value as string);
    verified.set(token, payload);
    return payload;
  };
}

/** A JWKS from a URL (cached five minutes, as Canton) or a file, read once at start so a typo stops it. */
function jwksKeys(source: string): JWTVerifyGetKey {
  if (/^https?:\/\//i.test(source)) {
    return createRemoteJWKSet(new URL(source), { cacheMaxAge: 5 * 60_000, timeoutDuration: 5_000 });
  }
  try {
    return createLocalJWKSet(JSON.parse(readFileSync(source, 'utf8')) as JSONWebKeySet);
  } catch (e) {
    const why = e instanceof Error ? e.message : String(e);
    throw new ConfigError(
      `SANDBOX_JWKS="${source}" is not valid: set it to a readable JWKS file or URL (${why})`,
    );
  }
}

const unauth = (reason: string): Claims => ({ kind: 'unauthenticated', reason });

/** Every party: the rights of a user whose rights a fault stops checking. */
const EVERY_PARTY: ReadonlySet<string> = { has: () => true } as unknown as ReadonlySet<string>;

/**
 * The payload a faulty verifier accepts despite `error` (sandbox/faults/groups/auth.ts), or
 * undefined: each fault forgives exactly one reason to refuse a token.
 */
function forgiven(error: unknown, token: string, has: FaultSet['has']): JWTPayload | undefined {
  if (has('auth-expired-accepted') && error instanceof joseErrors.JWTExpired) return error.payload;
  if (
    has('auth-nbf-ignored') &&
    error instanceof joseErrors.JWTClaimValidationFailed &&
    error.claim === 'nbf'
  )
    return error.payload;
  if (has('auth-any-signature') && error instanceof joseErrors.JWSSignatureVerificationFailed)
    return decodeJwt(token);
  if (has('auth-unsigned-accepted') && looksLikeJwt(token) && decodeProtectedHeader(token).alg === 'none')
    return decodeJwt(token);
  return undefined;
}

/** Three dot-separated parts whose header and payload decode: fault auth-malformed-400 tells the rest apart. */
function looksLikeJwt(token: string): boolean {
  try {
    decodeProtectedHeader(token);
    decodeJwt(token);
    return true;
  } catch {
    return false;
  }
}

/** Builds the authenticator for the configured mode. Throws ConfigError for an unusable JWKS. */
export function createAuthenticator(config: SandboxConfig): Authenticator {
  if (config.auth === 'none') {
    // Canton without auth services: wildcard claims, no user (a body must then carry userId).
    return { resolve: () => Promise.resolve({ kind: 'wildcard' }) };
  }
  const verify = cachedVerifier(verifier(config));
  const users = new Map(config.users.map((u) => [u.id, u]));
  // Faults (sandbox/faults/groups/auth.ts): off unless SANDBOX_FAULTS names them.
  const { has } = faultSet(config.faults);
  const anyone = has('auth-no-header-accepted') ? config.users[0] : undefined;

  return {
    async resolve(request) {
      const token = bearerToken(request.headers.authorization, has('auth-empty-bearer-as-missing'));
      if (token === undefined) {
        if (anyone)
          return {
            kind: 'user',
            userId: anyone.id,
            actAs: new Set(anyone.actAs),
            readAs: new Set(anyone.readAs),
          };
        return unauth('The command is missing a (valid) JWT token');
      }
      if (has('auth-malformed-400') && !looksLikeJwt(token)) throw invalidArgument('the token is not a JWT');
      let payload: JWTPayload;
      try {
        payload = await verify(token);
      } catch (e) {
        const accepted = forgiven(e, token, has);
        if (accepted === undefined) return unauth(e instanceof Error ? e.message : 'invalid token');
        payload = accepted;
      }
      const now = Math.floor(Date.now() / 1000);
      // jose checked exp/nbf; Canton (auth0) also refuses tokens issued in the future and long lifetimes.
      if (typeof payload.iat === 'number' && payload.iat > now) return unauth('token issued in the future');
      if ((payload.exp ?? 0) - now > config.maxTokenLifetimeSeconds) return unauth('token lifetime too long');

      let read = readUserToken(payload);
      if (typeof read === 'string') {
        if (!has('auth-audience-ignored') || typeof payload.sub !== 'string') return unauth(read);
        read = { userId: payload.sub, participantId: undefined, format: 'scope' };
      }
      const user = users.get(read.userId);
      if (user === undefined) {
        if (has('auth-unknown-user-accepted'))
          return { kind: 'user', userId: read.userId, actAs: new Set(), readAs: new Set() };
        throw permissionDenied({ ledger_api_error: 'invalid token' });
      }
      const foreign =
        read.participantId !== undefined &&
        read.participantId !== config.participantId &&
        !has('auth-other-participant-accepted');
      return {
        kind: 'user',
        userId: user.id,
        actAs: has('auth-actas-unchecked') ? EVERY_PARTY : new Set(user.actAs),
        readAs: has('auth-readas-unchecked') ? EVERY_PARTY : new Set(user.readAs),
        ...(user.participantAdmin ? { admin: true } : {}),
        ...(foreign ? { foreignParticipant: read.participantId } : {}),
      };
    },
  };
}
