// Held-out mutants ("the suite is also checked against participants broken in ways NOT listed in the
// catalogue"). Each is a small, plausible deviation of a participant from the interface document or Canton,
// different from every fault of sandbox/faults/ (another field, another way of breaking, another operation:
// none breaks a rule's check the same way as a catalogued fault, whose run is then the proof), and each says
// nothing about which rule should catch it: selftest/mutation/mutation.test.ts only asks that the suite does.
//
// They live outside sandbox/ on purpose, as fastify hooks. buildApp() returns a ready app, and fastify refuses
// hooks once an app is ready, so each mutant's hooks sit on a thin front app that forwards every request to a
// freshly built clean sandbox (app.inject: same method, URL, headers and raw body) and answers with what it
// answered. The clean participant the mutants are judged against goes through the same front, without hooks.
import type { AddressInfo } from 'node:net';
import Fastify, { type FastifyInstance, type FastifyRequest } from 'fastify';
import { buildApp } from '../../sandbox/app';
import { loadConfig } from '../../sandbox/config';

export type MutantOperation = 'version' | 'vetting-list' | 'submit-tree';

export interface HeldOutMutant {
  /** kebab-case, unique, and no fault of sandbox/faults has it. */
  name: string;
  operation: MutantOperation;
  /** The deviation, in one sentence a QA engineer understands. */
  breaks: string;
  /** Where the broken behaviour is stated: the document's section, or Canton's behaviour where it is silent. */
  against: string;
  /**
   * Spec files (from the repository root) of another operation the deviation shows in, on top of the
   * operation's own (e.g. a version document that misstates a vetting limit).
   */
  alsoSpecs?: string[];
  /** The mutant's hooks, on the front app before it listens. */
  install(front: FastifyInstance): void;
}

const PATHS: Record<MutantOperation, string> = {
  version: '/v2/version',
  'vetting-list': '/v2/package-vetting/list',
  'submit-tree': '/v2/commands/submit-and-wait-for-transaction-tree',
};

/**
 * The spec files of each operation. auth.spec.ts and general.spec.ts, which hold a test per operation for
 * every operation, are left out: with them every project would run three times the tests it needs.
 */
export const OPERATION_SPECS: Record<MutantOperation, string[]> = {
  version: ['tests/version.spec.ts'],
  'vetting-list': [
    'tests/vetting-filters.spec.ts',
    'tests/vetting-pages.spec.ts',
    'tests/vetting-walks.spec.ts',
  ],
  'submit-tree': [
    'tests/deduplication.spec.ts',
    'tests/submission-ids.spec.ts',
    'tests/submission-shape.spec.ts',
    'tests/submission-times.spec.ts',
    'tests/submission-users.spec.ts',
  ],
};

export const specsOf = (m: HeldOutMutant): string[] => [
  ...new Set([...OPERATION_SPECS[m.operation], ...(m.alsoSpecs ?? [])]),
];

// ─── The front ──────────────────────────────────────────────────────────────────────────────────────────────

/** Headers that describe one hop (the front's own connection), never forwarded either way. */
const HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length', 'date', 'host']);

export interface Participant {
  url: string;
  close(): Promise<void>;
}

/**
 * A clean sandbox (the conformance run's settings, control route on) behind a front app carrying `mutant`'s
 * hooks (none: the clean participant), listening on 127.0.0.1, a free port.
 */
