// Extracts the facts of the three operations from Canton's published OpenAPI files and writes
// spec/canton-<version>.json. Run: `npm run spec:extract -- <dir>` (the directory holding Canton's
// openapi-<version>.yaml files, e.g. from a Canton release; or CANTON_OPENAPI_DIR). `--check` compares
// instead of writing and exits 1 on drift. The generated files are committed: the self-tests read them, so
// they run on a clone without Canton's files.
//
// YAML is parsed with `yaml` (present through allure's dependencies; see spec/README.md). A `.json` file
// with the same base name is read as JSON, so the extractor also works from a converted copy.

import { createHash } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { parse as parseYaml } from 'yaml';
import type { DescriptionFacts, OperationFact, OperationKey, SpecFacts, TypeFact } from './facts';
import { answerHelp } from '../core/cli-help';
import { DEPRECATED_VETTING_LIST, PATHS } from '../core/api-paths';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
type JsonObject = { [key: string]: Json };

/** Where each operation lives. 3.4.11's file publishes the vetting listing only as the deprecated
 * `GET /v2/package-vetting` (same request and response components), so candidates are tried in order. */
const OPERATIONS: Record<OperationKey, { method: 'get' | 'post'; path: string }[]> = {
  submitTree: [{ method: 'post', path: PATHS.submitTree }],
  vettingList: [
    { method: 'post', path: PATHS.vettingList },
    { method: 'get', path: DEPRECATED_VETTING_LIST },
  ],
  version: [{ method: 'get', path: PATHS.version }],
};

/** Keywords that carry prose or examples only: dropped on purpose. Any other unknown keyword is an error,
 * so a new construct in a future OpenAPI is noticed instead of silently lost. */
const PROSE = new Set(['title', 'description', 'example', 'examples']);
const COMPONENT_REF = '#/components/schemas/';

const repoRoot = resolve(__dirname, '..');
const specDir = join(repoRoot, 'spec');

function isObject(value: Json | undefined): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function get(node: Json | undefined, ...keys: string[]): Json | undefined {
  let current = node;
  for (const key of keys) current = isObject(current) ? current[key] : undefined;
  return current;
}

function text(value: Json | undefined, where: string): string {
  if (typeof value !== 'string') throw new Error(`${where}: expected a string`);
  return value;
}

function refName(ref: Json | undefined, where: string): string {
  if (typeof ref !== 'string' || !ref.startsWith(COMPONENT_REF)) {
    throw new Error(`${where}: unsupported $ref ${JSON.stringify(ref)}`);
  }
  return ref.slice(COMPONENT_REF.length);
}

/** Flattens one OpenAPI schema node into a TypeFact; `where` names the node in error messages. */
function fact(node: Json | undefined, where: string): TypeFact {
  if (!isObject(node)) throw new Error(`${where}: expected a schema object`);
  const known = new Set([
    ...PROSE,
    '$ref',
    'oneOf',
    'type',
    'format',
    'enum',
    'items',
    'minItems',
    'maxItems',
    'properties',
    'required',
    'additionalProperties',
    'nullable',
  ]);
  const unknown = Object.keys(node).filter((key) => !known.has(key));
  if (unknown.length > 0) throw new Error(`${where}: unsupported keyword(s) ${unknown.join(', ')}`);

  const nullable = node.nullable === true;
  if (node.$ref !== undefined) return { ref: refName(node.$ref, where), nullable };
  if (Array.isArray(node.oneOf)) {
    return { oneOf: node.oneOf.map((variant, i) => fact(variant, `${where}.oneOf[${i}]`)), nullable };
  }
  const type =
    node.type ??
    (node.properties !== undefined || node.additionalProperties !== undefined ? 'object' : 'any');
  if (typeof type !== 'string') throw new Error(`${where}: unsupported type ${JSON.stringify(type)}`);
  const out: TypeFact = { type: type as TypeFact['type'], nullable };
  if (typeof node.format === 'string') out.format = node.format;
  if (Array.isArray(node.enum)) out.enum = node.enum as TypeFact['enum'];
  if (type === 'array') {
    out.items = fact(node.items, `${where}[]`);
    if (typeof node.minItems === 'number') out.minItems = node.minItems;
    if (typeof node.maxItems === 'number') out.maxItems = node.maxItems;
  }
  if (type === 'object') {
    if (isObject(node.properties)) {
      out.properties = {};
      for (const [name, prop] of Object.entries(node.properties))
        out.properties[name] = fact(prop, `${where}.${name}`);
    }
    if (Array.isArray(node.required)) out.required = node.required.map(String);
    if (isObject(node.additionalProperties))
      out.additionalProperties = fact(node.additionalProperties, `${where}{}`);
  }
  // Re-set last so `nullable` closes every object in the JSON (readability of the diff).
  delete (out as Partial<TypeFact>).nullable;
  out.nullable = nullable;
  return out;
}

