// Request-body decoding as Canton's JSON API does it: tapir + circe. A body that is not JSON, has a wrong
// JSON type or misses a required key never reaches the service; tapir answers 400 `text/plain`
// `Invalid value for: body (<detail>, <detail>)`, each circe detail ending in ` at '<path>'` when the
// failure has a path (`commands[0].CreateAndExerciseCommand.templateId`). Not a JsCantonError.
import { jsonSyntaxDetail } from './json-syntax-detail';
import type { ErrorObject } from 'ajv';

/** A tapir decode failure of one input (`body`, `header Authorization`): 400 text/plain, not a JsCantonError. */
export class TapirDecodeError extends Error {
  constructor(
    readonly input: string,
    readonly details: readonly string[],
  ) {
    super(
      details.length > 0
        ? `Invalid value for: ${input} (${details.join(', ')})`
        : `Invalid value for: ${input}`,
    );
  }
}

/** A body that circe could not decode. The app's error handler answers it with Canton's 400 text/plain. */
export class BodyDecodeError extends TapirDecodeError {
  constructor(details: readonly string[]) {
    super('body', details);
  }
}

/** For routes that decode more than a schema can say (e.g. a template id format), with circe's wording. */
export const decodeFailure = (...details: string[]): BodyDecodeError => new BodyDecodeError(details);

/** One circe failure line: `<message> at '<path>'`, or just the message at the root. */
export const decodeDetail = (message: string, path: readonly (string | number)[]): string =>
  path.length === 0 ? message : `${message} at '${circePath(path)}'`;

/** circe's cursor history as tapir prints it: keys joined by `.`, indices as `[n]`. */
export function circePath(path: readonly (string | number)[]): string {
  let out = '';
  for (const seg of path) out += typeof seg === 'number' ? `[${seg}]` : out === '' ? seg : `.${seg}`;
  return out;
}

/** Parses a raw body. Syntax errors (and an empty body: jawn's "exhausted input") are decode failures. */
export function parseJsonBody(raw: unknown): unknown {
  if (raw === undefined || raw === null || raw === '') throw decodeFailure('exhausted input');
  if (typeof raw !== 'string') return raw; // already decoded (e.g. inject with an object payload)
  if (raw.trim() === '') throw decodeFailure('exhausted input');
  try {
    return JSON.parse(raw);
  } catch {
    // jawn's detail (circe's parser), never V8's: see json-syntax-detail.ts.
    throw decodeFailure(jsonSyntaxDetail(raw));
  }
}

/** circe prints the offending value compactly; guard against values too deep or too big to print. */
function showJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}';
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** ajv's JSON pointer, resolved against the data so array indices become numbers (circe's `[n]`). */
function pointerToPath(pointer: string, data: unknown): (string | number)[] {
  if (pointer === '') return [];
  const out: (string | number)[] = [];
  let node: unknown = data;
  for (const raw of pointer.slice(1).split('/')) {
    const key = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    if (Array.isArray(node)) {
      out.push(Number(key));
      node = node[Number(key)];
    } else {
      out.push(key);
      node = node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[key] : undefined;
    }
  }
  return out;
}

const INT32 = { min: -2147483648, max: 2147483647 };
/** JSON-schema type → the type word circe's WrongTypeExpectation uses. */
const circeType = (t: unknown): string => {
  const first = String(t).split(',')[0] ?? '';
  return first === 'integer' ? 'number' : first;
};

/** Every ajv error as one circe detail. Capped: a huge wrong-typed array must not make a huge answer. */
export function ajvErrorsToDetails(errors: readonly ErrorObject[], body: unknown, max = 50): string[] {
  const details: string[] = [];
  for (const err of errors) {
    const path = pointerToPath(err.instancePath, body);
    let message: string;
    if (err.keyword === 'required') {
      path.push(String((err.params as { missingProperty: string }).missingProperty));
      message = 'Missing required field';
    } else if (err.keyword === 'type') {
      const expected = (err.params as { type: unknown }).type;
      // circe's Int decoder rejects a number that is not an int32 without a type word (wording not confirmed from circe's source; the harness asserts only tapir's frame).
      message =
        String(expected).startsWith('integer') && typeof err.data === 'number'
          ? 'Int'
          : `Got value '${showJson(err.data)}' with wrong type, expecting ${circeType(expected)}`;
    } else if ((err.keyword === 'minimum' || err.keyword === 'maximum') && typeof err.data === 'number') {
      message = 'Int';
    } else {
      message = err.message ?? err.keyword;
    }
    const detail = decodeDetail(message, path);
    if (!details.includes(detail)) details.push(detail);
    if (details.length >= max) break;
  }
  return details;
}

/** A JSON-schema fragment for an int32 field (proto `int32`), so out-of-range numbers fail decoding. */
export const int32Schema = { type: 'integer', minimum: INT32.min, maximum: INT32.max } as const;
