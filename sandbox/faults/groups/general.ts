// Faults that break the general rules (GEN-*, tests/general.spec.ts): content types, error bodies and 5xx
// answers, each a rewrite of the response. `rules` lists every rule the fault makes fail, the auth rules
// included where an error body's change breaks theirs too.
import type { FastifyRequest } from 'fastify';
import { fault, type ResponseView } from '../types';
import { AUTH_401, AUTH_403, type ErrorBody } from './auth';

const TEXT = 'text/plain; charset=UTF-8';

/** Only successful answers (status 200). */
const on200 =
  (apply: (res: ResponseView) => ResponseView) =>
  (res: ResponseView): ResponseView | undefined =>
    res.status === 200 ? apply(res) : undefined;

/** Canton's LEDGER_API_INTERNAL_ERROR body (category 4, INTERNAL → 500). */
const internalError = (res: ResponseView): ResponseView => ({
  ...res,
  status: 500,
  body: {
    code: 'LEDGER_API_INTERNAL_ERROR',
    cause: 'An internal error occurred',
    correlationId: null,
    traceId: null,
    context: { category: '4', definite_answer: 'false' },
    resources: [],
    errorCategory: 4,
    grpcCodeValue: 13,
    retryInfo: null,
    definiteAnswer: null,
  },
});

/** How deep a parsed JSON value nests (iteratively: the value may be deeper than the stack). */
function depthOf(value: unknown, limit: number): number {
  let max = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [node, depth] = stack.pop()!;
    if (node === null || typeof node !== 'object') continue;
    max = Math.max(max, depth + 1);
    if (max > limit) return max;
    for (const child of Object.values(node)) stack.push([child, depth + 1]);
  }
  return max;
}

export const generalFaults = [
  fault({
    name: 'gen-version-as-text',
    breaks: 'GET /v2/version serves its JSON as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE'],
    rewrite: { route: 'version', apply: on200((res) => ({ ...res, contentType: TEXT })) },
  }),
  fault({
    name: 'gen-vetting-as-text',
    breaks: 'a vetting page is served as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE'],
    rewrite: { route: 'vetting-list', apply: on200((res) => ({ ...res, contentType: TEXT })) },
  }),
  fault({
    name: 'gen-submit-as-text',
    breaks: 'an accepted submission is served as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE-SUBMIT'],
    rewrite: { route: 'submit-tree', apply: on200((res) => ({ ...res, contentType: TEXT })) },
  }),
  fault({
    name: 'gen-errors-as-text',
    breaks: 'JsCantonError bodies of 400 answers are served as text/plain',
    rules: ['GEN-JSON-CONTENT-TYPE', 'GEN-ERROR-BODY'],
    rewrite: {
      route: 'any',
      apply: (res) => (res.status === 400 ? { ...res, contentType: TEXT } : undefined),
    },
  }),
  fault({
    name: 'gen-status-disagrees',
    breaks: 'INVALID_ARGUMENT errors (grpcCodeValue 3) are answered 422 instead of 400',
    rules: ['GEN-ERROR-BODY'],
    rewrite: {
      route: 'any',
      apply: (res) =>
        res.status === 400 && (res.body as ErrorBody)?.grpcCodeValue === 3
          ? { ...res, status: 422 }
          : undefined,
    },
  }),
  fault({
    name: 'gen-grpc-code-null',
    breaks: 'error bodies carry grpcCodeValue null while the status says otherwise',
    rules: ['GEN-ERROR-BODY', ...AUTH_401, ...AUTH_403],
    rewrite: {
      route: 'any',
      apply: (res) =>
        res.status >= 400 && typeof (res.body as ErrorBody)?.grpcCodeValue === 'number'
          ? { ...res, body: { ...(res.body as object), grpcCodeValue: null } }
          : undefined,
    },
  }),
  fault({
    name: 'gen-5xx-deep-nesting',
    breaks: 'a request body nested deeper than 1000 levels crashes the request (500)',
    rules: ['GEN-NO-5XX'],
    rewrite: {
      route: 'any',
      apply: (res, req: FastifyRequest) => (depthOf(req.body, 1000) > 1000 ? internalError(res) : undefined),
    },
  }),
  fault({
    name: 'gen-5xx-odd-accept',
    breaks: 'GET /v2/version answers 500 when the client accepts only XML',
    rules: ['GEN-NO-5XX'],
    rewrite: {
      route: 'version',
      apply: (res, req: FastifyRequest) =>
        /xml/i.test(req.headers.accept ?? '') && !/json|\*\/\*/i.test(req.headers.accept ?? '')
          ? internalError(res)
          : undefined,
    },
  }),
];
