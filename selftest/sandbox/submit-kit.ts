// Shared by the submit-route self-tests: an in-process sandbox (fastify inject, no sockets) and Canton user
// tokens (both support/sandbox-kit.ts's), a valid default request (the harness's CreateAndExercise
// Asset/Transfer) that each test mutates once, and assertions on Canton's error shape (plain ones:
// support/claim.ts, as the tests call them in loops of hundreds).
import { randomUUID } from 'node:crypto';
import type { FastifyInstance, LightMyRequestResponse } from 'fastify';
import { DEV_DEFAULTS, devParty } from '../../sandbox/config';
import { SUBMIT_TREE_PATH } from '../../sandbox/routes/submit';
import { BUILTIN_PACKAGE } from '../../sandbox/vetting/builtin-package';
import { claim } from '../support/claim';
import { ERROR_KEYS, sandbox, token, withSandbox } from '../support/sandbox-kit';

export const PATH = SUBMIT_TREE_PATH;
export const ALICE = devParty('Alice');
export const BOB = devParty('Bob');
export const CHARLIE = devParty('Charlie');
export const SYNCHRONIZER = DEV_DEFAULTS.synchronizerId;
export const PACKAGE_ID = BUILTIN_PACKAGE.packageId;
export const ASSET_BY_NAME = '#conformance-sandbox:Conformance:Asset';
export const ASSET_BY_ID = `${PACKAGE_ID}:Conformance:Asset`;

/** The first release with Commands.tapsMaxPasses (earlier ones ignore the field). */
export const TAPS_RELEASE = { SANDBOX_VERSION: '3.4.12' };

export { sandbox, withSandbox };

/** A Canton user token of `sub`: sandbox-kit's `token` (audience form, HS256, dev secret, two minutes). */
export const userToken = (sub = 'conformance'): Promise<string> => token({ claims: { sub } });

export const uid = (prefix = 'cmd'): string => `${prefix}-${randomUUID()}`;

export const createAndTransfer = (
  issuer = ALICE,
  newOwner = BOB,
  templateId = ASSET_BY_NAME,
  label = 'label',
) => ({
  CreateAndExerciseCommand: {
    templateId,
    createArguments: { issuer, owner: issuer, amount: '10.5', label },
    choice: 'Transfer',
    choiceArgument: { newOwner },
  },
});

export const createAsset = (issuer = ALICE, owner = ALICE, templateId = ASSET_BY_NAME, label = 'label') => ({
  CreateCommand: { templateId, createArguments: { issuer, owner, amount: '1', label } },
});

export const exercise = (
  contractId: string,
  choice: string,
  choiceArgument: unknown = {},
  templateId = ASSET_BY_NAME,
) => ({
  ExerciseCommand: { templateId, contractId, choice, choiceArgument },
});

/** The valid default request: one CreateAndExercise, actAs Alice, a fresh commandId. */
export function request(overrides: Record<string, unknown> = {}): Record<string, unknown> {
  return { commands: [createAndTransfer()], commandId: uid(), actAs: [ALICE], ...overrides };
}

export interface SubmitOptions {
  /** A bearer token; null sends no Authorization header. Default: a fresh `conformance` user token. */
  token?: string | null;
  headers?: Record<string, string>;
}

export async function submit(
  app: FastifyInstance,
  body: unknown,
  opts: SubmitOptions = {},
): Promise<LightMyRequestResponse> {
  const token = opts.token === undefined ? await userToken() : opts.token;
  const headers: Record<string, string> = { 'content-type': 'application/json', ...opts.headers };
  if (token !== null) headers.authorization = `Bearer ${token}`;
  return app.inject({
    method: 'POST',
    url: PATH,
    headers,
    payload: typeof body === 'string' ? body : JSON.stringify(body),
  });
}

export interface Tree {
  updateId: string;
  commandId: string;
  workflowId: string;
  effectiveAt: string;
  offset: number;
  eventsById: Record<
    string,
    {
      CreatedTreeEvent?: { value: Record<string, unknown> };
      ExercisedTreeEvent?: { value: Record<string, unknown> };
    }
  >;
  synchronizerId: string;
  traceContext: { traceparent: string; tracestate: string | null };
  recordTime: string;
}

