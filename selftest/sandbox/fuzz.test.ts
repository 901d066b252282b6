// Property-based robustness of the three operations (and the control route), judged in full. GEN-NO-5XX (on
// the clean sandbox in the fault run) checks that odd values in each field are never a 5xx; here every
// answer to random bodies, tokens and headers must be one Canton could give — a 200 of the
// operation's shape, a JsCantonError whose HTTP status is the one Canton derives from its grpcCodeValue, or
// tapir's 400 text/plain — generated VALID requests are always accepted (any valid token form, any
// well-formed content type, odd extra headers), and each kind of bad token (expired, wrong signature,
// garbage, alg none, huge…) gets exactly its own answer on the version in strict-interface mode (one resolver
// and one gate for every route; the AUTH- rules hold the catalogued kinds on the vetting list and the
// submission, on the fault run's clean sandbox). The code of each invalid
// field is its SUB-/VET- rule's, judged on the fault run's clean sandbox. fast-check, seeded (FUZZ_SEED=<n>, or `random`; each
// test prints its seed and records it as an annotation) and bounded so the file runs in well under a minute
// on two cores (FUZZ_SCALE=10 for a longer hunt).
import { createSecretKey } from 'node:crypto';
import { expect, test } from '../support/test';
import fc from 'fast-check';
import { binaryUnit } from '../support/binary-unit';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { generateKeyPair, SignJWT } from 'jose';
import { validate, type SchemaName } from '../../schemas';
import { GRPC_TO_HTTP } from '../../core/grpc-status';
import { DEV_DEFAULTS } from '../../sandbox/config';
import { encodePageToken } from '../../sandbox/vetting/page-token';
import {
  ALICE,
  ASSET_BY_ID,
  ASSET_BY_NAME,
  BOB,
  CHARLIE,
  PACKAGE_ID,
  PATH as SUBMIT,
  SYNCHRONIZER,
} from './submit-kit';
import { AUD_PREFIX, ERROR_KEYS, PARTICIPANT, sandbox, walk } from '../support/sandbox-kit';
import { claim } from '../support/claim';

const VERSION = '/v2/version';
const VETTING = '/v2/package-vetting/list';
const CONTROL = '/sandbox/control/vet';
/** The keys the routes read (listing, submission, control route). */
const KNOWN_KEYS = [
  'pageSize',
  'pageToken',
  'packageMetadataFilter',
  'topologyStateFilter',
  'commands',
  'commandId',
  'actAs',
  'synchronizerId',
  'participantId',
  'packages',
];

// ── seeds ──────────────────────────────────────────────────────────────────────────────────────────────────
const BASE_SEED = ((): number => {
  const raw = process.env.FUZZ_SEED?.trim();
  if (!raw) return 20_260_707;
  if (raw === 'random') return Math.floor(Math.random() * 2 ** 31);
  const n = Number(raw);
  if (!Number.isSafeInteger(n))
    throw new Error(`FUZZ_SEED="${raw}" is not valid: set an integer or "random"`);
  return n;
})();

/** FUZZ_SCALE multiplies every property's number of runs (e.g. 10 for a long hunt; default 1). */
const SCALE = ((): number => {
  const raw = process.env.FUZZ_SCALE?.trim();
  const n = raw ? Number(raw) : 1;
  if (!(n > 0 && n <= 1000))
    throw new Error(`FUZZ_SCALE="${raw}" is not valid: set a number above 0, e.g. 10`);
  return n;
})();

/** Runs one property with its own seed (the base seed + `offset`), printed and recorded for a rerun. */
async function check<Ts extends [unknown, ...unknown[]]>(
  offset: number,
  numRuns: number,
  property: fc.IAsyncProperty<Ts>,
): Promise<void> {
  const seed = BASE_SEED + offset;
  numRuns = Math.max(1, Math.round(numRuns * SCALE));
  test.setTimeout(60_000 * Math.max(1, SCALE));
  const info = test.info();
  info.annotations.push({ type: 'fast-check seed', description: `${seed} (FUZZ_SEED=${BASE_SEED})` });
  console.log(`[sandbox-fuzz] ${info.title}: seed ${seed}, ${numRuns} runs (FUZZ_SEED=${BASE_SEED})`);
  await fc.assert(property, { seed, numRuns });
}

// ── the oracle: what an answer of Canton's JSON API may look like ──────────────────────────────────────────
/** Error category → its gRPC code (ErrorCategory.scala, docs/canton-behaviour.md §1.2). */
const GRPC_OF_CATEGORY: Record<number, number> = {
  1: 14,
  2: 10,
  3: 4,
  4: 13,
  5: 3,
  6: 16,
  7: 7,
  8: 3,
  9: 9,
  10: 6,
  11: 5,
  12: 11,
  14: 12,
};
const REDACTED_CAUSE = 'A security-sensitive error has been received';

