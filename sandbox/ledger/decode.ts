// Stage 1 of Canton's check order: decoding the JSON body into JsCommands, as tapir + circe do. Failures are
// not JsCantonErrors but a 400 text/plain "Invalid value for: body (<details>)": each detail is circe's
// message followed by " at '<path>'" (paths like commands[0].CreateCommand.templateId), all of them
// accumulated and joined by ", ". Optional fields that are null or absent take their defaults; unknown
// fields are ignored (circe strictDecoding=false). The exact circe wording is UNCONFIRMED beyond
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
class Decoder {
  readonly details: string[] = [];

  fail(message: string, path: string): undefined {
    this.details.push(path ? `${message} at '${path}'` : message);
    return undefined;
  }

  private wrongType(value: unknown, expecting: string, path: string): undefined {
    return this.fail(`Got value '${showJson(value)}' with wrong type, expecting ${expecting}`, path);
  }

  object(value: unknown, path: string): Obj | undefined {
    if (typeof value === 'object' && value !== null && !Array.isArray(value)) return value as Obj;
    return this.wrongType(value, 'object', path);
  }

  /** A required field: absent → "Missing required field"; null is a wrong type. */
  required<T>(
    obj: Obj,
    key: string,
    path: string,
    read: (v: unknown, p: string) => T | undefined,
  ): T | undefined {
    const p = path ? `${path}.${key}` : key;
    if (!Object.hasOwn(obj, key)) return this.fail('Missing required field', p);
    return read(obj[key], p);
  }

  /** An optional field with a default: absent or null → the default. */
  optional<T>(
    obj: Obj,
    key: string,
    path: string,
    def: T,
    read: (v: unknown, p: string) => T | undefined,
  ): T | undefined {
    const v = Object.hasOwn(obj, key) ? obj[key] : undefined;
    if (v === undefined || v === null) return def;
    return read(v, path ? `${path}.${key}` : key);
  }

  string = (v: unknown, p: string): string | undefined =>
    typeof v === 'string' ? v : this.wrongType(v, 'string', p);

  json = (v: unknown): unknown => v;

  /**
   * circe's Int/Long decoders take whole JSON numbers (10.0 too) and strings Java's parseInt/parseLong
   * accepts, within range; any other value fails with just the type name ("Int", "Long").
   */
  integer(v: unknown, p: string, name: 'Int' | 'Long'): number | undefined {
    const n = typeof v === 'number' ? v : typeof v === 'string' && /^[+-]?\d+$/.test(v) ? Number(v) : NaN;
    const [min, end] = name === 'Int' ? [-INT32_MAX - 1, INT32_MAX + 1] : [-INT64_LIMIT, INT64_LIMIT];
    if (!Number.isInteger(n) || n >= end || n < min) return this.fail(name, p);
    return n;
  }

  int = (v: unknown, p: string): number | undefined => this.integer(v, p, 'Int');
  long = (v: unknown, p: string): number | undefined => this.integer(v, p, 'Long');

  array<T>(v: unknown, p: string, item: (x: unknown, ip: string) => T | undefined): T[] | undefined {
    if (!Array.isArray(v)) return this.wrongType(v, 'array', p);
    const out: T[] = [];
    let ok = true;
    v.forEach((x, i) => {
      const r = item(x, `${p}[${i}]`);
      if (r === undefined) ok = false;
      else out.push(r);
    });
    return ok ? out : undefined;
  }

  strings = (v: unknown, p: string): string[] | undefined => this.array(v, p, this.string);

  /** JSON identifiers are `<package>:<module>:<entity>` (Canton 3.5 JsSchema.decodeIdentifier wording). */
  templateId = (v: unknown, p: string): TemplateRef | undefined => {
    const s = this.string(v, p);
    if (s === undefined) return undefined;
    const parts = s.split(':');
    if (parts.length !== 3) {
      return this.fail(
        `Invalid identifier format (${s}) not matching the expected format (<package>:<moduleName>:<entityName>)`,
        p,
      );
    }
    const [packageRef = '', module = '', entity = ''] = parts;
    return { raw: s, packageRef, module, entity };
  };

