// The kinds of need a catalogue row may name (its `needs` field, rules/groups/): what a rule needs of the
// target and the settings to be judged at all. The tests skip on an unmet need (fixtures/needs.ts) and the
// preflight forecasts the same skips, both through core/rule-needs.ts, so the two say the same words. Needs
// that depend on the participant's data (two entries to order, a package name to filter by) stay with their
// tests.

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

export const NEGATIVE_TOKENS: Need[] = ['user-token', 'minted-tokens'];