interface CantonBody {
  code: string;
  cause: string;
  context: Record<string, string>;
  errorCategory: number;
  grpcCodeValue: number;
}
type Answer =
  | { kind: 'ok'; json: unknown }
  | { kind: 'error'; status: number; body: CantonBody }
  | { kind: 'decode'; input: 'body' | 'header Authorization' }
  | { kind: 'media-type' };

const schemaErrors = (name: SchemaName, data: unknown): string =>
  validate(name, data)
    .map((e) => `${e.instancePath || '/'} ${e.message ?? e.keyword}`)
    .join('; ');

/**
 * Judges any answer: never a 5xx, and exactly one of Canton's shapes. `mediaType`: the request's Content-Type
 * was not a well-formed media type, so the sandbox's 415 (its choice where Canton is undocumented) may come.
 */
const FRAMEWORK_ANSWER =
  /FST_|"statusCode"\s*:|Unexpected token|is not valid JSON|Unexpected end of JSON|in JSON at position/;

function judge(res: LightMyRequestResponse, what: string, mediaType = false): Answer {
  const type = String(res.headers['content-type'] ?? '');
  const where = `${what} → ${res.statusCode} ${type} ${res.body.slice(0, 300)}`;
  claim(res.statusCode, `a 5xx for client input: ${where}`).toBeLessThan(500);
  // Never the framework's own answer: no fastify error shape, no V8 JSON.parse wording (Canton is pekko + tapir + circe).
  claim(FRAMEWORK_ANSWER.test(res.body), `a fastify or V8 error text: ${where}`).toBe(false);
  if (res.statusCode === 200) {
    claim(type, where).toBe('application/json');
    return { kind: 'ok', json: JSON.parse(res.body) as unknown };
  }
  claim(res.statusCode, `a 2xx/3xx other than 200: ${where}`).toBeGreaterThanOrEqual(400);
  if (type.startsWith('text/plain')) {
    if (res.statusCode === 415 && mediaType) {
      claim(res.body, where).toBe('Unsupported Media Type');
      return { kind: 'media-type' };
    }
    claim(res.statusCode, `text/plain is only tapir's decode failure (400): ${where}`).toBe(400);
    if (res.body === 'Invalid value for: header Authorization')
      return { kind: 'decode', input: 'header Authorization' };
    claim(res.body, where).toMatch(/^Invalid value for: body \(.+\)$/s);
    return { kind: 'decode', input: 'body' };
  }
  claim(type, `neither JSON nor tapir's text: ${where}`).toBe('application/json');
  const body = JSON.parse(res.body) as CantonBody;
  claim(Object.keys(body).sort(), `every JsCantonError key, nulls kept: ${where}`).toEqual(ERROR_KEYS);
  claim(schemaErrors('canton-error', body), where).toBe('');
  claim(body.code, where).toMatch(/^[A-Z0-9_]+$/);
  claim(GRPC_TO_HTTP[body.grpcCodeValue], `status from grpcCodeValue: ${where}`).toBe(res.statusCode);
  if (body.code === 'NA') {
    claim([401, 403], `only auth errors are redacted: ${where}`).toContain(res.statusCode);
    claim(body.errorCategory, where).toBe(-1);
    claim(body.cause, where).toBe(REDACTED_CAUSE);
  } else {
    claim(GRPC_OF_CATEGORY[body.errorCategory], `category and gRPC code agree: ${where}`).toBe(
      body.grpcCodeValue,
    );
    claim(body.context.category, where).toBe(String(body.errorCategory));
    claim(body.cause.length, where).toBeGreaterThan(0);
  }
  return { kind: 'error', status: res.statusCode, body };
}

/** What a request with this token must get when everything else is valid. */
type AuthOutcome = 'accept' | 'decode-header' | 401 | 403 | '403-unknown-user' | 'any';

const shown = (a: Answer): string =>
  a.kind === 'error' ? `${a.status} ${JSON.stringify(a.body)}` : JSON.stringify(a).slice(0, 400);

/** A 200, or the answer that came instead in the message. */
function expectOk(answer: Answer, where: string): unknown {
  claim(answer.kind, `expected 200, got ${shown(answer)} for ${where}`).toBe('ok');
  return (answer as { json: unknown }).json;
}

function expectAuthOutcome(answer: Answer, expected: AuthOutcome, where: string): void {
  if (expected === 'any') return;
  const got = shown(answer);
  if (expected === 'accept') expectOk(answer, where);
  else if (expected === 'decode-header') {
    claim(answer, `expected the header decoding 400: ${where} (got ${got})`).toEqual({
      kind: 'decode',
      input: 'header Authorization',
    });
  } else {
    const status = expected === '403-unknown-user' ? 403 : expected;
    claim(answer.kind === 'error' && answer.status, `expected ${status}: ${where} (got ${got})`).toBe(status);
    const body = (answer as { body: CantonBody }).body;
    claim(body.code, where).toBe('NA');
    claim(body.context, where).toEqual(
      expected === '403-unknown-user' ? { ledger_api_error: 'invalid token' } : {},
    );
  }
}

