// What a rule needs of the target and the settings to be judged at all, as data: the tests skip on an unmet
// need (fixtures/needs.ts) and the preflight forecasts the same skips (scripts/preflight-checks.ts), both from
// core/rule-needs.ts, so the two say the same words. Needs that depend on the participant's data (two entries
// to order, a package name to filter by) stay with their tests.

export type Need =
  /** A user token to send, withhold or break (not LEDGER_AUTH=none). */
  | 'user-token'
  /** A participant without authentication, where a body may name any user. */
  | 'no-auth'
  /** Tokens the harness signs itself (the negative tokens: expired, another key, another audience…). */
  | 'minted-tokens'
  /** Canton's default audience check (the audience form, LEDGER_AUDIENCE not customised). */
  | 'default-audience'
  /** Another user with the same act-as rights: LEDGER_SECOND_USER with a minted token, or no authentication. */
  | 'another-user'
  /** Two actAs parties. */
  | 'two-act-as'
  /** Requests that name a synchronizer (not LEDGER_SYNCHRONIZER_ID=none). */
  | 'synchronizer'
  /** The sandbox's control route, to vet packages while a rule reads (core/control-route.ts). */
  | 'control-route'
  /** A target release of at least `release`, with why. */
  | { release: string; why: string };

const NEGATIVE_TOKENS: Need[] = ['user-token', 'minted-tokens'];

export const RULE_NEEDS: Readonly<Record<string, readonly Need[]>> = {
  'VER-AUTH-REQUIRED': ['user-token'],
  'AUTH-NO-HEADER': ['user-token'],
  'AUTH-NO-HEADER-CODE': ['user-token'],
  'AUTH-EMPTY-BEARER': ['user-token'],
  'AUTH-MALFORMED-TOKEN': ['user-token'],
  'AUTH-UNSIGNED-TOKEN': ['user-token'],
  'AUTH-EXPIRED-TOKEN': NEGATIVE_TOKENS,
  'AUTH-NOT-YET-VALID': NEGATIVE_TOKENS,
  'AUTH-WRONG-KEY': NEGATIVE_TOKENS,
  'AUTH-WRONG-AUDIENCE': NEGATIVE_TOKENS,
  'AUTH-OTHER-PARTICIPANT': [...NEGATIVE_TOKENS, 'default-audience'],
  'AUTH-UNKNOWN-USER': NEGATIVE_TOKENS,
  'AUTH-ACTAS-NO-RIGHT': ['user-token'],
  'AUTH-ACTAS-NO-RIGHT-CODE': ['user-token'],
  'AUTH-READAS-NO-RIGHT': ['user-token'],
  'AUTH-READAS-NO-RIGHT-CODE': ['user-token'],
  'SUB-PARTY-BOUNDARY': ['user-token'],
  'SUB-USERID-FROM-TOKEN': ['user-token'],
  'SUB-USERID-MISMATCH': ['user-token'],
  'SUB-USERID-BOUNDARY': ['no-auth'],
  'SUB-DEDUP-NEW-USER-ID': ['another-user'],
  'SUB-DEDUP-ACTAS-ORDER': ['two-act-as'],
  'SUB-DEDUP-NEW-ACTAS': ['two-act-as'],
  'SUB-SYNCHRONIZER-ECHO': ['synchronizer'],
  'VET-PAGE-TOKEN-REPEAT-MORE': ['control-route'],
  'SUB-TREE-REMOVED-3-5': [{ release: '3.5.0', why: 'the removal applies from the server release 3.5.0' }],
  'SUB-TAPS-NONPOSITIVE': [
    {
      release: '3.4.12',
      why: 'tapsMaxPasses came with Canton 3.4.12 (an earlier release ignores the field)',
    },
  ],
};

export const needsOf = (ruleId: string): readonly Need[] => RULE_NEEDS[ruleId] ?? [];
