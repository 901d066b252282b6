// Stage 1 of Canton's check order: decoding the JSON body into JsCommands, as tapir + circe do. Failures are
// not JsCantonErrors but a 400 text/plain "Invalid value for: body (<details>)": each detail is circe's
// message followed by " at '<path>'" (paths like commands[0].CreateCommand.templateId), all of them
// accumulated and joined by ", ". Optional fields that are null or absent take their defaults; unknown
// fields are ignored (circe strictDecoding=false). The exact circe wording is not confirmed (nor asserted) beyond
// "Missing required field" (observed) — see README.md.
import { parseInstantMicros } from './time';

export interface Duration {
  seconds: number;
  nanos: number;
}

export interface TemplateRef {
  /** As sent: `#package-name:Module:Entity` or `<packageId>:Module:Entity`. */
  raw: string;
  packageRef: string;
  module: string;
  entity: string;
}

export type JsCommand =
  | { kind: 'CreateCommand'; templateId: TemplateRef; createArguments: unknown }
  | {
      kind: 'ExerciseCommand';
      templateId: TemplateRef;
      contractId: string;
      choice: string;
      choiceArgument: unknown;
    }
  | {
      kind: 'CreateAndExerciseCommand';
      templateId: TemplateRef;
      createArguments: unknown;
      choice: string;
      choiceArgument: unknown;
    }
  | {
      kind: 'ExerciseByKeyCommand';
      templateId: TemplateRef;
      contractKey: unknown;
      choice: string;
      choiceArgument: unknown;
    };

export type DedupPeriod =
  | { kind: 'DeduplicationDuration'; value: Duration }
  | { kind: 'DeduplicationOffset'; value: number }
  | { kind: 'Empty' };

export interface DisclosedContract {
  templateId: TemplateRef | undefined;
  contractId: string;
  createdEventBlob: string;
  synchronizerId: string;
}

export interface JsCommands {
  commands: JsCommand[];
  commandId: string;
  actAs: string[];
  userId: string;
  readAs: string[];
  workflowId: string;
  deduplicationPeriod: DedupPeriod;
  /** Microseconds since the epoch (rounded up); may be outside the LF range. */
  minLedgerTimeAbs: number | undefined;
  minLedgerTimeRel: Duration | undefined;
  submissionId: string;
  disclosedContracts: DisclosedContract[];
  synchronizerId: string;
  packageIdSelectionPreference: string[];
  prefetchContractKeys: { templateId: TemplateRef; contractKey: unknown }[];
  tapsMaxPasses: number | undefined;
}

export type Decoded<T> = { ok: true; value: T } | { ok: false; details: string[] };

type Obj = Record<string, unknown>;

/** circe prints the offending value compactly; capped so a huge value never makes a huge answer. */
function showJson(value: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(value) ?? 'null';
  } catch {
    text = Array.isArray(value) ? '[…]' : '{…}'; // too deep to print (RangeError): never a 5xx
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}
const INT32_MAX = 2_147_483_647;
const INT64_LIMIT = 2 ** 63; // exclusive; as a double, 2^63 - 1 rounds to it

/** Collects failures while decoding, like circe's accumulating decoder. */
class Failures {
  readonly details: string[] = [];

  fail(message: string, path: string): undefined {
    this.details.push(path ? `${message} at '${path}'` : message);
    return undefined;
  }

  wrongType(value: unknown, expecting: string, path: string): undefined {
    return this.fail(`Got value '${showJson(value)}' with wrong type, expecting ${expecting}`, path);
  }
}

/** Readers are plain functions (no per-request closures on the hot path); undefined = failed. */
type Reader<T> = (d: Failures, v: unknown, p: string) => T | undefined;

const child = (path: string, key: string): string => (path ? `${path}.${key}` : key);

const object: Reader<Obj> = (d, v, p) =>
  typeof v === 'object' && v !== null && !Array.isArray(v) ? (v as Obj) : d.wrongType(v, 'object', p);

/** A required field: absent → "Missing required field"; null is a wrong type. */
function required<T>(d: Failures, obj: Obj, key: string, path: string, read: Reader<T>): T | undefined {
  const p = child(path, key);
  if (!Object.hasOwn(obj, key)) return d.fail('Missing required field', p);
  return read(d, obj[key], p);
}

/** An optional field with a default: absent or null → the default. */
function optional<T>(
  d: Failures,
  obj: Obj,
  key: string,
  path: string,
  def: T,
  read: Reader<T>,
): T | undefined {
  const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
  if (v === undefined || v === null) return def;
  return read(d, v, child(path, key));
}

const string: Reader<string> = (d, v, p) => (typeof v === 'string' ? v : d.wrongType(v, 'string', p));

/** Arbitrary JSON (createArguments, choiceArgument): present is enough. */
const json: Reader<unknown> = (_d, v) => v;