function refsOf(value: TypeFact): string[] {
  const nested = [
    ...(value.oneOf ?? []),
    ...(value.items ? [value.items] : []),
    ...Object.values(value.properties ?? {}),
    ...(value.additionalProperties ? [value.additionalProperties] : []),
  ];
  return [...(value.ref ? [value.ref] : []), ...nested.flatMap(refsOf)];
}

/** The facts of the operation at `method path`, or undefined when the document has none there. */
function operationAt(doc: JsonObject, method: 'get' | 'post', path: string): OperationFact | undefined {
  const op = get(doc, 'paths', path, method);
  if (!isObject(op)) return undefined;
  const where = `${method.toUpperCase()} ${path}`;
  const requestRef = get(op, 'requestBody', 'content', 'application/json', 'schema', '$ref');
  const responses: OperationFact['responses'] = {};
  for (const [status, response] of Object.entries(isObject(op.responses) ? op.responses : {})) {
    const content = get(response, 'content');
    for (const [contentType, media] of Object.entries(isObject(content) ? content : {})) {
      const schema = get(media, 'schema');
      if (isObject(schema) && schema.$ref !== undefined) {
        responses[status] = { contentType, ref: refName(schema.$ref, `${where} ${status}`) };
      } else if (get(schema, 'type') === 'string') {
        responses[status] = { contentType, type: 'string' };
      } else throw new Error(`${where} ${status}: unsupported response schema`);
    }
  }
  const success = responses['200']?.ref;
  const error = responses['default']?.ref;
  if (!success || !error) throw new Error(`${where}: missing 200 or default JSON response`);
  const security = Array.isArray(op.security)
    ? op.security.flatMap((s) => (isObject(s) ? Object.keys(s) : []))
    : [];
  return {
    method,
    path,
    deprecated: op.deprecated === true,
    security,
    request: requestRef === undefined ? null : refName(requestRef, `${where} request`),
    responses,
    success,
    error,
  };
}

function operation(doc: JsonObject, key: OperationKey): OperationFact {
  for (const { method, path } of OPERATIONS[key]) {
    const found = operationAt(doc, method, path);
    if (found) return found;
  }
  throw new Error(`none of ${OPERATIONS[key].map((c) => `${c.method} ${c.path}`).join(', ')} found`);
}

/** The 200 component of each operation as Canton publishes it: how a moved operation is still recognised. */
const SUCCESS: Record<OperationKey, string> = {
  submitTree: 'JsSubmitAndWaitForTransactionTreeResponse',
  vettingList: 'ListVettedPackagesResponse',
  version: 'GetLedgerApiVersionResponse',
};

/** An operation at one of its known places, else at any path whose 200 body is its component, else none. */
function operationAnywhere(doc: JsonObject, key: OperationKey): OperationFact | undefined {
  for (const { method, path } of OPERATIONS[key]) {
    const found = operationAt(doc, method, path);
    if (found) return found;
  }
  const paths = get(doc, 'paths');
  for (const path of Object.keys(isObject(paths) ? paths : {}).sort()) {
    for (const method of ['post', 'get'] as const) {
      const ref = get(
        doc,
        'paths',
        path,
        method,
        'responses',
        '200',
        'content',
        'application/json',
        'schema',
        '$ref',
      );
      if (ref === `${COMPONENT_REF}${SUCCESS[key]}`) return operationAt(doc, method, path);
    }
  }
  return undefined;
}

/** Every component reachable from the bodies of these operations (requests, 200s, errors), sorted by name. */
function reachable(doc: JsonObject, operations: OperationFact[], file: string): Record<string, TypeFact> {
  const schemas = get(doc, 'components', 'schemas');
  if (!isObject(schemas)) throw new Error(`${file}: no components.schemas`);
  const pending = operations.flatMap((op) => [
    ...(op.request ? [op.request] : []),
    ...Object.values(op.responses).flatMap((r) => (r.ref ? [r.ref] : [])),
  ]);
  const found = new Map<string, TypeFact>();
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (found.has(name)) continue;
    const component = fact(schemas[name], name);
    found.set(name, component);
    pending.push(...refsOf(component));
  }
  return Object.fromEntries([...found.entries()].sort(([a], [b]) => a.localeCompare(b)));
}