export async function startParticipant(mutant?: HeldOutMutant): Promise<Participant> {
  const sandbox = await buildApp(
    loadConfig({ ...process.env, SANDBOX_FAULTS: '', SANDBOX_CONTROL: 'true', LOG_LEVEL: '' }),
  );
  // Bodies pass through untouched and unparsed; the sandbox keeps its own limit (8 MiB: 413 beyond it).
  const front = Fastify({ logger: false, bodyLimit: 64 * 1024 * 1024 });
  front.removeAllContentTypeParsers();
  front.addContentTypeParser('*', { parseAs: 'buffer' }, (_req, body, done) => done(null, body));
  mutant?.install(front);
  front.all('/*', async (req, reply) => {
    const headers = Object.fromEntries(Object.entries(req.headers).filter(([k]) => !HOP.has(k)));
    const res = await sandbox.inject({
      method: req.method as 'GET',
      url: req.url,
      headers: headers as Record<string, string>,
      ...(Buffer.isBuffer(req.body) ? { payload: req.body } : {}),
    });
    reply.code(res.statusCode);
    for (const [k, v] of Object.entries(res.headers)) if (!HOP.has(k) && v !== undefined) reply.header(k, v);
    return reply.send(res.rawPayload);
  });
  await front.listen({ host: '127.0.0.1', port: 0 });
  return {
    url: `http://127.0.0.1:${(front.server.address() as AddressInfo).port}`,
    close: async () => {
      await front.close();
      await sandbox.close();
    },
  };
}

// ─── Hook helpers ───────────────────────────────────────────────────────────────────────────────────────────

type Json = Record<string, unknown>;

interface Answer {
  status: number;
  body: unknown;
}

const pathOf = (req: FastifyRequest): string => req.url.split('?')[0] ?? '';

const parse = (raw: unknown): unknown => {
  const text = Buffer.isBuffer(raw) ? raw.toString('utf8') : typeof raw === 'string' ? raw : undefined;
  if (text === undefined) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
};

const isObject = (v: unknown): v is Json => v !== null && typeof v === 'object' && !Array.isArray(v);

/** Rewrites the JSON answers of one operation (onSend); `change` returns the new answer or undefined. */
function onAnswer(
  front: FastifyInstance,
  op: MutantOperation,
  change: (answer: Answer) => Answer | undefined,
): void {
  front.addHook('onSend', async (req, reply, payload) => {
    if (pathOf(req) !== PATHS[op]) return payload;
    if (!/^application\/json/i.test(String(reply.getHeader('content-type') ?? ''))) return payload;
    const body = parse(payload);
    if (body === undefined) return payload;
    const next = change({ status: reply.statusCode, body });
    if (next === undefined) return payload;
    reply.code(next.status);
    return JSON.stringify(next.body);
  });
}

/**
 * Rewrites the JSON request body of one operation before it reaches the participant (preHandler). Bodies it
 * cannot handle (not JSON, nested too deep to rewrite) go through unchanged: the front must never be the one
 * that fails.
 */
function onRequestBody(
  front: FastifyInstance,
  op: MutantOperation,
  change: (body: Json) => Json | undefined,
) {
  front.addHook('preHandler', async (req) => {
    if (pathOf(req) !== PATHS[op]) return;
    try {
      const body = parse(req.body);
      const next = isObject(body) ? change({ ...body }) : undefined;
      if (next !== undefined) req.body = Buffer.from(JSON.stringify(next));
    } catch {
      // unchanged
    }
  });
}

/** A successful answer's body, edited in place (the body is a fresh parse). */
const on200 =
  (edit: (body: Json) => void) =>
  (a: Answer): Answer | undefined => {
    if (a.status !== 200 || !isObject(a.body)) return undefined;
    edit(a.body);
    return a;
  };

/** The events of a tree: `{ kind, value }` per eventsById entry. */
function events(body: Json): { kind: string; value: Json }[] {
  const tree = body.transactionTree;
  if (!isObject(tree) || !isObject(tree.eventsById)) return [];
  return Object.values(tree.eventsById).flatMap((entry) =>
    isObject(entry)
      ? Object.entries(entry).flatMap(([kind, v]) =>
          isObject(v) && isObject(v.value) ? [{ kind, value: v.value }] : [],
        )
      : [],
  );
}