// ── tokens ─────────────────────────────────────────────────────────────────────────────────────────────────
const SECRET = createSecretKey(Buffer.from(DEV_DEFAULTS.hmacSecret, 'utf8'));
const OTHER_SECRET = createSecretKey(Buffer.from('not-the-sandbox-secret', 'utf8'));
let rsaKey: Awaited<ReturnType<typeof generateKeyPair>>['privateKey'];
const now = (): number => Math.floor(Date.now() / 1000);
const b64 = (v: unknown): string => Buffer.from(JSON.stringify(v)).toString('base64url');

const sign = (
  claims: Record<string, unknown>,
  key: Parameters<SignJWT['sign']>[0] = SECRET,
  alg = 'HS256',
): Promise<string> => new SignJWT(claims).setProtectedHeader({ alg, typ: 'JWT' }).sign(key);

const userClaims = (extra: Record<string, unknown> = {}): Record<string, unknown> => ({
  sub: 'conformance',
  aud: AUD_PREFIX + PARTICIPANT,
  iat: now() - 5,
  exp: now() + 120,
  ...extra,
});

/** A printable header-value string (what an HTTP client can send), never empty after trimming. */
const printable = (maxLength: number) =>
  fc
    .string({ unit: fc.integer({ min: 0x20, max: 0x7e }).map((c) => String.fromCharCode(c)), maxLength })
    .filter((s) => s.trim() !== '');

/**
 * A token kind, with what a secured operation answers for it when the rest of the request is valid. The
 * `authorization` header to send (undefined: none) is built per run.
 */
interface TokenCase {
  kind: string;
  authorization: string | undefined;
  outcome: AuthOutcome;
}