  duration = (v: unknown, p: string): Duration | undefined => {
    const o = this.object(v, p);
    if (!o) return undefined;
    const seconds = this.required(o, 'seconds', p, this.long);
    const nanos = this.required(o, 'nanos', p, this.int);
    return seconds === undefined || nanos === undefined ? undefined : { seconds, nanos };
  };

  instant = (v: unknown, p: string): number | undefined => {
    const s = this.string(v, p);
    if (s === undefined) return undefined;
    const micros = parseInstantMicros(s);
    return micros === undefined ? this.fail(`Instant (Text '${s}' could not be parsed)`, p) : micros;
  };

  base64 = (v: unknown, p: string): string | undefined => {
    const s = this.string(v, p);
    if (s === undefined) return undefined;
    if (!/^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/.test(s)) {
      return this.fail(`The string is not a valid Base64: ${s}`, p);
    }
    return s;
  };
}

const VARIANTS = [
  'CreateAndExerciseCommand',
  'CreateCommand',
  'ExerciseByKeyCommand',
  'ExerciseCommand',
] as const;

function command(d: Decoder, v: unknown, p: string): JsCommand | undefined {
  const o = d.object(v, p);
  if (!o) return undefined;
  const keys = Object.keys(o);
  const kind = VARIANTS.find((k) => k === keys[0]);
  if (keys.length !== 1 || kind === undefined) {
    return d.fail(`type Command has no class/object/case named '${keys.join(',')}'.`, p);
  }
  const bp = `${p}.${kind}`;
  const b = d.object(o[kind], bp);
  if (!b) return undefined;
  const templateId = d.required(b, 'templateId', bp, d.templateId);
  const args = (key: string): unknown => d.required(b, key, bp, d.json);
  switch (kind) {
    case 'CreateCommand': {
      const createArguments = args('createArguments');
      if (!templateId || !Object.hasOwn(b, 'createArguments')) return undefined;
      return { kind, templateId, createArguments };
    }
    case 'ExerciseCommand': {
      const contractId = d.required(b, 'contractId', bp, d.string);
      const choice = d.required(b, 'choice', bp, d.string);
      const choiceArgument = args('choiceArgument');
      if (
        !templateId ||
        contractId === undefined ||
        choice === undefined ||
        !Object.hasOwn(b, 'choiceArgument')
      ) {
        return undefined;
      }
      return { kind, templateId, contractId, choice, choiceArgument };
    }
    case 'CreateAndExerciseCommand': {
      const createArguments = args('createArguments');
      const choice = d.required(b, 'choice', bp, d.string);
      const choiceArgument = args('choiceArgument');
      const complete = Object.hasOwn(b, 'createArguments') && Object.hasOwn(b, 'choiceArgument');
      if (!templateId || choice === undefined || !complete) return undefined;
      return { kind, templateId, createArguments, choice, choiceArgument };
    }
    case 'ExerciseByKeyCommand': {
      const contractKey = args('contractKey');
      const choice = d.required(b, 'choice', bp, d.string);
      const choiceArgument = args('choiceArgument');
      const complete = Object.hasOwn(b, 'contractKey') && Object.hasOwn(b, 'choiceArgument');
      if (!templateId || choice === undefined || !complete) return undefined;
      return { kind, templateId, contractKey, choice, choiceArgument };
    }
  }
}