/** The version document's maxOffsetCheckpointEmissionDelay and the object holding it. */
function delayOf(doc: Json): { holder: Json; delay: Json } | undefined {
  const holder = (doc.features as Json | undefined)?.offsetCheckpoint;
  if (!isObject(holder) || !isObject(holder.maxOffsetCheckpointEmissionDelay)) return undefined;
  return { holder, delay: holder.maxOffsetCheckpointEmissionDelay };
}

// ─── The mutants ────────────────────────────────────────────────────────────────────────────────────────────

export const HELD_OUT_MUTANTS: readonly HeldOutMutant[] = [
  // ── GET /v2/version ──────────────────────────────────────────────────────────────────────────────────────
  {
    name: 'held-version-prerelease-underscore',
    operation: 'version',
    breaks:
      'the version carries a build label with an underscore ("3.4.11-rc_1"), which SemVer does not allow',
    against:
      'Canton: the version string is SemVer 2.0, pre-release identifiers of [0-9A-Za-z-] (§9.4 not shown)',
    install: (front) =>
      onAnswer(
        front,
        'version',
        on200((doc) => void (doc.version = `${String(doc.version).split(/[-+]/)[0]}-rc_1`)),
      ),
  },
  {
    name: 'held-version-duration-proto-string',
    operation: 'version',
    breaks:
      'maxOffsetCheckpointEmissionDelay is protobuf’s canonical JSON string "75s", not {seconds, nanos}',
    against: '§2.9: maxOffsetCheckpointEmissionDelay is a Duration: seconds (integer), nanos (integer)',
    install: (front) =>
      onAnswer(
        front,
        'version',
        on200((doc) => {
          const d = delayOf(doc);
          if (d) d.holder.maxOffsetCheckpointEmissionDelay = `${String(d.delay.seconds)}s`;
        }),
      ),
  },
  {
    name: 'held-version-unknown-fields-empty',
    operation: 'version',
    breaks: 'the Duration’s unknownFields is an empty object, without its key "fields"',
    against: '§2.9: unknownFields is an object with key fields holding an object',
    install: (front) =>
      onAnswer(
        front,
        'version',
        on200((doc) => {
          const d = delayOf(doc);
          if (d) d.delay.unknownFields = {};
        }),
      ),
  },
  {
    name: 'held-version-page-size-overstated',
    operation: 'version',
    breaks: 'the version advertises twice the vetting page size the vetting list accepts',
    against:
      '§4.2 Pagination 7: "The maximum is features.packageFeature.maxVettedPackagesPageSize from the version operation"',
    alsoSpecs: OPERATION_SPECS['vetting-list'],
    install: (front) =>
      onAnswer(
        front,
        'version',
        on200((doc) => {
          const pf = (doc.features as Json | undefined)?.packageFeature as Json | undefined;
          if (pf && typeof pf.maxVettedPackagesPageSize === 'number') pf.maxVettedPackagesPageSize *= 2;
        }),
      ),
  },

  // ── POST /v2/package-vetting/list ─────────────────────────────────────────────────────────────────────────
  {
    name: 'held-vetting-first-entry-twice',
    operation: 'vetting-list',
    breaks: 'every page lists its first entry twice, side by side',
    against:
      '§4.2 Pagination 2–3: a walk gives every entry once, each page after the previous page’s last entry',
    install: (front) =>
      onAnswer(
        front,
        'vetting-list',
        on200((page) => {
          const entries = page.vettedPackages;
          if (Array.isArray(entries) && entries.length > 0) entries.splice(1, 0, structuredClone(entries[0]));
        }),
      ),
  },
  {
    name: 'held-vetting-valid-until-empty-string',
    operation: 'vetting-list',
    breaks:
      'a package vetted without end has validUntilExclusive "" (protobuf’s default string) instead of null',
    against:
      'Canton: validUntilExclusive is an ISO-8601 UTC instant, or null/absent when the vetting has no end (§2.8)',
    install: (front) =>
      onAnswer(
        front,
        'vetting-list',
        on200((page) => {
          for (const e of Array.isArray(page.vettedPackages) ? page.vettedPackages : []) {
            for (const p of isObject(e) && Array.isArray(e.packages) ? e.packages : []) {
              if (isObject(p) && (p.validUntilExclusive ?? null) === null) p.validUntilExclusive = '';
            }
          }
        }),
      ),
  },
  {
    name: 'held-vetting-topology-filter-first-page-only',
    operation: 'vetting-list',
    breaks:
      'the topologyStateFilter applies to the first page only: a request with a pageToken lists unfiltered',
    against:
      '§4.2: an entry is returned when it matches both filters; §4.2 Pagination 2: the next page is the same request with the token',
    install: (front) =>
      onRequestBody(front, 'vetting-list', (body) => {
        if (typeof body.pageToken !== 'string' || body.pageToken === '' || !('topologyStateFilter' in body))
          return undefined;
        const { topologyStateFilter: _dropped, ...rest } = body;
        return rest;
      }),
  },
  {
    name: 'held-vetting-error-context-dropped',
    operation: 'vetting-list',
    breaks: 'error bodies of the vetting list leave out the context object',
    against:
      'Canton: a JsCantonError always carries code, cause, context and errorCategory (its OpenAPI’s required set)',
    install: (front) =>
      onAnswer(front, 'vetting-list', (a) => {
        if (a.status < 400 || !isObject(a.body) || !('context' in a.body)) return undefined;
        const { context: _dropped, ...rest } = a.body;
        return { ...a, body: rest };
      }),
  },

  // ── POST /v2/commands/submit-and-wait-for-transaction-tree ─────────────────────────────────────────────────
  {
    name: 'held-submit-witnesses-empty',
    operation: 'submit-tree',
    breaks: 'every event of the tree has an empty witnessParties list',
    against:
      'Canton: the tree is the transaction as the actAs parties see it; each event names its witnesses among them',
    install: (front) =>
      onAnswer(
        front,
        'submit-tree',
        on200((body) => {
          for (const e of events(body)) e.value.witnessParties = [];
        }),
      ),
  },
  {
    name: 'held-submit-event-offset-default',
    operation: 'submit-tree',
    breaks: 'the events carry offset 0 (protobuf’s default) instead of their transaction’s offset',
    against: 'Canton: each event carries the offset of the transaction it belongs to',
    install: (front) =>
      onAnswer(
        front,
        'submit-tree',
        on200((body) => {
          for (const e of events(body)) e.value.offset = 0;
        }),
      ),
  },
  {
    name: 'held-submit-missing-right-unauthenticated',
    operation: 'submit-tree',
    breaks: 'acting or reading as a party without the right is answered 401 (UNAUTHENTICATED), not 403',
    against: '§5.2 with Canton: a missing right is PERMISSION_DENIED, 403, redacted',
    install: (front) =>
      onAnswer(front, 'submit-tree', (a) =>
        a.status === 403 && isObject(a.body) && a.body.grpcCodeValue === 7
          ? { status: 401, body: { ...a.body, grpcCodeValue: 16 } }
          : undefined,
      ),
  },
  {
    name: 'held-submit-field-name-json-cased',
    operation: 'submit-tree',
    breaks:
      'MISSING_FIELD and INVALID_FIELD errors name the field by its JSON name (commandId), not command_id',
    against:
      'Canton: the error context names the field as the Ledger API does, e.g. MISSING_FIELD command_id',
    install: (front) =>
      onAnswer(front, 'submit-tree', (a) => {
        if (!isObject(a.body) || !isObject(a.body.context)) return undefined;
        const name = a.body.context.field_name;
        if (typeof name !== 'string' || !name.includes('_')) return undefined;
        const camel = name.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
        return { ...a, body: { ...a.body, context: { ...a.body.context, field_name: camel } } };
      }),
  },
];