const bearerOf = (t: string) => `Bearer ${t}`;
const tokenCase = fc.oneof(
  // Valid: the audience form, the scope form (scope string, scp array), extra audiences, a larger token.
  fc.constantFrom('audience', 'scope', 'scp', 'extra-aud', 'big-claim').chain((form) =>
    fc.string({ maxLength: 40 }).map((noise) => async (): Promise<TokenCase> => ({
      kind: `valid (${form})`,
      outcome: 'accept',
      authorization: bearerOf(
        await sign(
          form === 'audience'
            ? userClaims({ nonce: noise })
            : form === 'scope'
              ? userClaims({ aud: undefined, scope: `openid daml_ledger_api ${noise.replace(/\s/g, '')}` })
              : form === 'scp'
                ? userClaims({ aud: undefined, scp: ['daml_ledger_api', noise] })
                : form === 'extra-aud'
                  ? userClaims({ aud: [`https://${noise.length}.example`, AUD_PREFIX + PARTICIPANT] })
                  : userClaims({ blob: noise.repeat(200).padEnd(4000, 'x') }),
        ),
      ),
    })),
  ),
  fc.constant(async (): Promise<TokenCase> => ({
    kind: 'valid, reader (no act rights)',
    outcome: 'accept',
    authorization: bearerOf(await sign(userClaims({ sub: 'reader' }))),
  })),
  // Refused tokens: 401 (redacted).
  fc
    .constantFrom(
      ['expired', { exp: -30 }],
      ['not yet valid', { nbf: 60 }],
      ['issued in the future', { iat: 90 }],
      ['no exp', { exp: null }],
      ['lifetime above the maximum', { exp: 3600 }],
      ['foreign audience', { aud: 'https://example.com/api' }],
      ['neither audience nor scope', { aud: null }],
      ['no sub', { sub: null }],
    )
    .map(([kind, rel]) => async (): Promise<TokenCase> => {
      const claims = userClaims();
      for (const [k, v] of Object.entries(rel as Record<string, number | string | null>)) {
        if (v === null) delete claims[k];
        else claims[k] = typeof v === 'number' ? now() + v : v;
      }
      return { kind: kind, outcome: 401, authorization: bearerOf(await sign(claims)) };
    }),
  fc.constant(async (): Promise<TokenCase> => ({
    kind: 'wrong signature (another secret)',
    outcome: 401,
    authorization: bearerOf(await sign(userClaims(), OTHER_SECRET)),
  })),
  fc.constant(async (): Promise<TokenCase> => ({
    kind: 'wrong algorithm (RS256)',
    outcome: 401,
    authorization: bearerOf(await sign(userClaims(), rsaKey, 'RS256')),
  })),
  fc.constantFrom('', 'c2ln', 'ZmFrZQ').map((sig) => async (): Promise<TokenCase> => ({
    kind: 'alg none',
    outcome: 401,
    authorization: bearerOf(`${b64({ alg: 'none', typ: 'JWT' })}.${b64(userClaims())}.${sig}`),
  })),
  fc.integer({ min: 1, max: 3 }).map((which) => async (): Promise<TokenCase> => {
    // A correctly signed token with one part tampered: the signature no longer matches.
    const [h, p, s] = (await sign(userClaims())).split('.') as [string, string, string];
    const tampered = [h, b64(userClaims({ sub: 'reader' })), s];
    return {
      kind: `tampered part ${which}`,
      outcome: 401,
      authorization: bearerOf(
        which === 1 ? tampered.join('.') : which === 2 ? `${h}.${p}.${s}x` : `${h}.${p}`,
      ),
    };
  }),
  fc
    .oneof(
      printable(200),
      fc.stringMatching(/^[A-Za-z0-9_-]{1,60}\.[A-Za-z0-9_-]{1,60}\.[A-Za-z0-9_-]{0,60}$/),
    )
    .map((garbage) => async (): Promise<TokenCase> => ({
      kind: 'garbage',
      outcome: 401,
      authorization: bearerOf(garbage),
    })),
  fc.integer({ min: 10_000, max: 200_000 }).map((n) => async (): Promise<TokenCase> => ({
    kind: `huge garbage (${n} chars)`,
    outcome: 401,
    authorization: bearerOf(`${'e'.repeat(n)}.${'f'.repeat(n)}.g`),
  })),
  fc
    .constantFrom('Basic Y29uZm9ybWFuY2U6eA==', 'Token abc', 'Digest x', 'Negotiate', 'xyz')
    .map((header) => async (): Promise<TokenCase> => ({
      kind: 'another scheme',
      outcome: 401,
      authorization: header,
    })),
  fc.constant(async (): Promise<TokenCase> => ({
    kind: 'no header',
    outcome: 401,
    authorization: undefined,
  })),
  // Refused later: 403 (redacted).
  fc.constant(async (): Promise<TokenCase> => ({
    kind: 'unknown user',
    outcome: '403-unknown-user',
    authorization: bearerOf(await sign(userClaims({ sub: 'mallory' }))),
  })),
  fc.constant(async (): Promise<TokenCase> => ({
    kind: "another participant's audience",
    outcome: 403,
    authorization: bearerOf(
      await sign(userClaims({ aud: `${AUD_PREFIX}participant9::1220${'b'.repeat(64)}` })),
    ),
  })),
  // Not decodable as a bearer header at all: tapir's 400.
  fc
    .constantFrom('Bearer', 'Bearer ', 'Bearer \t ', 'bearer   ')
    .map((header) => async (): Promise<TokenCase> => ({
      kind: 'empty bearer',
      outcome: 'decode-header',
      authorization: header,
    })),
  // Correctly signed, claims of any shape: whatever the answer, it is one of Canton's.
  fc
    .record(
      {
        sub: fc.oneof(fc.constant('conformance'), fc.jsonValue({ maxDepth: 2 })),
        aud: fc.oneof(fc.constant(AUD_PREFIX + PARTICIPANT), fc.jsonValue({ maxDepth: 2 })),
        scope: fc.oneof(fc.constant('daml_ledger_api'), fc.jsonValue({ maxDepth: 2 })),
        scp: fc.jsonValue({ maxDepth: 2 }),
        exp: fc.oneof(fc.integer({ min: -600, max: 600 }), fc.jsonValue({ maxDepth: 1 })),
        nbf: fc.oneof(fc.integer({ min: -600, max: 600 }), fc.jsonValue({ maxDepth: 1 })),
        iat: fc.oneof(fc.integer({ min: -600, max: 600 }), fc.jsonValue({ maxDepth: 1 })),
      },
      { requiredKeys: [] },
    )
    .map((claims) => async (): Promise<TokenCase> => {
      const c: Record<string, unknown> = { ...claims };
      for (const k of ['exp', 'nbf', 'iat'])
        if (typeof c[k] === 'number' && Number.isInteger(c[k])) c[k] = now() + c[k];
      return { kind: 'odd claims', outcome: 'any', authorization: bearerOf(await sign(c)) };
    }),
);

// ── headers ────────────────────────────────────────────────────────────────────────────────────────────────
const mediaToken = fc.stringMatching(/^[a-z][a-z0-9.+-]{0,12}$/);
/** A well-formed Content-Type (type/subtype and parameters): Canton reads the body as JSON whatever it says. */
const wellFormedType = fc.oneof(
  fc.constantFrom(
    'application/json',
    'application/json; charset=utf-8',
    'APPLICATION/JSON',
    'text/plain',
    'application/x-www-form-urlencoded',
    'application/octet-stream',
    'multipart/form-data; boundary=x',
  ),
  fc
    .tuple(
      mediaToken,
      mediaToken,
      fc.array(
        fc.tuple(
          mediaToken,
          fc.oneof(
            mediaToken,
            mediaToken.map((v) => `"${v} x"`),
          ),
        ),
        {
          maxLength: 3,
        },
      ),
    )
    .map(([t, s, params]) => `${t}/${s}${params.map(([k, v]) => `; ${k}=${v}`).join('')}`),
);
/** Any Content-Type value a client could send, or none. */
const anyType = fc.oneof(
  fc.constant(undefined),
  wellFormedType.map((t) => ({ t, wellFormed: true })),
  fc.oneof(printable(60), fc.constantFrom('', ' ', '/', 'json', 'a/b c', ';', '*/*')).map((t) => ({
    t,
    wellFormed: false,
  })),
);

