// The Canton error codes the specs assert, each with the gRPC code and error category Canton gives it (the
// HTTP status follows from the gRPC code: core/grpc-status.ts). Written from Canton's sources as
// docs/canton-behaviour.md cites them (§1.2 for the categories, the submission and vetting tables for the codes);
// the specs read them through fixtures/ (`cantonError`, `invalidRequest`), never as literals.
import { httpStatusOfGrpc } from './grpc-status';

/** The gRPC status codes of Canton's errors the specs meet. */
export const GRPC = {
  INVALID_ARGUMENT: 3,
  ALREADY_EXISTS: 6,
  PERMISSION_DENIED: 7,
  ABORTED: 10,
  UNAUTHENTICATED: 16,
} as const;

/** Canton's error categories the specs meet (base-errors/ErrorCategory.scala); -1: redacted, or no Canton error. */
export const CATEGORY = {
  ContentionOnSharedResources: 2,
  InvalidIndependentOfSystemState: 8,
  InvalidGivenCurrentSystemStateResourceExists: 10,
  Redacted: -1,
} as const;

export interface CantonErrorCode {
  readonly grpc: number;
  readonly category: number;
}

const invalid: CantonErrorCode = {
  grpc: GRPC.INVALID_ARGUMENT,
  category: CATEGORY.InvalidIndependentOfSystemState,
};

export const CANTON_ERRORS = {
  INVALID_FIELD: invalid,
  MISSING_FIELD: invalid,
  INVALID_ARGUMENT: invalid,
  PROTO_DESERIALIZATION_FAILURE: invalid,
  DUPLICATE_COMMAND: {
    grpc: GRPC.ALREADY_EXISTS,
    category: CATEGORY.InvalidGivenCurrentSystemStateResourceExists,
  },
  SUBMISSION_ALREADY_IN_FLIGHT: { grpc: GRPC.ABORTED, category: CATEGORY.ContentionOnSharedResources },
} as const satisfies Record<string, CantonErrorCode>;

export type CantonErrorName = keyof typeof CANTON_ERRORS;

/** The whole expectation of a Canton error by its code: HTTP status, code, gRPC code and category. */
export function cantonErrorOf(code: CantonErrorName): {
  status: number;
  code: CantonErrorName;
  grpcCodeValue: number;
  errorCategory: number;
} {
  const { grpc, category } = CANTON_ERRORS[code];
  return { status: httpStatusOfGrpc(grpc), code, grpcCodeValue: grpc, errorCategory: category };
}

/** The HTTP status of a gRPC code, for an expectation of the status alone (e.g. any PERMISSION_DENIED). */
export const statusOf = (grpc: number): number => httpStatusOfGrpc(grpc);

/** The code of a redacted error (DecodedCantonError.redactedError), whatever it was before. */
export const REDACTED_CODE = 'NA';
