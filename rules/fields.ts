// Which rules read which field of the three operations' bodies, as data: the drift report of a participant's
// own description (core/openapi-drift.ts) names, beside each changed field, the rules that would notice it, so
// a reader sees whether a change is covered. Fields are named as spec/ and schemas/differences.json name them
// (`Component.property`, `[]` array items, `{}` map values); an entry covers the field and everything under it.
import type { Operation } from './types';

/** Rules that validate a whole body against its schema: they read every field reachable from it. */
export const BODY_READERS: readonly {
  operation: Exclude<Operation, 'all'> | 'all';
  body: 'request' | 'response' | 'error';
  rules: readonly string[];
}[] = [
  { operation: 'version', body: 'response', rules: ['VER-SHAPE'] },
  { operation: 'vetting-list', body: 'response', rules: ['VET-SHAPE'] },
  { operation: 'submit-tree', body: 'response', rules: ['SUB-SHAPE'] },
  { operation: 'submit-tree', body: 'request', rules: ['SUB-WRONG-TYPES'] },
  { operation: 'all', body: 'error', rules: ['GEN-ERROR-BODY'] },
];

const PARTY = ['SUB-PARTY-INVALID', 'SUB-PARTY-INVALID-CODE', 'SUB-PARTY-BOUNDARY'];
const LEDGER_STRING = [
  'SUB-LEDGERSTRING-INVALID',
  'SUB-LEDGERSTRING-INVALID-CODE',
  'SUB-LEDGERSTRING-BOUNDARY',
];
const MIN_TIME = ['SUB-MIN-LEDGER-TIME-BOTH', 'SUB-MIN-LEDGER-TIME-BOTH-CODE'];
const WALK = [
  'VET-PAGE-AFTER-TOKEN',
  'VET-PAGE-WALK-COMPLETE',
  'VET-PAGE-WALK-ENDS',
  'VET-PAGE-FILTERED-WALK',
];
const PAGE_SIZE = [
  'VET-PAGE-SIZE-DEFAULT',
  'VET-PAGE-SIZE-DEFAULT-MAX',
  'VET-PAGE-SIZE-MAX',
  'VET-PAGE-SIZE-ABOVE-MAX',
  'VET-PAGE-SIZE-ABOVE-MAX-CODE',
  'VET-PAGE-SIZE-NEGATIVE',
];
const PACKAGE_FILTER = [
  'VET-FILTER-PACKAGE-OR',
  'VET-FILTER-EMPTY-LISTS',
  'VET-FILTER-NO-MATCH',
  'VET-FILTER-ENTRY-HAS-MATCH',
  'VET-PAGE-FILTERED-WALK',
];
const TOPOLOGY_FILTER = ['VET-FILTER-TOPOLOGY-AND', 'VET-FILTER-EMPTY-LISTS'];

