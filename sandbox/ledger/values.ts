// Decoding Daml values from their JSON Ledger API form, for the built-in templates' records. Canton's JSON
// layer transcodes createArguments / choiceArgument against the package signature before authorization;
// its failures map as Endpoints.handleError maps them: a missing record field is COMMAND_PREPROCESSING_FAILED
// ("Missing non-optional field"), extra fields are INVALID_ARGUMENT ("Unexpected fields", names joined by
// Scala's bare mkString), a value of the wrong shape is INVALID_ARGUMENT (IllegalArgumentException). These
// are built in the JSON layer (JsCantonError.fromErrorCode), so the body's definiteAnswer is false, not null.
import { cantonError, invalidArgument, type CantonError } from '../errors';
import { partyError } from '../ids';

export type FieldType = 'party' | 'text' | 'numeric10';

/** A record type: its fields in declaration order. */
export type RecordType = Readonly<Record<string, FieldType>>;
export type RecordValue = Record<string, string>;

const missingFields = (fields: string[]): CantonError =>
  cantonError(
    'COMMAND_PREPROCESSING_FAILED',
    'InvalidIndependentOfSystemState',
    `Missing non-optional field: ${fields.join(', ')}`,
    { definiteAnswer: false },
  );

/** An IllegalArgumentException of the JSON layer: INVALID_ARGUMENT with definiteAnswer false. */
export function jsonLayerInvalid(reason: string): CantonError {
  const err = invalidArgument(reason);
  err.body.definiteAnswer = false;
  return err;
}

/** The offending value in a message: compact, capped, and safe for values too deep to print. */
function jsonText(v: unknown): string {
  let text: string;
  try {
    text = JSON.stringify(v) ?? String(v);
  } catch {
    text = Array.isArray(v) ? '[…]' : '{…}';
  }
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** Numeric 10 (Daml Decimal): at most 28 integer digits and 10 decimals; rendered at full scale. */
function numeric10(raw: unknown): string | undefined {
  let text: string;
  if (typeof raw === 'number' && Number.isFinite(raw)) text = String(raw);
  else if (typeof raw === 'string') text = raw.trim();
  else return undefined;
  const m = /^([+-]?)(\d+)(?:\.(\d*))?$/.exec(text) ?? /^([+-]?)()\.(\d+)$/.exec(text);
  if (!m) return undefined;
  const [, sign = '', intRaw = '', frac = ''] = m;
  const fracTrimmed = frac.replace(/0+$/, '');
  if (fracTrimmed.length > 10) return undefined; // Canton: not representable without loss of precision
  const intPart = intRaw.replace(/^0+(?=\d)/, '') || '0';
  if (intPart.length > 28) return undefined;
  const decimals = fracTrimmed.padEnd(10, '0');
  const zero = intPart === '0' && /^0*$/.test(decimals);
  return `${sign === '-' && !zero ? '-' : ''}${intPart}.${decimals}`;
}

function field(type: FieldType, name: string, raw: unknown): string {
  switch (type) {
    case 'party': {
      if (typeof raw !== 'string')
        throw jsonLayerInvalid(`Expected a party (string) for field ${name}, got ${jsonText(raw)}`);
      const err = partyError(raw);
      if (err !== undefined) throw jsonLayerInvalid(err);
      return raw;
    }
    case 'text':
      if (typeof raw !== 'string')
        throw jsonLayerInvalid(`Expected text (string) for field ${name}, got ${jsonText(raw)}`);
      return raw;
    case 'numeric10': {
      const n = numeric10(raw);
      if (n === undefined)
        throw jsonLayerInvalid(`Could not read Numeric 10 value for field ${name}: ${jsonText(raw)}`);
      return n;
    }
  }
}

/** Decode a record argument (null counts as {} for choice arguments, as Canton's nullToEmpty). */
export function decodeRecord(type: RecordType, raw: unknown, nullIsEmpty: boolean): RecordValue {
  const value = raw === null && nullIsEmpty ? {} : raw;
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw jsonLayerInvalid(`Expected a record (JSON object), got ${jsonText(raw)}`);
  }
  const obj = value as Record<string, unknown>;
  const names = Object.keys(type);
  const missing = names.filter((n) => obj[n] === undefined || obj[n] === null);
  if (missing.length > 0) throw missingFields(missing);
  const unexpected = Object.keys(obj).filter((k) => !Object.hasOwn(type, k));
  if (unexpected.length > 0) throw jsonLayerInvalid(`Unexpected fields: ${unexpected.join('')}`);
  const out: RecordValue = {};
  for (const n of names) out[n] = field(type[n] as FieldType, n, obj[n]);
  return out;
}
