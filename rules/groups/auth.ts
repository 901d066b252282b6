import { rule } from './define';

const op = 'all' as const;
const A = '@auth' as const;
const HEADER =
  'Every operation takes the header Authorization with the value Bearer <ACCESS_TOKEN>. The header is required.';
const NOT_SHOWN = 'Behavior on a missing or invalid token: not shown. (Canton: 401 with a redacted body.)';

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
    'AUTH-MALFORMED-TOKEN',
    op,
    'canton',
    [A, '@readonly'],
    '5.4',
    NOT_SHOWN,
    'a malformed token is rejected with 401',
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
    [A, '@writes'],
    '5.2',
    'The token must authorize the sender to act on behalf of each party in actAs.',
    'acting as a party the user has no right for is rejected',
  ),
  rule(
    'AUTH-READAS-NO-RIGHT',
    'submit-tree',
    'interface',
    [A, '@writes'],
    '5.2',
    'The token must authorize the sender to read contract data on behalf of each party in readAs.',
    'reading as a party the user has no right for is rejected',
  ),
];
