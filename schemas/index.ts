// The schema registry: every schema of schemas/ added to one ajv (JSON Schema 2020-12, strict, all errors,
// ajv-formats), each compiled once per process — i.e. once per Playwright worker — when first used, and cached.
// A broken schema is caught by selftest/schemas.test.ts, which compiles every one.
// The harness's matchers call validate(); fixtures may reuse the id grammars through grammar().

import Ajv2020 from 'ajv/dist/2020';
import type { AnySchemaObject, ErrorObject } from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import cantonError from './canton-error.json';
import defs from './defs.json';
import submitRequest from './submit-request.json';
import submitResponse from './submit-response.json';
import versionResponse from './version-response.json';
import vettingListRequest from './vetting-list-request.json';
import vettingListResponse from './vetting-list-response.json';

const BASE = 'https://ledger-conformance/schemas/';

/** The stable `$id` of every body schema, by name (the file name in schemas/ without `.json`). */
export const SCHEMA_IDS = {
  'version-response': `${BASE}version-response.json`,
  'vetting-list-request': `${BASE}vetting-list-request.json`,
  'vetting-list-response': `${BASE}vetting-list-response.json`,
  'submit-request': `${BASE}submit-request.json`,
  'submit-response': `${BASE}submit-response.json`,
  'canton-error': `${BASE}canton-error.json`,
} as const;

export const DEFS_ID = `${BASE}defs.json` as const;

export type SchemaName = keyof typeof SCHEMA_IDS;
export type SchemaId = (typeof SCHEMA_IDS)[SchemaName];
export type DefName = keyof typeof defs.$defs;
/** A shared definition addressed on its own, e.g. `…/defs.json#/$defs/LedgerString`. */
export type DefRef = `${typeof DEFS_ID}#/$defs/${DefName}`;

/** Every schema document, defs first (the others refer to it). */
export const SCHEMAS: readonly AnySchemaObject[] = [
  defs,
  versionResponse,
  vettingListRequest,
  vettingListResponse,
  submitRequest,
  submitResponse,
  cantonError,
];

export function defRef(name: DefName): DefRef {
  return `${DEFS_ID}#/$defs/${name}`;
}

let registry: Ajv2020 | undefined;

/** The shared ajv instance with every schema added; each compiled on its first use (a fault run's worker
 * often needs one or two of them, and compiling all costs a tenth of a second per worker). */
export function schemaRegistry(): Ajv2020 {
  if (registry) return registry;
  // allowUnionTypes: nullable fields are written `"type": ["string", "null"]`, which strict mode
  // otherwise refuses. validateSchema: false — checking each schema against the 2020-12 meta-schema compiles
  // that meta-schema first, 0.1 s in every worker; selftest/schemas.test.ts checks them once instead.
  const ajv = new Ajv2020({ strict: true, allErrors: true, allowUnionTypes: true, validateSchema: false });
  addFormats(ajv);
  for (const schema of SCHEMAS) ajv.addSchema(schema);
  registry = ajv;
  return ajv;
}

function resolveId(id: SchemaId | SchemaName | DefRef): string {
  return id in SCHEMA_IDS ? SCHEMA_IDS[id as SchemaName] : id;
}

/** Validates `data`; returns ajv's errors, empty when valid. */
export function validate(id: SchemaId | SchemaName | DefRef, data: unknown): ErrorObject[] {
  const key = resolveId(id);
  const check = schemaRegistry().getSchema(key);
  if (!check) throw new Error(`no schema ${key}`);
  return check(data) ? [] : [...(check.errors ?? [])];
}

/** An id grammar of defs.json as data, for generators of valid and invalid values. */
export interface Grammar {
  pattern: string;
  minLength?: number;
  maxLength?: number;
}

export function grammar(name: DefName): Grammar {
  const def = defs.$defs[name] as { pattern?: string; minLength?: number; maxLength?: number };
  if (def.pattern === undefined) throw new Error(`${name} is not a string grammar`);
  return { pattern: def.pattern, minLength: def.minLength, maxLength: def.maxLength };
}
