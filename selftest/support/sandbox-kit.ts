// Shared by the sandbox self-tests: an in-process sandbox built from env-style settings, and Canton user
// tokens minted with jose (HS256 with the dev secret unless a key is given).
import type { FastifyInstance } from 'fastify';
import { SignJWT } from 'jose';
import { buildApp } from '../../sandbox/app';
import { DEV_DEFAULTS, loadConfig } from '../../sandbox/config';
import cantonError from '../../schemas/canton-error.json';

/** Every key of a JsCantonError, sorted: Canton writes them all, nulls included. */
export const ERROR_KEYS: readonly string[] = Object.keys(cantonError.properties).sort();

export const AUD_PREFIX = 'https://daml.com/jwt/aud/participant/';
export const PARTICIPANT = DEV_DEFAULTS.participantId;
export const SYNCHRONIZER = DEV_DEFAULTS.synchronizerId;

/** A sandbox built with the dev defaults plus the given settings (SANDBOX_* names, as in .env). */
export function sandbox(env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp(loadConfig(env));
}

/** `fn` given a sandbox built from these settings, closed afterwards whatever `fn` did. */
export async function withSandbox<T>(
  env: Record<string, string>,
  fn: (app: FastifyInstance) => Promise<T>,
): Promise<T> {
  const app = await sandbox(env);
  try {
    return await fn(app);
  } finally {
    await app.close();
  }
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

/** A token of the dev user `admin` (ParticipantAdmin): what the control route asks of its caller. */
export const adminToken = (): Promise<string> => token({ claims: { sub: 'admin' } });

/** POST to the control route (`vet` or `unvet`) as `admin`. */
export async function control(app: FastifyInstance, action: 'vet' | 'unvet', payload: unknown) {
  return app.inject({
    method: 'POST',
    url: `/sandbox/control/${action}`,
    headers: { ...bearer(await adminToken()), 'content-type': 'application/json' },
    payload: JSON.stringify(payload),
  });
}

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

export interface VettedPackage {
  packageId: string;
  validFromInclusive: string | null;
  validUntilExclusive: string | null;
  packageName: string;
  packageVersion: string;
}
export interface VettedPackages {
  packages: VettedPackage[];
  participantId: string;
  synchronizerId: string;
  topologySerial: number;
}
export interface ListResponse {
  vettedPackages: VettedPackages[];
  nextPageToken: string;
}

/** POST /v2/package-vetting/list with a valid token; returns status and parsed JSON (or text). */
export async function listRaw(
  app: FastifyInstance,
  body: unknown,
  headers?: Record<string, string>,
): Promise<{ status: number; type: string | undefined; json: () => unknown; text: string }> {
  const res = await app.inject({
    method: 'POST',
    url: '/v2/package-vetting/list',
    headers: headers ?? { ...bearer(await token()), 'content-type': 'application/json' },
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
  return {
    status: res.statusCode,
    type: String(res.headers['content-type']),
    json: () => res.json(),
    text: res.body,
  };
}

/** One page, asserting nothing but a 200. */
export async function list(app: FastifyInstance, body: unknown = {}): Promise<ListResponse> {
  const res = await listRaw(app, body);
  if (res.status !== 200)
    throw new Error(`expected 200 from the vetting list, got ${res.status} ${res.text}`);
  return res.json() as ListResponse;
}

/** Follows nextPageToken until "", returning every page (the final one included). */
export async function walk(
  app: FastifyInstance,
  body: Record<string, unknown>,
  pageSize: number,
): Promise<ListResponse[]> {
  const pages: ListResponse[] = [];
  let pageToken = '';
  do {
    const page = await list(app, { ...body, pageSize, pageToken });
    pages.push(page);
    pageToken = page.nextPageToken;
    if (pages.length > 100_000) throw new Error('the walk does not end');
  } while (pageToken !== '');
  return pages;
}

/** Canton's order of a UID: identifier, then namespace. */
export function compareUid(a: string, b: string): number {
  const [ai = '', an = ''] = a.split(/::(.*)/s);
  const [bi = '', bn = ''] = b.split(/::(.*)/s);
  return ai < bi ? -1 : ai > bi ? 1 : an < bn ? -1 : an > bn ? 1 : 0;
}

export const entryKey = (e: VettedPackages): string => `${e.synchronizerId}|${e.participantId}`;