/** Asserts a 200 and returns the transaction tree. */
export function accepted(res: LightMyRequestResponse): Tree {
  claim(res.statusCode, `expected 200, got ${res.statusCode} ${res.body}`).toBe(200);
  claim(res.headers['content-type']).toBe('application/json');
  return (JSON.parse(res.body) as { transactionTree: Tree }).transactionTree;
}

const createdValue = (tree: Tree, node: number): Record<string, unknown> => {
  const v = tree.eventsById[String(node)]?.CreatedTreeEvent?.value;
  claim(v, `node ${node} is a CreatedTreeEvent`).toBeDefined();
  return v as Record<string, unknown>;
};
export const created = createdValue;
export const exercised = (tree: Tree, node: number): Record<string, unknown> => {
  const v = tree.eventsById[String(node)]?.ExercisedTreeEvent?.value;
  claim(v, `node ${node} is an ExercisedTreeEvent`).toBeDefined();
  return v as Record<string, unknown>;
};

export interface ExpectedError {
  status: number;
  code: string;
  category: number;
  grpc: number;
  /** A substring (or the whole text) the cause must contain. */
  cause?: string;
  context?: Record<string, string>;
}

/** Canton's JsCantonError: status, code, category and gRPC code asserted separately, every key present. */
export function rejected(res: LightMyRequestResponse, e: ExpectedError): Record<string, unknown> {
  const what = `expected ${e.code} (${e.status}), got ${res.statusCode} ${res.body}`;
  claim(res.statusCode, what).toBe(e.status);
  claim(res.headers['content-type'], what).toBe('application/json');
  const body = JSON.parse(res.body) as Record<string, unknown>;
  claim(Object.keys(body).sort()).toEqual(ERROR_KEYS);
  claim(body.code, what).toBe(e.code);
  claim(body.errorCategory, what).toBe(e.category);
  claim(body.grpcCodeValue, what).toBe(e.grpc);
  if (e.category > 0) claim((body.context as Record<string, string>).category).toBe(String(e.category));
  if (e.cause !== undefined) claim(body.cause, what).toContain(e.cause);
  if (e.context) claim(body.context, what).toMatchObject(e.context);
  return body;
}

export const invalidArgument = (cause?: string): ExpectedError => ({
  status: 400,
  code: 'INVALID_ARGUMENT',
  category: 8,
  grpc: 3,
  cause,
});
export const invalidField = (field: string, cause?: string): ExpectedError => ({
  status: 400,
  code: 'INVALID_FIELD',
  category: 8,
  grpc: 3,
  cause: cause ?? `Invalid field ${field}:`,
  context: { field_name: field },
});
export const missingField = (field: string): ExpectedError => ({
  status: 400,
  code: 'MISSING_FIELD',
  category: 8,
  grpc: 3,
  cause: `The submitted command is missing a mandatory field: ${field}`,
  context: { field_name: field },
});

/** The redacted 401/403 (code NA, category -1). */
export function redactedError(res: LightMyRequestResponse, status: 401 | 403): Record<string, unknown> {
  claim(res.statusCode, `expected ${status}, got ${res.statusCode} ${res.body}`).toBe(status);
  const body = JSON.parse(res.body) as Record<string, unknown>;
  claim(body).toMatchObject({
    code: 'NA',
    cause: 'A security-sensitive error has been received',
    errorCategory: -1,
    grpcCodeValue: status === 401 ? 16 : 7,
  });
  return body;
}

/** tapir's 400 text/plain "Invalid value for: body (…)". */
export function decodeFailed(res: LightMyRequestResponse, detail?: string): void {
  claim(res.statusCode, `expected 400 text/plain, got ${res.statusCode} ${res.body}`).toBe(400);
  claim(res.headers['content-type']).toMatch(/^text\/plain/);
  claim(res.body).toMatch(/^Invalid value for: body/);
  if (detail !== undefined) claim(res.body).toContain(detail);
}

/** Instant.toString: ISO-8601 UTC, 0/3/6 fraction digits. */
export const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{3}|\.\d{6})?Z$/;
export const micros = (instant: string): number => {
  const m = /^(.*?)(?:\.(\d+))?Z$/.exec(instant);
  return Date.parse(`${m?.[1] ?? ''}Z`) * 1000 + Number((m?.[2] ?? '').padEnd(6, '0').slice(0, 6));
};
