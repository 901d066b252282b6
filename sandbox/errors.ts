// Canton's JsCantonError and the codes the sandbox emits. Every rejection goes through here so the body
// shape, the category and the HTTP status can never disagree (Canton derives the status from grpcCodeValue).

export interface JsCantonError {
  code: string;
  cause: string;
  correlationId: string | null;
  traceId: string | null;
  context: Record<string, string>;
  resources: string[][];
  errorCategory: number;
  grpcCodeValue: number | null;
  retryInfo: string | null;
  definiteAnswer: boolean | null;
}

/** gRPC code → HTTP status, as Canton's GrpcHttpErrorCodes. */
export const GRPC_TO_HTTP: Readonly<Record<number, number>> = {
  0: 200,
  1: 499,
  2: 500,
  3: 400,
  4: 504,
  5: 404,
  6: 409,
  7: 403,
  8: 429,
  9: 400,
  10: 409,
  11: 400,
  12: 501,
  13: 500,
  14: 503,
  15: 500,
  16: 401,
};

/** Canton error categories (ErrorCategory.scala): number, gRPC code, retry hint. */
export const CATEGORY = {
  TransientServerFailure: { id: 1, grpc: 14, retry: '1 second' },
  ContentionOnSharedResources: { id: 2, grpc: 10, retry: '1 second' },
  DeadlineExceededRequestStateUnknown: { id: 3, grpc: 4, retry: '1 second' },
  SystemInternalAssumptionViolated: { id: 4, grpc: 13, retry: null },
  AuthInterceptorInvalidAuthenticationCredentials: { id: 6, grpc: 16, retry: null },
  InsufficientPermission: { id: 7, grpc: 7, retry: null },
  InvalidIndependentOfSystemState: { id: 8, grpc: 3, retry: null },
  InvalidGivenCurrentSystemStateOther: { id: 9, grpc: 9, retry: null },
  InvalidGivenCurrentSystemStateResourceExists: { id: 10, grpc: 6, retry: null },
  InvalidGivenCurrentSystemStateResourceMissing: { id: 11, grpc: 5, retry: null },
} as const;
export type CategoryName = keyof typeof CATEGORY;

/** A rejection carried to the route's reply. Thrown by validators, caught by the app's error handler. */
export class CantonError extends Error {
  constructor(
    readonly status: number,
    readonly body: JsCantonError,
  ) {
    super(`${body.code}: ${body.cause}`);
  }
}

export interface ErrorOptions {
  context?: Record<string, string>;
  resources?: string[][];
  definiteAnswer?: boolean | null;
  traceId?: string | null;
}

/** A non-redacted Canton error: code id, category and cause, with Canton's standard context keys. */
export function cantonError(
  code: string,
  category: CategoryName,
  cause: string,
  opts: ErrorOptions = {},
): CantonError {
  const cat = CATEGORY[category];
  const body: JsCantonError = {
    code,
    cause,
    correlationId: null,
    traceId: opts.traceId ?? null,
    context: {
      ...opts.context,
      category: String(cat.id),
      definite_answer: String(opts.definiteAnswer ?? false),
      ...(opts.traceId ? { tid: opts.traceId } : {}),
    },
    resources: opts.resources ?? [],
    errorCategory: cat.id,
    grpcCodeValue: cat.grpc,
    retryInfo: cat.retry,
    definiteAnswer: opts.definiteAnswer ?? null,
  };
  return new CantonError(GRPC_TO_HTTP[cat.grpc] ?? 500, body);
}

/** Security-sensitive errors are redacted by Canton: code "NA", category -1, the gRPC code kept. */
export function redactedError(grpc: 7 | 16, context: Record<string, string> = {}): CantonError {
  const body: JsCantonError = {
    code: 'NA',
    cause: 'A security-sensitive error has been received',
    correlationId: null,
    traceId: null,
    context,
    resources: [],
    errorCategory: -1,
    grpcCodeValue: grpc,
    retryInfo: null,
    definiteAnswer: null,
  };
  return new CantonError(GRPC_TO_HTTP[grpc] ?? 500, body);
}

export const unauthenticated = (): CantonError => redactedError(16);
export const permissionDenied = (context: Record<string, string> = {}): CantonError =>
  redactedError(7, context);

// The codes used across routes, named as Canton names them.
export const missingField = (field: string): CantonError =>
  cantonError(
    'MISSING_FIELD',
    'InvalidIndependentOfSystemState',
    `The submitted command is missing a mandatory field: ${field}`,
    { context: { field_name: field } },
  );

export const invalidField = (field: string, message: string): CantonError =>
  cantonError(
    'INVALID_FIELD',
    'InvalidIndependentOfSystemState',
    `The submitted command has a field with invalid value: Invalid field ${field}: ${message}`,
    { context: { field_name: field, message } },
  );

export const invalidArgument = (reason: string): CantonError =>
  cantonError(
    'INVALID_ARGUMENT',
    'InvalidIndependentOfSystemState',
    `The submitted request has invalid arguments: ${reason}`,
    { context: { reason } },
  );

export const protoDeserializationFailure = (reason: string): CantonError =>
  cantonError(
    'PROTO_DESERIALIZATION_FAILURE',
    'InvalidIndependentOfSystemState',
    'Deserialization of protobuf message failed',
    {
      context: { reason },
    },
  );

/** Canton's AuthorizationChecksErrors.InvalidToken.MissingUserId: a user-id was needed and the claims have none. */
export const missingUserId = (reason: string): CantonError =>
  cantonError(
    'INVALID_TOKEN',
    'InvalidIndependentOfSystemState',
    `The submitted request is missing a user-id: ${reason}`,
  );

export const internalError = (): CantonError =>
  cantonError('LEDGER_API_INTERNAL_ERROR', 'SystemInternalAssumptionViolated', 'An internal error occurred');