/** Field → the rules whose checks read it (beyond the whole-body readers above). */
export const FIELD_READERS: Readonly<Record<string, readonly string[]>> = {
  'JsCommands.commands': ['SUB-COMMANDS-EMPTY', 'SUB-COMMANDS-EMPTY-CODE', 'SUB-EMPTY-LISTS'],
  'JsCommands.actAs': [
    'SUB-ACTAS-EMPTY',
    'SUB-ACTAS-EMPTY-CODE',
    ...PARTY,
    'SUB-DEDUP-ACTAS-ORDER',
    'SUB-DEDUP-NEW-ACTAS',
    'AUTH-ACTAS-NO-RIGHT',
    'AUTH-ACTAS-NO-RIGHT-CODE',
  ],
  'JsCommands.readAs': [...PARTY, 'SUB-DEDUP-READAS', 'AUTH-READAS-NO-RIGHT', 'AUTH-READAS-NO-RIGHT-CODE'],
  'JsCommands.commandId': [
    'SUB-COMMANDID-MISSING',
    'SUB-COMMANDID-MISSING-CODE',
    ...LEDGER_STRING,
    'SUB-ECHO-IDS',
    'SUB-DEDUP-NEW-COMMAND-ID',
  ],
  'JsCommands.workflowId': [...LEDGER_STRING, 'SUB-ECHO-IDS'],
  'JsCommands.submissionId': [...LEDGER_STRING, 'SUB-DEDUP-SUBMISSION-ID'],
  'JsCommands.userId': [
    'SUB-USERID-INVALID',
    'SUB-USERID-BOUNDARY',
    'SUB-USERID-FROM-TOKEN',
    'SUB-USERID-MISMATCH',
    'SUB-DEDUP-NEW-USER-ID',
  ],
  'JsCommands.synchronizerId': [
    'SUB-SYNCHRONIZER-INVALID',
    'SUB-SYNCHRONIZER-INVALID-CODE',
    'SUB-SYNCHRONIZER-UNKNOWN',
    'SUB-SYNCHRONIZER-ECHO',
  ],
  'JsCommands.minLedgerTimeAbs': [...MIN_TIME, 'SUB-MIN-LEDGER-TIME-ABS'],
  'JsCommands.minLedgerTimeRel': [...MIN_TIME, 'SUB-MIN-LEDGER-TIME-REL'],
  'JsCommands.deduplicationPeriod': [
    'SUB-DEDUP-SAME-CHANGE-ID',
    'SUB-DEDUP-EXPIRY',
    'SUB-DEDUP-NEGATIVE-PERIOD',
    'SUB-DEDUP-PARALLEL',
  ],
  'JsCommands.tapsMaxPasses': ['SUB-TAPS-WITHIN-LIMIT', 'SUB-TAPS-NONPOSITIVE', 'SUB-TAPS-ABOVE-LIMIT'],
  'JsTransactionTree.commandId': ['SUB-ECHO-IDS'],
  'JsTransactionTree.workflowId': ['SUB-ECHO-IDS'],
  'JsTransactionTree.offset': ['SUB-OFFSETS-INCREASE'],
  'JsTransactionTree.synchronizerId': ['SUB-SYNCHRONIZER-ECHO'],
  'JsTransactionTree.effectiveAt': ['SUB-TIMESTAMPS', 'SUB-MIN-LEDGER-TIME-ABS', 'SUB-MIN-LEDGER-TIME-REL'],
  'JsTransactionTree.recordTime': ['SUB-TIMESTAMPS'],
  'JsTransactionTree.eventsById': ['SUB-EVENTS-WELL-FORMED'],
  'JsTransactionTree.traceContext': ['SUB-TRACEPARENT'],
  'CreatedEvent.createdAt': ['SUB-TIMESTAMPS'],
  CreatedEvent: ['SUB-EVENTS-WELL-FORMED'],
  ExercisedEvent: ['SUB-EVENTS-WELL-FORMED'],
  'ListVettedPackagesRequest.pageSize': PAGE_SIZE,
  'ListVettedPackagesRequest.pageToken': [
    ...WALK,
    'VET-PAGE-TOKEN-INVALID',
    'VET-PAGE-TOKEN-REPEAT',
    'VET-PAGE-TOKEN-REPEAT-MORE',
  ],
  'ListVettedPackagesRequest.packageMetadataFilter': PACKAGE_FILTER,
  'PackageMetadataFilter.packageIds': ['VET-FILTER-PACKAGE-IDS'],
  'PackageMetadataFilter.packageNamePrefixes': ['VET-FILTER-NAME-PREFIXES'],
  'ListVettedPackagesRequest.topologyStateFilter': TOPOLOGY_FILTER,
  'TopologyStateFilter.participantIds': ['VET-FILTER-PARTICIPANTS'],
  'TopologyStateFilter.synchronizerIds': ['VET-FILTER-SYNCHRONIZERS'],
  'ListVettedPackagesResponse.vettedPackages': [...WALK, 'VET-PAGE-ORDER', 'VET-PAGE-TOKEN-REPEAT'],
  'ListVettedPackagesResponse.nextPageToken': [...WALK, 'VET-PAGE-FINAL-TOKEN-EMPTY'],
  'VettedPackages.participantId': ['VET-PAGE-ORDER', 'VET-FILTER-PARTICIPANTS'],
  'VettedPackages.synchronizerId': ['VET-PAGE-ORDER', 'VET-FILTER-SYNCHRONIZERS'],
  'VettedPackage.packageId': ['VET-FILTER-PACKAGE-IDS', 'VET-FILTER-ENTRY-HAS-MATCH'],
  'VettedPackage.packageName': ['VET-FILTER-NAME-PREFIXES', 'VET-FILTER-ENTRY-HAS-MATCH'],
  'GetLedgerApiVersionResponse.version': ['VER-SEMVER', 'VER-STABLE', 'SUB-TREE-REMOVED-3-5'],
  'GetLedgerApiVersionResponse.features': ['VER-FEATURES', 'VER-STABLE'],
  'PackageFeature.maxVettedPackagesPageSize': PAGE_SIZE,
  'JsCantonError.code': ['GEN-ERROR-BODY'],
  'JsCantonError.grpcCodeValue': ['GEN-ERROR-BODY'],
};
