// The id grammars Canton checks, with its exact error texts. Each check returns the text Canton would put
// after "Invalid field x: " (or into an INVALID_ARGUMENT), or undefined when the value is valid.
// Sources: daml-lf IdString.scala (LedgerString, Party, PackageId, PackageName, Name, UserId) and Canton's
// topology Identifier.scala (UniqueIdentifier, used for synchronizer ids). Lengths and character codes are
// UTF-16 code units, as Java's String.length/charAt, so the texts match byte for byte.
import { releaseAtLeast } from './ledger/release';

/** A rejection table for ASCII: true = not allowed. Non-ASCII is always rejected. */
function allowed(extra: string): Uint8Array {
  const table = new Uint8Array(128);
  const ok = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789' + extra;
  for (let i = 0; i < ok.length; i++) table[ok.charCodeAt(i)] = 1;
  return table;
}

/** Daml-LF ConcatenableMatchingString: non-empty, ≤ max, letters, digits and the extra characters. */
function concatenable(description: string, extra: string, max: number): (s: string) => string | undefined {
  const table = allowed(extra);
  return (s) => {
    if (s.length === 0) return `${description} is empty`;
    if (s.length > max) return `${description} is too long (max: ${max})`;
    for (let i = 0; i < s.length; i++) {
      const c = s.charCodeAt(i);
      if (c > 0x7f || table[c] === 0)
        return `non expected character 0x${c.toString(16)} in ${description} "${s}"`;
    }
    return undefined;
  };
}

/** commandId, workflowId, submissionId: ≤ 255 of [A-Za-z0-9._:#/ -] (the proto comment omits '.', the code has it). */
export const ledgerStringError = concatenable('Daml-LF Ledger String', '._:-#/ ', 255);
/** actAs / readAs entries and party values: ≤ 255 of [A-Za-z0-9:_ -]. */
export const partyError = concatenable('Daml-LF Party', ':-_ ', 255);
export const packageIdError = concatenable('Daml-LF Package ID', '-_ ', 64);
export const packageNameError = concatenable('Daml-LF Package Name', '-_', 255);

const NAME_FIRST = allowed('$_');
const NAME_OTHER = allowed('$_');
for (let d = 0x30; d <= 0x39; d++) NAME_FIRST[d] = 0;

/** NameString (module segments, entity, choice): ≤ 1000, [A-Za-z$_][A-Za-z0-9$_]*. */
export function nameError(s: string): string | undefined {
  if (s.length === 0) return 'Daml-LF Name is empty';
  if (s.length > 1000) return 'Name is too long (max: 1000)';
  const first = s.charCodeAt(0);
  if (first > 0x7f || NAME_FIRST[first] === 0) {
    return `non expected first character 0x${first.toString(16)} in Daml-LF Name "${s}"`;
  }
  for (let i = 1; i < s.length; i++) {
    const c = s.charCodeAt(i);
    if (c > 0x7f || NAME_OTHER[c] === 0)
      return `non expected non first character 0x${c.toString(16)} in Daml-LF Name "${s}"`;
  }
  return undefined;
}

// UserIdString. `()` joined the grammar in 3.4.11 (release notes) and 3.5; earlier releases reject them.
const USER_ID_REGEX = "[a-zA-Z0-9@^$.!`\\-#+'~_|:\\(\\)]{1,128}";
const USER_ID_REGEX_OLD = "[a-zA-Z0-9@^$.!`\\-#+'~_|:]{1,128}";
const USER_ID = new RegExp(`^${USER_ID_REGEX}$`);
const USER_ID_OLD = new RegExp(`^${USER_ID_REGEX_OLD}$`);

export function userIdError(s: string, withParentheses = true): string | undefined {
  const [re, text] = withParentheses ? [USER_ID, USER_ID_REGEX] : [USER_ID_OLD, USER_ID_REGEX_OLD];
  return re.test(s) ? undefined : `User ID "${s}" does not match regex "${text}"`;
}

/** Does this SemVer carry the 3.4.11+ user-id grammar (with parentheses)? */
export const userIdAllowsParentheses = (version: string): boolean => releaseAtLeast(version, 3, 4, 11);

/** Java's `str.limit(n)` as Canton prints long inputs in messages: cut with an ellipsis. */
function limit(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}...` : s;
}

/** Canton's SafeSimpleString + LengthLimitedString: LF party syntax, no `::`, a maximum length. */
function safeSimple(s: string, max: number): string | undefined {
  const lf = partyError(s);
  if (lf !== undefined) return lf;
  if (s.includes('::')) return 'String contains reserved delimiter `::`.';
  if (s.length > max) {
    return `The given string has a maximum length of ${max} but a string of length ${s.length} ('${limit(s, max + 50)}') was given`;
  }
  return undefined;
}

/**
 * A Canton UniqueIdentifier `<identifier>::<namespace>` (synchronizer, participant and party ids).
 * Identifier: LF party syntax, no `::`, ≤ 185; namespace (fingerprint): the same, ≤ 68.
 */
export function uniqueIdentifierError(s: string): string | undefined {
  const pos = s.indexOf('::');
  if (pos > 0) {
    const id = safeSimple(s.slice(0, pos), 185);
    if (id !== undefined) return `Identifier decoding of \`${limit(s, 200)}\` failed with: ${id}`;
    const fp = safeSimple(s.slice(pos + 2), 68);
    if (fp !== undefined) return `Fingerprint decoding of \`${limit(s, 200)}\` failed with: ${fp}`;
    return undefined;
  }
  if (pos === 0) return `Invalid unique identifier \`${s}\` with empty identifier.`;
  if (s.length === 0) return 'Empty string is not a valid unique identifier.';
  return `Invalid unique identifier \`${s}\` with missing namespace.`;
}

const CONTRACT_ID_V1 = /^00[0-9a-f]{64}(?:[0-9a-f]{2}){0,94}$/;
const CONTRACT_ID_V2 = /^01[0-9a-f]{2,}$/;

/** An LF contract id: V1 (`00` + 32-byte discriminator + suffix ≤ 94 bytes) or V2 (`01` …), lowercase hex. */
export function contractIdError(s: string): string | undefined {
  if (CONTRACT_ID_V1.test(s) || (CONTRACT_ID_V2.test(s) && s.length % 2 === 0)) return undefined;
  return `cannot parse ContractId "${s}"`;
}

/** A package reference in a template id: `#<package-name>` or a package id. */
export function packageRefError(s: string): string | undefined {
  return s.startsWith('#') ? packageNameError(s.slice(1)) : packageIdError(s);
}