function dedupPeriod(d: Decoder, v: unknown, p: string): DedupPeriod | undefined {
  const o = d.object(v, p);
  if (!o) return undefined;
  const keys = Object.keys(o);
  const [key] = keys;
  if (keys.length !== 1)
    return d.fail(`type DeduplicationPeriod has no class/object/case named '${keys.join(',')}'.`, p);
  const bp = `${p}.${key}`;
  switch (key) {
    case 'DeduplicationDuration': {
      const b = d.object(o[key], bp);
      const value = b && d.required(b, 'value', bp, d.duration);
      return value && { kind: key, value };
    }
    case 'DeduplicationOffset': {
      const b = d.object(o[key], bp);
      const value = b && d.required(b, 'value', bp, d.long);
      return value === undefined ? undefined : { kind: key, value };
    }
    case 'Empty':
      return d.object(o[key], bp) && { kind: 'Empty' };
    default:
      return d.fail(`type DeduplicationPeriod has no class/object/case named '${key}'.`, p);
  }
}

function disclosed(d: Decoder, v: unknown, p: string): DisclosedContract | undefined {
  const o = d.object(v, p);
  if (!o) return undefined;
  const createdEventBlob = d.required(o, 'createdEventBlob', p, d.base64);
  const templateId = d.optional<TemplateRef | undefined>(o, 'templateId', p, undefined, d.templateId);
  const contractId = d.optional(o, 'contractId', p, '', d.string);
  const synchronizerId = d.optional(o, 'synchronizerId', p, '', d.string);
  if (createdEventBlob === undefined || contractId === undefined || synchronizerId === undefined)
    return undefined;
  if (Object.hasOwn(o, 'templateId') && o.templateId !== null && templateId === undefined) return undefined;
  return { templateId, contractId, createdEventBlob, synchronizerId };
}

function prefetch(
  d: Decoder,
  v: unknown,
  p: string,
): { templateId: TemplateRef; contractKey: unknown } | undefined {
  const o = d.object(v, p);
  if (!o) return undefined;
  const templateId = d.required(o, 'templateId', p, d.templateId);
  d.required(o, 'contractKey', p, d.json);
  return templateId && Object.hasOwn(o, 'contractKey')
    ? { templateId, contractKey: o.contractKey }
    : undefined;
}

/** Decode a request body; every failure is reported, in field declaration order. */
export function decodeJsCommands(body: unknown): Decoded<JsCommands> {
  const d = new Decoder();
  const o = d.object(body, '');
  if (!o) return { ok: false, details: d.details };
  const value = {
    commands: d.required(o, 'commands', '', (v, p) => d.array(v, p, (x, ip) => command(d, x, ip))),
    commandId: d.required(o, 'commandId', '', d.string),
    actAs: d.required(o, 'actAs', '', d.strings),
    userId: d.optional(o, 'userId', '', '', d.string),
    readAs: d.optional(o, 'readAs', '', [], d.strings),
    workflowId: d.optional(o, 'workflowId', '', '', d.string),
    deduplicationPeriod: d.optional<DedupPeriod>(o, 'deduplicationPeriod', '', { kind: 'Empty' }, (v, p) =>
      dedupPeriod(d, v, p),
    ),
    minLedgerTimeAbs: d.optional<number | undefined>(o, 'minLedgerTimeAbs', '', undefined, d.instant),
    minLedgerTimeRel: d.optional<Duration | undefined>(o, 'minLedgerTimeRel', '', undefined, d.duration),
    submissionId: d.optional(o, 'submissionId', '', '', d.string),
    disclosedContracts: d.optional(o, 'disclosedContracts', '', [], (v, p) =>
      d.array(v, p, (x, ip) => disclosed(d, x, ip)),
    ),
    synchronizerId: d.optional(o, 'synchronizerId', '', '', d.string),
    packageIdSelectionPreference: d.optional(o, 'packageIdSelectionPreference', '', [], d.strings),
    prefetchContractKeys: d.optional(o, 'prefetchContractKeys', '', [], (v, p) =>
      d.array(v, p, (x, ip) => prefetch(d, x, ip)),
    ),
    tapsMaxPasses: d.optional<number | undefined>(o, 'tapsMaxPasses', '', undefined, d.int),
  };
  if (d.details.length > 0) return { ok: false, details: d.details };
  return { ok: true, value: value as JsCommands };
}
