// Shared by the sandbox self-tests: an in-process sandbox built from env-style settings, and Canton user
// tokens minted with jose (HS256 with the dev secret unless a key is given).
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { buildApp } from '../../sandbox/app';
import { DEV_DEFAULTS, loadConfig } from '../../sandbox/config';

export const AUD_PREFIX = 'https://daml.com/jwt/aud/participant/';
export const PARTICIPANT = DEV_DEFAULTS.participantId;
export const SYNCHRONIZER = DEV_DEFAULTS.synchronizerId;

/** A sandbox built with the dev defaults plus the given settings (SANDBOX_* names, as in .env). */
export function sandbox(env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp(loadConfig(env));
}

type Key = Parameters<SignJWT['sign']>[0];

export interface TokenOptions {
  /** Claims merged over the default audience-form user token of `conformance`; undefined deletes a claim. */
  claims?: Record<string, unknown>;
  key?: Key;
  alg?: string;
  kid?: string;
}

/** A valid audience-form token for the dev user `conformance`, expiring in two minutes, unless overridden. */
export async function token(opts: TokenOptions = {}): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  const claims: Record<string, unknown> = {
    sub: 'conformance',
    aud: AUD_PREFIX + PARTICIPANT,
    iat: now,
    exp: now + 120,
    ...opts.claims,
  };
  for (const [k, v] of Object.entries(claims)) if (v === undefined) delete claims[k];
  const alg = opts.alg ?? 'HS256';
  return new SignJWT(claims)
    .setProtectedHeader({ alg, typ: 'JWT', ...(opts.kid ? { kid: opts.kid } : {}) })
    .sign(opts.key ?? new TextEncoder().encode(DEV_DEFAULTS.hmacSecret));
}

export const bearer = (t: string): Record<string, string> => ({ authorization: `Bearer ${t}` });

/** Canton's redacted 401/403 body (DecodedCantonError.redactedError). */
export function redacted(grpcCodeValue: number, context: Record<string, string> = {}): unknown {
  return {
    code: 'NA',
    cause: 'A security-sensitive error has been received',
    correlationId: null,
    traceId: null,
    context,
    resources: [],
    errorCategory: -1,
    grpcCodeValue,
    retryInfo: null,
    definiteAnswer: null,
  };
}
