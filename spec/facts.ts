// The shape of spec/canton-<version>.json: facts extracted from Canton's published OpenAPI for the three
// operations of the interface document. Facts only (names, types, required sets, nullability) — no prose —
// so the schema self-test can hold the hand-written schemas against them without Canton's own files.

/** One type as the OpenAPI states it. Exactly one of `ref`, `oneOf`, `type` is set. */
export interface TypeFact {
  /** A component of `components.schemas`, by name. */
  ref?: string;
  /** The variants, in the order of the OpenAPI. */
  oneOf?: TypeFact[];
  /** `any` is the OpenAPI's empty schema `{}` (arbitrary JSON, e.g. Daml values). */
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'array' | 'object' | 'any';
  format?: string;
  enum?: (string | number | boolean | null)[];
  /** Arrays. */
  items?: TypeFact;
  minItems?: number;
  maxItems?: number;
  /** Objects with named properties (in the order of the OpenAPI). */
  properties?: Record<string, TypeFact>;
  required?: string[];
  /** Objects used as maps: the type of every value. */
  additionalProperties?: TypeFact;
  nullable: boolean;
}

/** One HTTP operation and the components of its bodies. */
export interface OperationFact {
  method: 'get' | 'post';
  path: string;
  deprecated: boolean;
  security: string[];
  /** The component of the JSON request body, or null when the operation has no body. */
  request: string | null;
  /** Status (or "default") → what the body is: a JSON component or a plain-text string. */
  responses: Record<string, { contentType: string; ref?: string; type?: 'string' }>;
  /** Convenience: the 200 component and the JSON error component ("default"). */
  success: string;
  error: string;
}

/** The three operations under the harness's names for them. */
export type OperationKey = 'submitTree' | 'vettingList' | 'version';

export interface SpecFacts {
  /** The Canton release the OpenAPI file is published for (from the file name). */
  cantonVersion: string;
  source: { file: string; sha256: string; openapi: string; infoVersion: string };
  operations: Record<OperationKey, OperationFact>;
  /** Every component reachable from the three operations, flattened, sorted by name. */
  components: Record<string, TypeFact>;
}

/** A participant's own description, read live: an operation it does not describe is absent. */
export interface DescriptionFacts {
  source: SpecFacts['source'];
  operations: Partial<Record<OperationKey, OperationFact>>;
  components: Record<string, TypeFact>;
}
