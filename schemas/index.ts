// The schema registry: every schema of schemas/ added to one ajv (JSON Schema 2020-12, strict, all errors,
// ajv-formats). The body schemas are validated by ajv's standalone code, compiled once per machine
// (./compiled); anything else (a defs.json definition) by the live ajv, loaded and compiled in a process on
// first use. A broken schema is caught by selftest/schemas/examples.test.ts, which compiles every one.
// The harness's matchers call validate().

import type Ajv2020 from 'ajv/dist/2020';
import type { AnySchemaObject, ErrorObject } from 'ajv/dist/2020';
import { cachedValidator, standaloneModule, type Validator } from './compiled';
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

// allowUnionTypes: nullable fields are written `"type": ["string", "null"]`, which strict mode otherwise
// refuses. validateSchema: false — checking each schema against the 2020-12 meta-schema compiles that
// meta-schema first, in every process; selftest/schemas/examples.test.ts checks them once instead.
// code.source and code.formats let ajv write standalone code (./compiled) that loads the formats from
// ajv-formats.
const OPTIONS = { strict: true, allErrors: true, allowUnionTypes: true, validateSchema: false } as const;

/** The shared ajv instance with every schema added; each compiled on its first use. Loaded on first call. */
export function schemaRegistry(): Ajv2020 {
  if (registry) return registry;
  /* oxlint-disable typescript/no-require-imports -- loaded on first use: most processes never need ajv */
  const { Ajv2020: Ajv, _ } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
  const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
  /* oxlint-enable typescript/no-require-imports */
  const ajv = new Ajv({
    ...OPTIONS,
    code: { source: true, formats: _`require("ajv-formats/dist/formats").fullFormats` },
  });
  addFormats(ajv);
  for (const schema of SCHEMAS) ajv.addSchema(schema);
  registry = ajv;
  return ajv;
}

function resolveId(id: SchemaId | SchemaName | DefRef): string {
  return id in SCHEMA_IDS ? SCHEMA_IDS[id as SchemaName] : id;
}

/** Export name of each body schema in its standalone module (an identifier), by $id. */
const EXPORT_OF: Record<string, string> = Object.fromEntries(
  Object.entries(SCHEMA_IDS).map(([name, id]) => [id, name.replace(/-/g, '_')]),
);

let shape: string | undefined;
const compiled = new Map<string, Validator>();

/**
 * A body schema's standalone validator, one module per schema so that a process with a cold cache compiles only
 * what it validates; keyed by everything that shapes the code (all schemas: they refer to defs.json).
 */
function compiledValidator(id: string, name: string): Validator {
  let check = compiled.get(id);
  if (check) return check;
  /* oxlint-disable typescript/no-require-imports -- versions only */
  shape ??= JSON.stringify({
    ajv: (require('ajv/package.json') as { version: string }).version,
    formats: (require('ajv-formats/package.json') as { version: string }).version,
    options: OPTIONS,
    schemas: SCHEMAS,
  });
  /* oxlint-enable typescript/no-require-imports */
  check = cachedValidator(`${shape}\n${name}`, name, () => {
    const ajv = schemaRegistry();
    const live = ajv.getSchema(id);
    if (!live) throw new Error(`no schema ${id}`);
    return { code: standaloneModule(ajv, { [name]: id }), live };
  });
  compiled.set(id, check);
  return check;
}

function validatorOf(key: string): Validator {
  const name = EXPORT_OF[key];
  if (name !== undefined) return compiledValidator(key, name);
  const check = schemaRegistry().getSchema(key);
  if (!check) throw new Error(`no schema ${key}`);
  return check;
}

/** Validates `data`; returns ajv's errors, empty when valid. */
export function validate(id: SchemaId | SchemaName | DefRef, data: unknown): ErrorObject[] {
  const check = validatorOf(resolveId(id));
  return check(data) ? [] : [...(check.errors ?? [])];
}