const TRACEPARENT = fc
  .tuple(
    fc.stringMatching(/^[0-9a-f]{32}$/),
    fc.stringMatching(/^[0-9a-f]{16}$/),
    fc.constantFrom('00', '01'),
  )
  .filter(([t, s]) => !/^0+$/.test(t) && !/^0+$/.test(s))
  .map(([t, s, f]) => `00-${t}-${s}-${f}`);

/** Headers a client may add that change nothing: tracing, caching, proxies, odd names and values. */
const oddHeaders = fc.dictionary(
  fc.oneof(
    fc.constantFrom(
      'traceparent',
      'tracestate',
      'accept',
      'accept-encoding',
      'accept-language',
      'content-encoding',
      'cache-control',
      'x-forwarded-for',
      'x-request-id',
      'user-agent',
      'cookie',
      'origin',
      'if-none-match',
      'range',
      'forwarded',
    ),
    fc.stringMatching(/^x-[a-z0-9-]{1,30}$/),
  ),
  fc.oneof(printable(300), TRACEPARENT, fc.constant('')),
  { maxKeys: 5 },
);

function headersOf(
  authorization: string | undefined,
  type: string | undefined,
  extra: Record<string, string>,
): Record<string, string> {
  const h: Record<string, string> = { ...extra };
  if (type !== undefined) h['content-type'] = type;
  if (authorization !== undefined) h.authorization = authorization;
  return h;
}

/** The request, for failure messages: the Authorization value shortened (tokens can be 200 kB). */
function describe(method: string, url: string, headers: Record<string, string>, body?: unknown): string {
  const shown = Object.fromEntries(
    Object.entries(headers).map(([k, v]) => [k, v.length > 120 ? `${v.slice(0, 120)}…(${v.length})` : v]),
  );
  const text = body === undefined ? '' : typeof body === 'string' ? body : JSON.stringify(body);
  return `${method} ${url} ${JSON.stringify(shown)} ${text.slice(0, 400)}`;
}