/**
 * circe's Int/Long decoders take whole JSON numbers (10.0 too) and strings Java's parseInt/parseLong
 * accepts, within range; any other value fails with just the type name ("Int", "Long").
 */
function integer(d: Failures, v: unknown, p: string, name: 'Int' | 'Long'): number | undefined {
  const n = typeof v === 'number' ? v : typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
  const [min, end] = name === 'Int' ? [-INT32_MAX - 1, INT32_MAX + 1] : [-INT64_LIMIT, INT64_LIMIT];
  if (!Number.isInteger(n) || n >= end || n < min) return d.fail(name, p);
  return n;
}
const int: Reader<number> = (d, v, p) => integer(d, v, p, 'Int');
const long: Reader<number> = (d, v, p) => integer(d, v, p, 'Long');

function array<T>(d: Failures, v: unknown, p: string, item: Reader<T>): T[] | undefined {
  if (!Array.isArray(v)) return d.wrongType(v, 'array', p);
  const out: T[] = [];
  let ok = true;
  for (let i = 0; i < v.length; i++) {
    const r = item(d, v[i], `${p}[${i}]`);
    if (r === undefined) ok = false;
    else out.push(r);
  }
  return ok ? out : undefined;
}
const arrayOf =
  <T>(item: Reader<T>): Reader<T[]> =>
  (d, v, p) =>
    array(d, v, p, item);
const strings = arrayOf(string);

/** JSON identifiers are `<package>:<module>:<entity>` (Canton 3.5 JsSchema.decodeIdentifier wording). */
const templateId: Reader<TemplateRef> = (d, v, p) => {
  const s = string(d, v, p);
  if (s === undefined) return undefined;
  const parts = s.split(':');
  if (parts.length !== 3) {
    return d.fail(
      `Invalid identifier format (${s}) not matching the expected format (<package>:<moduleName>:<entityName>)`,
      p,
    );
  }
  const [packageRef = '', module = '', entity = ''] = parts;
  return { raw: s, packageRef, module, entity };
};

const duration: Reader<Duration> = (d, v, p) => {
  const o = object(d, v, p);
  if (!o) return undefined;
  const seconds = required(d, o, 'seconds', p, long);
  const nanos = required(d, o, 'nanos', p, int);
  return seconds === undefined || nanos === undefined ? undefined : { seconds, nanos };
};

const instant: Reader<number> = (d, v, p) => {
  const s = string(d, v, p);
  if (s === undefined) return undefined;
  const micros = parseInstantMicros(s);
  return micros === undefined ? d.fail(`Instant (Text '${s}' could not be parsed)`, p) : micros;
};

const base64: Reader<string> = (d, v, p) => {
  const s = string(d, v, p);
  if (s === undefined) return undefined;
  if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) {
    return d.fail(`The string is not a valid Base64: ${s}`, p);
  }
  return s;
};

const VARIANTS = [
  'CreateAndExerciseCommand',
  'CreateCommand',
  'ExerciseByKeyCommand',
  'ExerciseCommand',
] as const;

const command: Reader<JsCommand> = (d, v, p) => {
  const o = object(d, v, p);
  if (!o) return undefined;
  const keys = Object.keys(o);
  const kind = VARIANTS.find((k) => k === keys[0]);
  if (keys.length !== 1 || kind === undefined) {
    return d.fail(`type Command has no class/object/case named '${keys.join(',')}'.`, p);
  }
  const bp = `${p}.${kind}`;
  const b = object(d, o[kind], bp);
  if (!b) return undefined;
  const tid = required(d, b, 'templateId', bp, templateId);
  // Arbitrary-JSON fields: required means present (null is a value); read them after the checks.
  const has = (key: string): boolean =>
    Object.hasOwn(b, key) ? true : (d.fail('Missing required field', `${bp}.${key}`), false);
  switch (kind) {
    case 'CreateCommand': {
      const ok = has('createArguments');
      return tid && ok ? { kind, templateId: tid, createArguments: b.createArguments } : undefined;
    }
    case 'ExerciseCommand': {
      const contractId = required(d, b, 'contractId', bp, string);
      const choice = required(d, b, 'choice', bp, string);
      const ok = has('choiceArgument');
      if (!tid || contractId === undefined || choice === undefined || !ok) return undefined;
      return { kind, templateId: tid, contractId, choice, choiceArgument: b.choiceArgument };
    }
    case 'CreateAndExerciseCommand': {
      const okArgs = has('createArguments');
      const choice = required(d, b, 'choice', bp, string);
      const okChoice = has('choiceArgument');
      if (!tid || choice === undefined || !okArgs || !okChoice) return undefined;
      return {
        kind,
        templateId: tid,
        createArguments: b.createArguments,
        choice,
        choiceArgument: b.choiceArgument,
      };
    }
    case 'ExerciseByKeyCommand': {
      const okKey = has('contractKey');
      const choice = required(d, b, 'choice', bp, string);
      const okChoice = has('choiceArgument');
      if (!tid || choice === undefined || !okKey || !okChoice) return undefined;
      return { kind, templateId: tid, contractKey: b.contractKey, choice, choiceArgument: b.choiceArgument };
    }
  }
};

