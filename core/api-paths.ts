// The JSON Ledger API paths the harness sends to, one table: the ledger client, discovery, the preflight and the
// run's own probes build their requests and their messages from it. Relative to LEDGER_BASE_URL.
import type { Operation } from '../rules/catalogue';

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

/** Each catalogued operation as a reader names it (the Allure epic of its rules): method and path. */
export const OPERATION_NAMES: Record<Exclude<Operation, 'all'>, string> = {
  version: `GET ${PATHS.version}`,
  'vetting-list': `POST ${PATHS.vettingList}`,
  'submit-tree': `POST ${PATHS.submitTree}`,
};

/**
 * Where Canton 3.4.11's OpenAPI file publishes the vetting listing (the deprecated `GET` with the same request and
 * response): spec/extract.ts looks the operation up there too. The harness never sends to it.
 */
export const DEPRECATED_VETTING_LIST = '/v2/package-vetting';

/** Canton's default audience of a participant's tokens: this prefix, then the participant id. */
export const AUDIENCE_PREFIX = 'https://daml.com/jwt/aud/participant/';

export const participantAudience = (participantId: string): string => `${AUDIENCE_PREFIX}${participantId}`;