// ── valid requests ─────────────────────────────────────────────────────────────────────────────────────────
const LEDGER_STRING = /^[A-Za-z0-9._:#/ -]{1,60}$/;
const ledgerString = fc.stringMatching(LEDGER_STRING);

let sent = 0;
/**
 * The body as sent: its commandId made unique per execution (not per generated value: shrinking re-runs a
 * value, and a repeated change ID would be a legitimate DUPLICATE_COMMAND).
 */
function fresh<T extends Record<string, unknown>>(body: T): T {
  if (typeof body.commandId !== 'string' || body.commandId === '') return body;
  return { ...body, commandId: `${body.commandId}-${BASE_SEED}-${++sent}` };
}

const amount = fc.oneof(
  fc
    .tuple(
      fc.boolean(),
      fc.stringMatching(/^[0-9]{1,28}$/),
      fc.option(fc.stringMatching(/^[0-9]{0,10}$/), { nil: undefined }),
    )
    .map(([neg, i, f]) => `${neg ? '-' : ''}${i}${f === undefined ? '' : `.${f}`}`),
  fc.integer({ min: -1_000_000, max: 1_000_000 }),
  fc.integer({ min: 0, max: 10_000 }).map((n) => n / 4),
);

/** The conformance user's parties, actAs first; the asset's issuer (signatory) is actAs[0]. */
const actAsSet = fc.constantFrom([ALICE], [BOB], [ALICE, BOB], [BOB, ALICE], [ALICE, ALICE]);

const command = (issuer: string) =>
  fc
    .record({
      kind: fc.constantFrom('CreateAndExerciseCommand', 'CreateCommand'),
      templateId: fc.constantFrom(ASSET_BY_NAME, ASSET_BY_ID),
      newOwner: fc.constantFrom(ALICE, BOB, CHARLIE),
      amount,
      label: fc.string({ unit: 'grapheme', maxLength: 80 }),
    })
    .map(({ kind, templateId, newOwner, amount: a, label }) => {
      const createArguments = { issuer, owner: issuer, amount: a, label };
      return kind === 'CreateCommand'
        ? { CreateCommand: { templateId, createArguments } }
        : {
            CreateAndExerciseCommand: {
              templateId,
              createArguments,
              choice: 'Transfer',
              choiceArgument: { newOwner },
            },
          };
    });

const duration = (maxSeconds: number) =>
  fc.record({
    seconds: fc.integer({ min: 0, max: maxSeconds }),
    nanos: fc.integer({ min: 0, max: 999_999_999 }),
  });

/** An ISO-8601 UTC instant in the past, with 0, 3, 6 or 9 fraction digits. */
const pastInstant = fc
  .tuple(
    fc.integer({ min: Date.UTC(1970, 0, 1), max: Date.UTC(2024, 0, 1) }),
    fc.constantFrom(0, 3, 6, 9),
    fc.stringMatching(/^[0-9]{9}$/),
  )
  .map(([ms, digits, frac]) => {
    const base = new Date(ms).toISOString().slice(0, 19);
    return `${base}${digits === 0 ? '' : `.${frac.slice(0, digits)}`}Z`;
  });

/**
 * The valid request's arbitrary for one actAs set, made once per set: made inside `chain`, it was made again for
 * every value drawn, and each stringMatching made tokenises fast-check's default string slices (seconds of CPU
 * per run). Arbitraries are stateless, so the values drawn for a seed are the same.
 */
const submissionFor = new Map<string, ReturnType<typeof submissionOf>>();
const validSubmission = actAsSet.chain((actAs) => {
  const key = actAs.join(',');
  if (!submissionFor.has(key)) submissionFor.set(key, submissionOf(actAs));
  return submissionFor.get(key)!;
});

/** A request valid by every rule of the document and Canton, for the user `conformance`. */
function submissionOf(actAs: readonly [string, ...string[]]) {
  return fc
    .record(
      {
        commands: fc.array(command(actAs[0]), { minLength: 1, maxLength: 3 }),
        commandId: ledgerString,
        actAs: fc.constant(actAs),
        userId: fc.constant('conformance'),
        readAs: fc.subarray([CHARLIE, ALICE, BOB]),
        workflowId: fc.oneof(fc.constant(''), ledgerString),
        submissionId: ledgerString,
        deduplicationPeriod: fc.oneof(
          fc.constant({ Empty: {} }),
          duration(7 * 24 * 3600).map((value) => ({ DeduplicationDuration: { value } })),
          fc.constant({ DeduplicationOffset: { value: 0 } }),
        ),
        ledgerTime: fc.oneof(
          pastInstant.map((t) => ({ minLedgerTimeAbs: t })),
          duration(5).map((d) => ({ minLedgerTimeRel: d })),
        ),
        synchronizerId: fc.constantFrom('', SYNCHRONIZER),
        packageIdSelectionPreference: fc.constantFrom([], [PACKAGE_ID]),
        // Canton ignores fields it does not know.
        unknown: fc.dictionary(fc.stringMatching(/^zz[A-Za-z]{0,10}$/), fc.jsonValue({ maxDepth: 2 }), {
          maxKeys: 2,
        }),
      },
      { requiredKeys: ['commands', 'commandId', 'actAs'] },
    )
    .map(({ ledgerTime, unknown: extra, ...rest }) => ({ ...extra, ...rest, ...ledgerTime }));
}

interface Topology {
  synchronizers: string[];
  participants: string[];
  packageIds: string[];
  packageNames: string[];
  pageTokens: string[];
}
let topo: Topology;
const MAX_PAGE = 100;

const validUid = fc
  .tuple(fc.stringMatching(/^[A-Za-z0-9_ -]{1,40}$/), fc.stringMatching(/^[0-9a-f]{64}$/))
  .filter(([id]) => !id.includes('::') && id.trim() === id)
  .map(([id, hex]) => `${id}::1220${hex}`);

/**
 * A valid ListVettedPackagesRequest: filters from the topology (read in beforeAll, hence a function) or any
 * valid id, a page token from a walk or made for any valid position.
 */
const validListing = (): fc.Arbitrary<Record<string, unknown>> =>
  fc.record(
    {
      pageSize: fc.integer({ min: 0, max: MAX_PAGE }),
      pageToken: fc.oneof(
        fc.constant(''),
        fc.constantFrom(...topo.pageTokens),
        fc.tuple(validUid, validUid).map(([s, p]) => encodePageToken(s, p)),
      ),
      packageMetadataFilter: fc.oneof(
        fc.constant(null),
        fc.record(
          {
            packageIds: fc.array(
              fc.oneof(fc.constantFrom(...topo.packageIds), fc.stringMatching(/^[a-f0-9]{64}$/)),
              { maxLength: 3 },
            ),
            packageNamePrefixes: fc.array(
              fc.oneof(fc.constantFrom(...topo.packageNames), fc.string({ maxLength: 8 })),
              { maxLength: 3 },
            ),
          },
          { requiredKeys: [] },
        ),
      ),
      topologyStateFilter: fc.oneof(
        fc.constant(null),
        fc.record(
          {
            participantIds: fc.array(fc.oneof(validUid, fc.constantFrom(...topo.participants)), {
              maxLength: 3,
            }),
            synchronizerIds: fc.array(fc.oneof(validUid, fc.constantFrom(...topo.synchronizers)), {
              maxLength: 3,
            }),
          },
          { requiredKeys: [] },
        ),
      ),
    },
    { requiredKeys: [] },
  );

/** A listing page of the response schema, no longer than asked, within the topology filter. */
function expectListingPage(json: unknown, body: Record<string, unknown>, where: string): void {
  claim(schemaErrors('vetting-list-response', json), where).toBe('');
  const page = json as { vettedPackages: { participantId: string; synchronizerId: string }[] };
  const size = (body.pageSize as number | undefined) || MAX_PAGE;
  claim(page.vettedPackages.length, where).toBeLessThanOrEqual(size);
  const filter = body.topologyStateFilter as { participantIds?: string[]; synchronizerIds?: string[] } | null;
  for (const e of page.vettedPackages) {
    if (filter?.participantIds?.length) claim(filter.participantIds, where).toContain(e.participantId);
    if (filter?.synchronizerIds?.length) claim(filter.synchronizerIds, where).toContain(e.synchronizerId);
  }
}

/** The transaction tree of the response schema, echoing what was sent, one node per created/exercised event. */
function expectTree(
  json: unknown,
  body: Record<string, unknown>,
  trace: string | undefined,
  where: string,
): void {
  claim(schemaErrors('submit-response', json), where).toBe('');
  const tree = (json as { transactionTree: Record<string, unknown> }).transactionTree;
  claim(tree.commandId, where).toBe(body.commandId);
  claim(tree.workflowId, where).toBe(body.workflowId ?? '');
  claim(tree.synchronizerId, where).toBe(body.synchronizerId || SYNCHRONIZER);
  const nodes = (body.commands as Record<string, unknown>[]).reduce(
    (n, c) => n + ('CreateCommand' in c ? 1 : 3),
    0,
  );
  claim(Object.keys(tree.eventsById as object).length, where).toBe(nodes);
  if (trace !== undefined) {
    claim((tree.traceContext as { traceparent: string }).traceparent.split('-')[1], where).toBe(
      trace.split('-')[1],
    );
  }
}

// ── the sandboxes ──────────────────────────────────────────────────────────────────────────────────────────
let app: FastifyInstance;
let strict: FastifyInstance;
/** The valid token of most requests, minted again a minute before it expires (a long FUZZ_SCALE run outlives it). */
let good: { token: string; exp: number } | undefined;
async function goodBearer(): Promise<string> {
  if (good === undefined || good.exp - now() < 60) {
    const exp = now() + 290;
    good = { token: await sign(userClaims({ exp })), exp };
  }
  return `Bearer ${good.token}`;
}
const crashes: unknown[] = [];
const onCrash = (e: unknown): void => {
  crashes.push(e);
};

test.beforeAll(async () => {
  // The control route too: the batches of 'every operation at once' reach it (an admin route; any other caller
  // is refused after the body is decoded).
  [app, strict] = await Promise.all([
    sandbox({ SANDBOX_CONTROL: 'true' }),
    sandbox({ SANDBOX_CONTROL: 'true', SANDBOX_MODE: 'strict-interface' }),
  ]);
  rsaKey = (await generateKeyPair('RS256')).privateKey;
  // Every page token a walk hands out, and every id of the topology, for the valid generators.
  const pages = await walk(app, {}, 3);
  const entries = pages.flatMap((p) => p.vettedPackages);
  topo = {
    synchronizers: [...new Set(entries.map((e) => e.synchronizerId))],
    participants: [...new Set(entries.map((e) => e.participantId))],
    packageIds: [...new Set(entries.flatMap((e) => e.packages.map((p) => p.packageId)))],
    packageNames: [...new Set(entries.flatMap((e) => e.packages.map((p) => p.packageName)))],
    pageTokens: pages.map((p) => p.nextPageToken).filter((t) => t !== ''),
  };
  expect(topo.pageTokens.length).toBeGreaterThan(1);
  process.on('unhandledRejection', onCrash);
  process.on('uncaughtException', onCrash);
});
test.afterEach(() => {
  expect(crashes, 'unhandled rejections or exceptions while the sandbox served').toEqual([]);
});
test.afterAll(async () => {
  process.off('unhandledRejection', onCrash);
  process.off('uncaughtException', onCrash);
  await Promise.all([app?.close(), strict?.close()]);
});

async function send(
  target: FastifyInstance,
  method: 'GET' | 'POST',
  url: string,
  headers: Record<string, string>,
  payload?: string,
): Promise<LightMyRequestResponse> {
  return target.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
}

test.describe('sandbox fuzz: GET /v2/version', () => {
  test('canton mode: any token, content type, odd headers, query or body → the version document (an empty bearer: 400)', async () => {
    await check(
      1,
      1000,
      fc.asyncProperty(
        tokenCase,
        anyType,
        oddHeaders,
        fc.option(fc.string({ maxLength: 40 }), { nil: undefined }),
        fc.option(fc.string({ unit: binaryUnit, maxLength: 100 }), { nil: undefined }),
        async (mkToken, type, extra, query, payload) => {
          const t = await mkToken();
          const headers = headersOf(t.authorization, type?.t, extra);
          const url = query === undefined ? VERSION : `${VERSION}?${encodeURIComponent(query)}`;
          const where = `${t.kind}: ${describe('GET', url, headers, payload)}`;
          const answer = judge(await send(app, 'GET', url, headers, payload), where, !type?.wellFormed);
          if (t.outcome === 'decode-header') expectAuthOutcome(answer, 'decode-header', where);
          else if (answer.kind !== 'media-type') {
            claim(schemaErrors('version-response', expectOk(answer, where)), where).toBe('');
          }
        },
      ),
    );
  });

  test('strict-interface mode: the token decides — 200 valid, 401/403 redacted per bad kind, 400 empty bearer', async () => {
    await check(
      2,
      800,
      fc.asyncProperty(tokenCase, oddHeaders, async (mkToken, extra) => {
        const t = await mkToken();
        const headers = headersOf(t.authorization, undefined, extra);
        const where = `${t.kind}: ${describe('GET', VERSION, headers)}`;
        const answer = judge(await send(strict, 'GET', VERSION, headers), where);
        expectAuthOutcome(answer, t.outcome, where);
        if (answer.kind === 'ok') claim(schemaErrors('version-response', answer.json), where).toBe('');
      }),
    );
  });
});

test.describe('sandbox fuzz: POST /v2/package-vetting/list', () => {
  test('generated valid requests, any valid token form, any well-formed content type, odd headers → a page', async () => {
    await check(
      3,
      1000,
      fc.asyncProperty(validListing(), wellFormedType, oddHeaders, async (body, type, extra) => {
        const headers = headersOf(await goodBearer(), type, extra);
        const where = describe('POST', VETTING, headers, body);
        const answer = judge(await send(app, 'POST', VETTING, headers, JSON.stringify(body)), where);
        expectListingPage(expectOk(answer, where), body, where);
      }),
    );
  });
});

test.describe('sandbox fuzz: POST /v2/commands/submit-and-wait-for-transaction-tree', () => {
  test('generated valid requests, any well-formed content type, odd headers and a traceparent → accepted with the tree', async () => {
    await check(
      6,
      800,
      fc.asyncProperty(
        validSubmission,
        wellFormedType,
        oddHeaders,
        fc.option(TRACEPARENT, { nil: undefined }),
        async (generated, type, extra, trace) => {
          const body = fresh(generated);
          // "" is proto3's absent string, which Canton reads as such; the schema describes the request without it.
          const withoutEmpty = Object.fromEntries(Object.entries(body).filter(([, v]) => v !== ''));
          claim(
            schemaErrors('submit-request', withoutEmpty),
            `the generator builds valid requests: ${JSON.stringify(body)}`,
          ).toBe('');
          const headers = headersOf(await goodBearer(), type, {
            ...extra,
            ...(trace === undefined ? {} : { traceparent: trace }),
          });
          const where = describe('POST', SUBMIT, headers, body);
          const answer = judge(await send(app, 'POST', SUBMIT, headers, JSON.stringify(body)), where);
          expectTree(expectOk(answer, where), body, trace, where);
        },
      ),
    );
  });
});

test.describe('sandbox fuzz: every operation at once', () => {
  test('concurrent batches of anything — any token, content type, headers, valid or random body — only Canton-shaped answers', async () => {
    const body = fc.oneof(
      validSubmission.map((b) => JSON.stringify(fresh(b))),
      validListing().map((b) => JSON.stringify(b)),
      fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify(v)),
      // Any value under the keys the routes read.
      fc
        .dictionary(fc.constantFrom(...KNOWN_KEYS), fc.jsonValue({ maxDepth: 3 }))
        .map((v) => JSON.stringify(v)),
      fc.string({ unit: binaryUnit, maxLength: 200 }),
    );
    const request = fc.record({
      op: fc.constantFrom<['GET' | 'POST', string]>(
        ['GET', VERSION],
        ['POST', VETTING],
        ['POST', SUBMIT],
        ['POST', CONTROL],
      ),
      mode: fc.constantFrom('canton', 'strict'),
      token: tokenCase,
      type: anyType,
      extra: oddHeaders,
      body,
    });
    await check(
      9,
      200,
      fc.asyncProperty(fc.array(request, { minLength: 1, maxLength: 12 }), async (batch) => {
        await Promise.all(
          batch.map(async ({ op: [method, url], mode, token: mk, type, extra, body: payload }) => {
            const t = await mk();
            const headers = headersOf(t.authorization, type?.t, extra);
            const sent = method === 'GET' ? undefined : payload;
            const where = `${mode} ${t.kind}: ${describe(method, url, headers, sent)}`;
            judge(
              await send(mode === 'strict' ? strict : app, method, url, headers, sent),
              where,
              !type?.wellFormed,
            );
          }),
        );
      }),
    );
  });
});
