import { rule } from './define';
import { NEGATIVE_TOKENS } from '../needs';

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
  rule({
    id: 'AUTH-NO-HEADER',
    operation: op,
    level: 'interface',
    tags: [A, '@readonly'],
    clause: { section: '5.1', text: HEADER },
    title: 'a request without the Authorization header is rejected',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-NO-HEADER-CODE',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: { section: '5.4', text: NOT_SHOWN },
    title: 'a request without the Authorization header is rejected with 401',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-EMPTY-BEARER',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: {
      section: '5.4',
      text: 'Behavior on a missing or invalid token: not shown. (Canton: `Bearer ` with no token fails decoding the header: 400, JsonApiAuthIT.)',
    },
    title: 'an Authorization header with an empty bearer token is rejected with 400',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-MALFORMED-TOKEN',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: { section: '5.4', text: NOT_SHOWN },
    title: 'a malformed token is rejected with 401',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-UNSIGNED-TOKEN',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: {
      section: '5.4',
      text: 'Every operation takes a standard JWT of the ledger interface; behavior on an invalid token: not shown. (Canton: a token signed with no algorithm fails verification: 401.)',
    },
    title: 'an unsigned token (alg none) is rejected with 401',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-EXPIRED-TOKEN',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: { section: '5.4', text: NOT_SHOWN },
    title: 'an expired token is rejected with 401',
    needs: NEGATIVE_TOKENS,
  }),
  rule({
    id: 'AUTH-NOT-YET-VALID',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: {
      section: '5.4',
      text: 'Behavior on a missing or invalid token: not shown. (Canton: the JWT verifier refuses a token before its nbf: 401.)',
    },
    title: 'a token that is not valid yet (nbf in the future) is rejected with 401',
    needs: NEGATIVE_TOKENS,
  }),
  rule({
    id: 'AUTH-WRONG-KEY',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: { section: '5.4', text: NOT_SHOWN },
    title: 'a token signed with another key is rejected with 401',
    needs: NEGATIVE_TOKENS,
  }),
  rule({
    id: 'AUTH-WRONG-AUDIENCE',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: { section: '5.4', text: NOT_SHOWN },
    title: 'a token for another audience or scope is rejected with 401',
    needs: NEGATIVE_TOKENS,
  }),
  rule({
    id: 'AUTH-OTHER-PARTICIPANT',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: {
      section: '5.4',
      text: 'Token claims: not shown. (Canton: an audience-based token naming another participant is InvalidParticipant, 403 with a redacted body.)',
    },
    title: 'a token for another participant is rejected with 403',
    needs: [...NEGATIVE_TOKENS, 'default-audience'],
  }),
  rule({
    id: 'AUTH-UNKNOWN-USER',
    operation: op,
    level: 'canton',
    tags: [A, '@readonly'],
    clause: {
      section: '5.4',
      text: 'Token claims, token issuance: not shown. (Canton: a valid token of an unknown user is 403.)',
    },
    title: 'a token of an unknown user is rejected with 403',
    needs: NEGATIVE_TOKENS,
  }),
  rule({
    id: 'AUTH-ACTAS-NO-RIGHT',
    operation: 'submit-tree',
    level: 'interface',
    tags: [A, '@readonly'],
    clause: {
      section: '5.2',
      text: 'The token must authorize the sender to act on behalf of each party in actAs.',
    },
    title: 'acting as a party the user has no right for is rejected',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-ACTAS-NO-RIGHT-CODE',
    operation: 'submit-tree',
    level: 'canton',
    tags: [A, '@readonly'],
    clause: { section: '5.2', text: RIGHTS_NOT_SHOWN },
    title: 'acting as a party the user has no right for is rejected with 403',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-READAS-NO-RIGHT',
    operation: 'submit-tree',
    level: 'interface',
    tags: [A, '@readonly'],
    clause: {
      section: '5.2',
      text: 'The token must authorize the sender to read contract data on behalf of each party in readAs.',
    },
    title: 'reading as a party the user has no right for is rejected',
    needs: ['user-token'],
  }),
  rule({
    id: 'AUTH-READAS-NO-RIGHT-CODE',
    operation: 'submit-tree',
    level: 'canton',
    tags: [A, '@readonly'],
    clause: { section: '5.2', text: RIGHTS_NOT_SHOWN },
    title: 'reading as a party the user has no right for is rejected with 403',
    needs: ['user-token'],
  }),
];