const dedupPeriod: Reader<DedupPeriod> = (d, v, p) => {
  const o = object(d, v, p);
  if (!o) return undefined;
  const keys = Object.keys(o);
  const [key] = keys;
  if (keys.length !== 1)
    return d.fail(`type DeduplicationPeriod has no class/object/case named '${keys.join(',')}'.`, p);
  const bp = `${p}.${key}`;
  switch (key) {
    case 'DeduplicationDuration': {
      const b = object(d, o[key], bp);
      const value = b && required(d, b, 'value', bp, duration);
      return value && { kind: key, value };
    }
    case 'DeduplicationOffset': {
      const b = object(d, o[key], bp);
      const value = b && required(d, b, 'value', bp, long);
      return value === undefined ? undefined : { kind: key, value };
    }
    case 'Empty':
      return object(d, o[key], bp) && { kind: 'Empty' };
    default:
      return d.fail(`type DeduplicationPeriod has no class/object/case named '${key}'.`, p);
  }
};

const disclosed: Reader<DisclosedContract> = (d, v, p) => {
  const o = object(d, v, p);
  if (!o) return undefined;
  const createdEventBlob = required(d, o, 'createdEventBlob', p, base64);
  const tid = optional<TemplateRef | undefined>(d, o, 'templateId', p, undefined, templateId);
  const contractId = optional(d, o, 'contractId', p, '', string);
  const synchronizerId = optional(d, o, 'synchronizerId', p, '', string);
  if (createdEventBlob === undefined || contractId === undefined || synchronizerId === undefined)
    return undefined;
  if (Object.hasOwn(o, 'templateId') && o.templateId !== null && tid === undefined) return undefined;
  return { templateId: tid, contractId, createdEventBlob, synchronizerId };
};

const prefetch: Reader<{ templateId: TemplateRef; contractKey: unknown }> = (d, v, p) => {
  const o = object(d, v, p);
  if (!o) return undefined;
  const tid = required(d, o, 'templateId', p, templateId);
  required(d, o, 'contractKey', p, json);
  return tid && Object.hasOwn(o, 'contractKey') ? { templateId: tid, contractKey: o.contractKey } : undefined;
};

const commands = arrayOf(command);
const disclosedContracts = arrayOf(disclosed);
const prefetchKeys = arrayOf(prefetch);

/**
 * Decode a request body; every failure is reported, in field declaration order. Without `knowsTaps` (a
 * release before 3.4.12) tapsMaxPasses is an unknown field: ignored, whatever its value.
 */
export function decodeJsCommands(body: unknown, knowsTaps = true): Decoded<JsCommands> {
  const d = new Failures();
  const o = object(d, body, '');
  if (!o) return { ok: false, details: d.details };
  const value = {
    commands: required(d, o, 'commands', '', commands),
    commandId: required(d, o, 'commandId', '', string),
    actAs: required(d, o, 'actAs', '', strings),
    userId: optional(d, o, 'userId', '', '', string),
    readAs: optional(d, o, 'readAs', '', [], strings),
    workflowId: optional(d, o, 'workflowId', '', '', string),
    deduplicationPeriod: optional<DedupPeriod>(
      d,
      o,
      'deduplicationPeriod',
      '',
      { kind: 'Empty' },
      dedupPeriod,
    ),
    minLedgerTimeAbs: optional<number | undefined>(d, o, 'minLedgerTimeAbs', '', undefined, instant),
    minLedgerTimeRel: optional<Duration | undefined>(d, o, 'minLedgerTimeRel', '', undefined, duration),
    submissionId: optional(d, o, 'submissionId', '', '', string),
    disclosedContracts: optional(d, o, 'disclosedContracts', '', [], disclosedContracts),
    synchronizerId: optional(d, o, 'synchronizerId', '', '', string),
    packageIdSelectionPreference: optional(d, o, 'packageIdSelectionPreference', '', [], strings),
    prefetchContractKeys: optional(d, o, 'prefetchContractKeys', '', [], prefetchKeys),
    tapsMaxPasses: knowsTaps
      ? optional<number | undefined>(d, o, 'tapsMaxPasses', '', undefined, int)
      : undefined,
  };
  if (d.details.length > 0) return { ok: false, details: d.details };
  return { ok: true, value: value as JsCommands };
}
