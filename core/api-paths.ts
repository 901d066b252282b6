// The JSON Ledger API paths the harness sends to, one table: the ledger client, discovery, the preflight and the
// run's own probes build their requests and their messages from it. Relative to LEDGER_BASE_URL.

export const PATHS = {
  version: '/v2/version',
  vettingList: '/v2/package-vetting/list',
  submitTree: '/v2/commands/submit-and-wait-for-transaction-tree',
  /** Where a participant says its own id (any valid token may ask). */
  participantId: '/v2/parties/participant-id',
  authenticatedUser: '/v2/authenticated-user',
  /** The participant's own OpenAPI description (Canton's JsApiDocsService), read beside the run, never judged. */
  description: '/docs/openapi',
  userRights: (user: string): string => `/v2/users/${encodeURIComponent(user)}/rights`,
  connectedSynchronizers: (party: string): string =>
    `/v2/state/connected-synchronizers?party=${encodeURIComponent(party)}`,
} as const;

/** Canton's default audience of a participant's tokens: this prefix, then the participant id. */
export const AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';

export const participantAudience = (participantId: string): string => `${AUDIENCE_PREFIX}${participantId}`;
