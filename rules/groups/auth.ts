import { rule } from './define';

const op = 'all' as const;
const A = '@auth' as const;
const HEADER =
  'Every operation takes the header Authorization with the value Bearer <ACCESS_TOKEN>. The header is required.';
const NOT_SHOWN = 'Behavior on a missing or invalid token: not shown. (Canton: 401 with a redacted body.)';
const RIGHTS_NOT_SHOWN =
  'Behavior on a missing right: not shown. (Canton: the Authorizer answers PERMISSION_DENIED, 403 with a redacted body.)';

// Every AUTH- rule is @readonly: its submissions are inert (core/inert.ts) and a refusal other than the
// credentials' 401 or 403 fails it, so it is judged without anything a participant could commit.
export const authRules = [
  rule(
    'AUTH-NO-HEADER',
    op,
    'interface',
    [A, '@readonly'],
    '5.1',
    HEADER,
    'a request without the Authorization header is rejected',
  ),
  rule(
    'AUTH-NO-HEADER-CODE',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    NOT_SHOWN,
    'a request without the Authorization header is rejected with 401',
  ),
  rule(
    'AUTH-EMPTY-BEARER',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    'Behavior on a missing or invalid token: not shown. (Canton: `Bearer ` with no token fails decoding the header: 400, JsonApiAuthIT.)',
    'an Authorization header with an empty bearer token is rejected with 400',
  ),
  rule(
    'AUTH-MALFORMED-TOKEN',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    NOT_SHOWN,
    'a malformed token is rejected with 401',
  ),
  rule(
    'AUTH-UNSIGNED-TOKEN',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    'Every operation takes a standard JWT of the ledger interface; behavior on an invalid token: not shown. (Canton: a token signed with no algorithm fails verification: 401.)',
    'an unsigned token (alg none) is rejected with 401',
  ),
  rule(
    'AUTH-EXPIRED-TOKEN',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    NOT_SHOWN,
    'an expired token is rejected with 401',
  ),
  rule(
    'AUTH-NOT-YET-VALID',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    'Behavior on a missing or invalid token: not shown. (Canton: the JWT verifier refuses a token before its nbf: 401.)',
    'a token that is not valid yet (nbf in the future) is rejected with 401',
  ),
  rule(
    'AUTH-WRONG-KEY',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    NOT_SHOWN,
    'a token signed with another key is rejected with 401',
  ),
  rule(
    'AUTH-WRONG-AUDIENCE',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    NOT_SHOWN,
    'a token for another audience or scope is rejected with 401',
  ),
  rule(
    'AUTH-OTHER-PARTICIPANT',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    'Token claims: not shown. (Canton: an audience-based token naming another participant is InvalidParticipant, 403 with a redacted body.)',
    'a token for another participant is rejected with 403',
  ),
  rule(
    'AUTH-UNKNOWN-USER',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    'Token claims, token issuance: not shown. (Canton: a valid token of an unknown user is 403.)',
    'a token of an unknown user is rejected with 403',
  ),
  rule(
    'AUTH-ACTAS-NO-RIGHT',
    'submit-tree',
    'interface',
    [A, '@readonly'],
    '5.2',
    'The token must authorize the sender to act on behalf of each party in actAs.',
    'acting as a party the user has no right for is rejected',
  ),
  rule(
    'AUTH-ACTAS-NO-RIGHT-CODE',
    'submit-tree',
    'canton',
    [A, '@readonly'],
    '5.2',
    RIGHTS_NOT_SHOWN,
    'acting as a party the user has no right for is rejected with 403',
  ),
  rule(
    'AUTH-READAS-NO-RIGHT',
    'submit-tree',
    'interface',
    [A, '@readonly'],
    '5.2',
    'The token must authorize the sender to read contract data on behalf of each party in readAs.',
    'reading as a party the user has no right for is rejected',
  ),
  rule(
    'AUTH-READAS-NO-RIGHT-CODE',
    'submit-tree',
    'canton',
    [A, '@readonly'],
    '5.2',
    RIGHTS_NOT_SHOWN,
    'reading as a party the user has no right for is rejected with 403',
  ),
];
