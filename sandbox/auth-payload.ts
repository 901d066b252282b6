// Canton's reading of a verified JWT payload (AuthServiceJWTCodec.readPayload, daml-jwt): only user tokens
// (`sub` = user id) in one of two formats. Anything else is not a Canton token and authenticates nobody.
import type { JWTPayload } from 'jose';

export const AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';
export const LEDGER_API_SCOPE = 'daml_ledger_api';

export interface UserToken {
  userId: string;
  /** The participant the token is restricted to; undefined = any participant (scope form without `aud`). */
  participantId: string | undefined;
  format: 'audience' | 'scope';
}

/** `aud`/`scp` are a string or an array of strings; null or absent is empty. Other shapes are invalid. */
function stringOrArray(value: unknown): string[] | undefined {
  if (value === undefined || value === null) return [];
  if (typeof value === 'string') return [value];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string')) return value;
  return undefined;
}

/** `scope` (space-separated string) wins when it yields anything; otherwise `scp` (array or string). */
function scopes(payload: JWTPayload): string[] | undefined {
  const fromScope = typeof payload.scope === 'string' ? payload.scope.split(' ') : [];
  return fromScope.length > 0 ? fromScope : stringOrArray(payload.scp);
}

/** The user token, or the reason Canton would not accept the payload (it logs it; the client sees 401). */
export function readUserToken(payload: JWTPayload): UserToken | string {
  const audiences = stringOrArray(payload.aud);
  const scopeList = scopes(payload);
  if (audiences === undefined) return '`aud` is neither a string nor an array of strings';
  if (scopeList === undefined) return '`scp` is neither a string nor an array of strings';
  if (typeof payload.sub !== 'string') return 'Could not read value for sub';
  const userId = payload.sub;

  const participantAudiences = audiences.filter((a) => a.startsWith(AUDIENCE_PREFIX));
  if (participantAudiences.length > 0) {
    const ids = participantAudiences.map((a) => a.slice(AUDIENCE_PREFIX.length)).filter((id) => id !== '');
    if (ids.length === 0) return `\`aud\` must include participantId value prefixed by ${AUDIENCE_PREFIX}`;
    if (ids.length > 1)
      return `\`aud\` must include a single participantId value prefixed by ${AUDIENCE_PREFIX}`;
    return { userId, participantId: ids[0], format: 'audience' };
  }
  if (scopeList.includes(LEDGER_API_SCOPE)) {
    // In the scope form a single `aud` is read as the participant id the token is meant for.
    if (audiences.length > 1) return '`aud` must be empty or a single participantId.';
    return { userId, participantId: audiences[0], format: 'scope' };
  }
  return `Access token with unknown scope "${scopeList.join('')}"`;
}
