import { rule } from './define';

const op = 'vetting-list' as const;
const RO = '@readonly' as const;

export const vettingRules = [
  rule({
    id: 'VET-SHAPE',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '2.8',
      text: 'Vetting list response: vettedPackages (array of VettedPackages), nextPageToken (string).',
    },
    title: 'a vetting page matches the response shape',
  }),
  rule({
    id: 'VET-PAGE-ORDER',
    operation: op,
    level: 'interface',
    tags: [RO, '@flagship'],
    clause: { section: '4.2', text: 'Entries are sorted by synchronizerId, then participantId.' },
    title: 'entries are sorted by synchronizerId, then participantId',
  }),
  rule({
    id: 'VET-PAGE-AFTER-TOKEN',
    operation: op,
    level: 'interface',
    tags: [RO, '@flagship'],
    clause: {
      section: '4.2 Pagination 3',
      text: 'A token guarantees that entries on the subsequent page sort after the last entry of the previous page.',
    },
    title: 'every page sorts strictly after the last entry of the previous page',
  }),
  rule({
    id: 'VET-PAGE-WALK-COMPLETE',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '4.2 Pagination 2',
      text: 'To fetch the next page, send the nextPageToken of the previous response as pageToken.',
    },
    title: 'a walk with small pages equals the full listing, with no gap and no repeat',
  }),
  rule({
    id: 'VET-PAGE-WALK-ENDS',
    operation: op,
    level: 'interface',
    tags: [RO, '@flagship'],
    clause: {
      section: '4.2 Pagination 5',
      text: 'nextPageToken is an empty string when no further results exist.',
    },
    title: 'a walk ends with an empty token, and no empty token comes while results remain',
  }),
  rule({
    id: 'VET-PAGE-FILTERED-WALK',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '4.2 Pagination 2, 5',
      text: 'To fetch the next page, send the nextPageToken of the previous response as pageToken. nextPageToken is an empty string when no further results exist.',
    },
    title:
      'a package-filtered walk lists every matching entry, and no empty token comes while matches remain',
  }),
  rule({
    id: 'VET-PAGE-FINAL-TOKEN-EMPTY',
    operation: op,
    level: 'interface',
    tags: [RO, '@flagship'],
    clause: { section: '2.8', text: 'nextPageToken: Empty string when no further results exist.' },
    title: 'the page holding the last entry carries an empty nextPageToken',
  }),
  rule({
    id: 'VET-PAGE-SIZE-DEFAULT',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '4.2 Pagination 6',
      text: 'pageSize 0 (unspecified) lets the server decide the number of results.',
    },
    title: 'pageSize 0 lets the server decide the page length',
  }),
  rule({
    id: 'VET-PAGE-SIZE-DEFAULT-MAX',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '4.2 Pagination 6',
      text: 'pageSize 0 (unspecified) lets the server decide the number of results. (Canton: 0 or absent means the maximum, max-vetted-packages-page-size.)',
    },
    title: 'pageSize 0 or absent gives the page that pageSize equal to the maximum gives',
  }),
  rule({
    id: 'VET-PAGE-SIZE-MAX',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '4.2 Pagination 7',
      text: 'The maximum is features.packageFeature.maxVettedPackagesPageSize from the version operation.',
    },
    title: 'pageSize equal to the maximum is accepted and no page is longer than requested',
  }),
  rule({
    id: 'VET-PAGE-SIZE-ABOVE-MAX',
    operation: op,
    level: 'interface',
    tags: [RO, '@flagship'],
    clause: {
      section: '4.2 Pagination 7; 7',
      text: "A pageSize above the server's maximum produces an error.",
    },
    title: 'pageSize above the maximum is an error',
  }),
  rule({
    id: 'VET-PAGE-SIZE-ABOVE-MAX-CODE',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '7',
      text: 'Error body shape, error codes and HTTP status codes: not shown. (Canton: PROTO_DESERIALIZATION_FAILURE, 400.)',
    },
    title: 'pageSize above the maximum is rejected with PROTO_DESERIALIZATION_FAILURE',
  }),
  rule({
    id: 'VET-PAGE-SIZE-NEGATIVE',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '2.7',
      text: 'pageSize: integer (int32). (Canton: a negative size is PROTO_DESERIALIZATION_FAILURE, 400.)',
    },
    title: 'a negative pageSize is rejected with PROTO_DESERIALIZATION_FAILURE',
  }),
  rule({
    id: 'VET-PAGE-TOKEN-INVALID',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '4.2 Pagination 2',
      text: 'To fetch the next page, send the nextPageToken of the previous response. (Canton: a token it did not issue is PROTO_DESERIALIZATION_FAILURE, 400.)',
    },
    title: 'a page token the server did not issue is rejected with PROTO_DESERIALIZATION_FAILURE',
  }),
  rule({
    id: 'VET-PAGE-TOKEN-REPEAT',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '4.2 Pagination 4',
      text: 'The server stores no intermediate results between chained calls.',
    },
    title: 'the same token twice gives the same page',
  }),
  // Writes: it vets packages between two reads (the sandbox's control route) to see the second page grow.
  rule({
    id: 'VET-PAGE-TOKEN-REPEAT-MORE',
    operation: op,
    level: 'interface',
    tags: ['@writes', '@sandbox-only'],
    clause: {
      section: '4.2 Pagination 4',
      text: 'If vetted packages are added meanwhile and a page is requested twice with the same token, the second call can return more packages.',
    },
    title: 'the same token after packages were added returns the added packages',
    needs: ['control-route'],
  }),
  rule({
    id: 'VET-FILTER-PACKAGE-IDS',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '4.2',
      text: 'Matching semantics of the id and prefix lists within each filter: not shown. (Canton: packageIds is any-of.)',
    },
    title: 'a packageIds filter lists only entries and packages with one of the ids',
  }),
  rule({
    id: 'VET-FILTER-NAME-PREFIXES',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '4.2',
      text: 'Matching semantics of the id and prefix lists within each filter: not shown. (Canton: any prefix matches.)',
    },
    title: 'a packageNamePrefixes filter lists only packages whose name has one of the prefixes',
  }),
  rule({
    id: 'VET-FILTER-PACKAGE-OR',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '4.2',
      text: 'Matching semantics …: not shown. (Canton: packageIds and packageNamePrefixes together are OR.)',
    },
    title: 'packageIds and packageNamePrefixes together match either',
  }),
  rule({
    id: 'VET-FILTER-PARTICIPANTS',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '2.7',
      text: 'TopologyStateFilter: the topology filter that the returned set must satisfy. (Canton: participantIds any-of.)',
    },
    title: 'a participantIds filter lists only those participants',
  }),
  rule({
    id: 'VET-FILTER-SYNCHRONIZERS',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '2.7',
      text: 'TopologyStateFilter: the topology filter that the returned set must satisfy. (Canton: synchronizerIds any-of.)',
    },
    title: 'a synchronizerIds filter lists only those synchronizers',
  }),
  rule({
    id: 'VET-FILTER-TOPOLOGY-AND',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '2.7',
      text: 'Matching semantics …: not shown. (Canton: participantIds and synchronizerIds together are AND.)',
    },
    title: 'participantIds and synchronizerIds together must both match',
  }),
  rule({
    id: 'VET-FILTER-EMPTY-LISTS',
    operation: op,
    level: 'canton',
    tags: [RO],
    clause: {
      section: '4.2',
      text: 'how empty lists act: not shown. (Canton: an empty list restricts nothing.)',
    },
    title: 'empty filter lists restrict nothing',
  }),
  rule({
    id: 'VET-FILTER-NO-MATCH',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '2.8',
      text: 'vettedPackages: opt, may be empty. nextPageToken: Empty string when no further results exist.',
    },
    title: 'a filter matching nothing gives an empty list and an empty token',
  }),
  rule({
    id: 'VET-FILTER-ENTRY-HAS-MATCH',
    operation: op,
    level: 'interface',
    tags: [RO],
    clause: {
      section: '4.2',
      text: 'A VettedPackages entry is returned when it contains at least one VettedPackage matching both the PackageMetadataFilter and the TopologyStateFilter.',
    },
    title: 'every returned entry holds at least one package matching the filter',
  }),
];