function sourceOf(doc: JsonObject, source: string, file: string): SpecFacts['source'] {
  return {
    file,
    sha256: createHash('sha256').update(source).digest('hex'),
    openapi: text(get(doc, 'openapi'), 'openapi'),
    infoVersion: text(get(doc, 'info', 'version'), 'info.version'),
  };
}

export function extract(source: string, file: string, cantonVersion: string): SpecFacts {
  const doc = (file.endsWith('.json') ? JSON.parse(source) : parseYaml(source)) as Json;
  if (!isObject(doc)) throw new Error(`${file}: not an OpenAPI document`);
  const operations = {
    submitTree: operation(doc, 'submitTree'),
    vettingList: operation(doc, 'vettingList'),
    version: operation(doc, 'version'),
  };
  const components = reachable(doc, Object.values(operations), file);
  return { cantonVersion, source: sourceOf(doc, source, file), operations, components };
}

/**
 * The facts of a participant's own description (`GET /docs/openapi`, YAML or JSON: YAML reads both), read as
 * the shipped files are. An operation the description lacks is absent, not an error; one at another path is
 * found by its 200 component. Throws when the text is no OpenAPI document or uses a construct not read here.
 */
export function extractDescription(source: string, file = 'GET /docs/openapi'): DescriptionFacts {
  const doc = parseYaml(source) as Json;
  if (!isObject(doc) || get(doc, 'paths') === undefined) throw new Error('not an OpenAPI document');
  const operations: DescriptionFacts['operations'] = {};
  for (const key of Object.keys(OPERATIONS) as OperationKey[]) {
    const found = operationAnywhere(doc, key);
    if (found) operations[key] = found;
  }
  const components = reachable(doc, Object.values(operations), file);
  return { source: sourceOf(doc, source, file), operations, components };
}

function main(): void {
  answerHelp(`Usage: npm run spec:extract -- <dir> [--check]
Extracts the facts of the three operations from Canton's openapi-<version>.yaml files in <dir> (or
CANTON_OPENAPI_DIR) into spec/canton-<version>.json. --check compares instead of writing and exits 1 on drift.`);
  const args = process.argv.slice(2);
  const check = args.includes('--check');
  const given = args.find((a) => !a.startsWith('--')) ?? process.env.CANTON_OPENAPI_DIR;
  if (given === undefined) {
    console.error(
      "spec:extract: name the directory holding Canton's openapi-<version>.yaml: npm run spec:extract -- <dir> (or set CANTON_OPENAPI_DIR)",
    );
    process.exit(2);
  }
  const inputDir = resolve(given);
  if (!existsSync(inputDir)) {
    console.error(
      `spec:extract: ${inputDir} does not exist. Pass the directory holding openapi-<version>.yaml.`,
    );
    process.exit(2);
  }
  const inputs = new Map<string, string>();
  for (const file of readdirSync(inputDir).sort()) {
    const match = /^openapi-(\d+\.\d+\.\d+(?:-[0-9A-Za-z.-]+)?)\.(ya?ml|json)$/.exec(file);
    // A YAML file wins over a JSON copy of the same version.
    if (match && (!inputs.has(match[1]!) || !file.endsWith('.json'))) inputs.set(match[1]!, file);
  }
  if (inputs.size === 0) {
    console.error(`spec:extract: no openapi-<version>.(yaml|json) in ${inputDir}`);
    process.exit(2);
  }
  let drift = false;
  for (const [version, file] of inputs) {
    const facts = extract(readFileSync(join(inputDir, file), 'utf8'), file, version);
    const out = join(specDir, `canton-${version}.json`);
    const text = `${JSON.stringify(facts, null, 2)}\n`;
    if (check) {
      const same = existsSync(out) && readFileSync(out, 'utf8') === text;
      drift ||= !same;
      console.log(`${same ? 'up to date' : 'DRIFT'}: spec/canton-${version}.json (from ${file})`);
    } else {
      writeFileSync(out, text);
      console.log(
        `wrote spec/canton-${version}.json (${Object.keys(facts.components).length} components, from ${file})`,
      );
    }
  }
  if (drift) process.exit(1);
}

if (require.main === module) main();
