// Canton's user-token authentication (JSON layer + Authorizer), verified with `jose`.
// Shape of the decisions, as Canton: a missing, malformed, expired or wrongly signed token is not rejected
// while resolving — it becomes `unauthenticated`, and the operation answers 401 when it needs a caller.
// Only a valid token of an unknown user fails early (403 with `ledger_api_error`), like Canton's
// UserBasedClaimResolver; a token naming another participant is a 403 at authorization.
import { readFileSync } from 'node:fs';
import type { FastifyReply, FastifyRequest } from 'fastify';
import {
  createLocalJWKSet,
  createRemoteJWKSet,
  jwtVerify,
  type JSONWebKeySet,
  type JWTPayload,
  type JWTVerifyGetKey,
} from 'jose';
import { readUserToken } from './auth-payload';
import { ConfigError, type SandboxConfig } from './config';
import type { Authenticator, Claims } from './context';
import { TapirDecodeError } from './decode';
import { permissionDenied, unauthenticated } from './errors';

export type AuthenticatedClaims = Exclude<Claims, { kind: 'unauthenticated' }>;

/** Canton's Authorizer for any operation that needs a caller: 401 without one, 403 for another participant. */
export function requireAuthenticated(claims: Claims): AuthenticatedClaims {
  if (claims.kind === 'unauthenticated') throw unauthenticated();
  if (claims.kind === 'user' && claims.foreignParticipant !== undefined) throw permissionDenied();
  return claims;
}

/**
 * tapir's bearer input: only `Bearer …` values count (any other scheme is as if there were no token);
 * `Bearer` with nothing after it fails decoding — Canton's test expects 400 for it.
 */
export function bearerToken(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const value = header.trim();
  if (!value.toLowerCase().startsWith('bearer')) return undefined;
  if (!/^bearer\s/i.test(value)) throw new TapirDecodeError('header Authorization', []);
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

type Verify = (token: string) => Promise<JWTPayload>;

/** HS256 with the shared secret (Canton's unsafe-jwt-hmac-256), or RS256/ES256/ES512 from a JWKS. */
function verifier(config: SandboxConfig): Verify {
  if (config.auth === 'hs256') {
    const key = new TextEncoder().encode(config.hmacSecret);
    return async (token) =>
      (await jwtVerify(token, key, { algorithms: ['HS256'], requiredClaims: ['exp'] })).payload;
  }
  const keys = jwksKeys(config.jwks ?? '');
  const algorithms = ['RS256', 'ES256', 'ES512'];
  return async (token) => (await jwtVerify(token, keys, { algorithms, requiredClaims: ['exp'] })).payload;
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

/** Builds the authenticator for the configured mode. Throws ConfigError for an unusable JWKS. */
export function createAuthenticator(config: SandboxConfig): Authenticator {
  if (config.auth === 'none') {
    // Canton without auth services: wildcard claims, no user (a body must then carry userId).
    return { resolve: () => Promise.resolve({ kind: 'wildcard' }) };
  }
  const verify = verifier(config);
  const users = new Map(config.users.map((u) => [u.id, u]));

  return {
    async resolve(request) {
      const token = bearerToken(request.headers.authorization);
      if (token === undefined) return unauth('The command is missing a (valid) JWT token');
      let payload: JWTPayload;
      try {
        payload = await verify(token);
      } catch (e) {
        return unauth(e instanceof Error ? e.message : 'invalid token');
      }
      const now = Math.floor(Date.now() / 1000);
      // jose checked exp/nbf; Canton (auth0) also refuses tokens issued in the future and long lifetimes.
      if (typeof payload.iat === 'number' && payload.iat > now) return unauth('token issued in the future');
      if ((payload.exp ?? 0) - now > config.maxTokenLifetimeSeconds) return unauth('token lifetime too long');

      const read = readUserToken(payload);
      if (typeof read === 'string') return unauth(read);
      const user = users.get(read.userId);
      if (user === undefined) throw permissionDenied({ ledger_api_error: 'invalid token' });
      const foreign = read.participantId !== undefined && read.participantId !== config.participantId;
      return {
        kind: 'user',
        userId: user.id,
        actAs: new Set(user.actAs),
        readAs: new Set(user.readAs),
        ...(foreign ? { foreignParticipant: read.participantId } : {}),
      };
    },
  };
}
