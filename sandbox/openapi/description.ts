// The OpenAPI document the sandbox serves at GET /docs/openapi: the three operations and the components of
// their bodies as the Canton release it plays publishes them, rebuilt from the facts committed in spec/
// (extracted from Canton's own openapi-<version>.yaml). Facts only, so no prose and no examples: a trimmed
// document that works offline. Reading it back with spec/extract.ts gives the same facts, which a self-test holds.
import type { OperationFact, SpecFacts, TypeFact } from '../../spec/facts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

type Schema = Record<string, unknown>;

/** The published description of the release line the sandbox's version belongs to (3.4 before 3.5.0). */
export function factsFor(version: string): SpecFacts {
  const [major = 0, minor = 0] = version.split('.').map((n) => Number.parseInt(n, 10));
  const older = major < 3 || (major === 3 && minor < 5);
  const file = join(__dirname, '..', '..', 'spec', `canton-${older ? '3.4.11' : '3.5.10'}.json`);
  return JSON.parse(readFileSync(file, 'utf8')) as SpecFacts;
}

/** One TypeFact back into the OpenAPI schema it was read from. */
export function schemaOf(t: TypeFact): Schema {
  const out: Schema = {};
  if (t.ref !== undefined) out.$ref = `#/components/schemas/${t.ref}`;
  else if (t.oneOf !== undefined) out.oneOf = t.oneOf.map(schemaOf);
  else if (t.type !== undefined && t.type !== 'any') out.type = t.type;
  if (t.format !== undefined) out.format = t.format;
  if (t.enum !== undefined) out.enum = t.enum;
  if (t.items !== undefined) out.items = schemaOf(t.items);
  if (t.minItems !== undefined) out.minItems = t.minItems;
  if (t.maxItems !== undefined) out.maxItems = t.maxItems;
  if (t.properties !== undefined)
    out.properties = Object.fromEntries(Object.entries(t.properties).map(([k, v]) => [k, schemaOf(v)]));
  if (t.required !== undefined) out.required = t.required;
  if (t.additionalProperties !== undefined) out.additionalProperties = schemaOf(t.additionalProperties);
  if (t.nullable) out.nullable = true;
  return out;
}

function operationOf(op: OperationFact): Schema {
  const responses = Object.fromEntries(
    Object.entries(op.responses).map(([status, r]) => [
      status,
      {
        description: '',
        content: {
          [r.contentType]: { schema: r.ref ? schemaOf({ ref: r.ref, nullable: false }) : { type: 'string' } },
        },
      },
    ]),
  );
  return {
    ...(op.deprecated ? { deprecated: true } : {}),
    ...(op.request
      ? {
          requestBody: {
            content: { 'application/json': { schema: { $ref: `#/components/schemas/${op.request}` } } },
            required: true,
          },
        }
      : {}),
    responses,
    security: op.security.map((name) => ({ [name]: [] })),
  };
}

/** The OpenAPI document of these facts. */
export function documentOf(f: SpecFacts): Schema {
  const paths: Record<string, Record<string, Schema>> = {};
  for (const op of Object.values(f.operations)) (paths[op.path] ??= {})[op.method] = operationOf(op);
  return {
    openapi: f.source.openapi,
    info: { title: 'JSON Ledger API HTTP endpoints', version: f.source.infoVersion },
    paths,
    components: {
      schemas: Object.fromEntries(Object.entries(f.components).map(([k, v]) => [k, schemaOf(v)])),
    },
  };
}
