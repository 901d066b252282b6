// Faults that break the vetting rules (POST /v2/package-vetting/list): at least one per VET-* rule, more where
// a rule can break several ways. Output-level faults rewrite the response here; behavioural ones are switched
// by name at the one place they deviate (sandbox/vetting/request.ts, sandbox/vetting/list.ts,
// sandbox/routes/vetting.ts). `rules` lists every rule of tests/vetting-*.spec.ts the fault makes fail.
import { encodePageToken } from '../../vetting/page-token';
import { PROFILES } from '../profiles';
import { fault, type ResponseView } from '../types';

interface Entry {
  synchronizerId: string;
  participantId: string;
  topologySerial?: unknown;
  packages?: { validFromInclusive?: unknown }[];
}
interface Page {
  vettedPackages?: Entry[];
  nextPageToken?: string;
}
interface Request {
  pageSize?: number;
  pageToken?: string;
  packageMetadataFilter?: { packageIds?: string[]; packageNamePrefixes?: string[] } | null;
  topologyStateFilter?: { participantIds?: string[]; synchronizerIds?: string[] } | null;
}
interface ErrorBody {
  code?: string;
  context?: { reason?: string };
}

/** A rewrite of successful listing pages only. */
const onPage =
  (apply: (page: Page, request: Request) => Page | undefined) =>
  (res: ResponseView, req: { body: unknown }): ResponseView | undefined => {
    if (res.status !== 200) return undefined;
    const page = apply(structuredClone(res.body) as Page, req.body ?? {});
    return page === undefined ? undefined : { ...res, body: page };
  };

/** A rewrite of Canton's PROTO_DESERIALIZATION_FAILURE answers whose reason matches `reason`. */
const onRejection =
  (reason: RegExp, apply: (res: ResponseView) => ResponseView) =>
  (res: ResponseView): ResponseView | undefined => {
    const body = res.body as ErrorBody;
    if (res.status !== 400 || body?.code !== 'PROTO_DESERIALIZATION_FAILURE') return undefined;
    return reason.test(body.context?.reason ?? '') ? apply(res) : undefined;
  };

const withError = (res: ResponseView, status: number, fields: Record<string, unknown>): ResponseView => ({
  ...res,
  status,
  body: { ...(res.body as object), ...fields },
});

const ABOVE_MAX = /must not exceed the server's maximum/;
const NEGATIVE = /Received the negative/;
const BAD_TOKEN = /Invalid page token/;

const hasFilter = (r: Request): boolean =>
  [
    r.packageMetadataFilter?.packageIds,
    r.packageMetadataFilter?.packageNamePrefixes,
    r.topologyStateFilter?.participantIds,
    r.topologyStateFilter?.synchronizerIds,
  ].some((list) => (list?.length ?? 0) > 0);

export const vettingFaults = [
  // ─── Shape ───────────────────────────────────────────────────────────────────────────────────────────────
  fault({
    name: 'vet-shape-serial-string',
    breaks: 'topologySerial is sent as a string ("3"), not an integer',
    rules: ['VET-SHAPE'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page) => {
        for (const e of page.vettedPackages ?? []) e.topologySerial = String(e.topologySerial);
        return page;
      }),
    },
  }),
  fault({
    name: 'vet-shape-serial-dropped',
    breaks: 'the required topologySerial is left out of every entry',
    rules: ['VET-SHAPE'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page) => {
        for (const e of page.vettedPackages ?? []) delete e.topologySerial;
        return page;
      }),
    },
  }),
  fault({
    name: 'vet-shape-valid-from-epoch',
    breaks: 'validFromInclusive is sent as epoch milliseconds (a number), not a timestamp string',
    rules: ['VET-SHAPE'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page) => {
        for (const p of (page.vettedPackages ?? []).flatMap((e) => e.packages ?? [])) {
          if (typeof p.validFromInclusive === 'string')
            p.validFromInclusive = Date.parse(p.validFromInclusive);
        }
        return page;
      }),
    },
  }),

  // ─── Order ───────────────────────────────────────────────────────────────────────────────────────────────
  fault({
    name: 'vet-entries-unsorted',
    breaks: "the entries of a page come in reverse order (tokens still follow the page's real last entry)",
    rules: ['VET-PAGE-ORDER'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page) => {
        if ((page.vettedPackages?.length ?? 0) < 2) return undefined;
        page.vettedPackages!.reverse();
        return page;
      }),
    },
  }),
  fault({
    name: 'vet-sort-participant-first',
    breaks: 'the entries of a page are sorted by participantId, then synchronizerId',
    rules: ['VET-PAGE-ORDER'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page) => {
        const key = (e: Entry) => `${e.participantId}\u0000${e.synchronizerId}`;
        page.vettedPackages?.sort((a, b) => (key(a) < key(b) ? -1 : key(a) > key(b) ? 1 : 0));
        return page;
      }),
    },
  }),
  fault({
    name: 'vet-filter-order-from-request',
    breaks: 'with a participantIds filter, entries follow the order of the request list, not participantId',
    rules: ['VET-PAGE-ORDER'],
  }),

  // ─── Tokens and walks ────────────────────────────────────────────────────────────────────────────────────
  fault({
    name: 'vet-page-overlap',
    breaks: "the page after a token starts with the previous page's last entry again (an inclusive token)",
    rules: ['VET-PAGE-AFTER-TOKEN', 'VET-PAGE-WALK-COMPLETE', 'VET-PAGE-WALK-ENDS'],
  }),
  fault({
    name: 'vet-page-skip',
    breaks:
      'the page after a token skips the first entry that follows the token (a gap at every page boundary)',
    rules: ['VET-PAGE-WALK-COMPLETE', 'VET-PAGE-WALK-ENDS', 'VET-PAGE-TOKEN-REPEAT-MORE'],
  }),
  fault({
    name: 'vet-walk-never-ends',
    breaks: 'an empty page after a token carries that token again instead of "": the walk never ends',
    rules: ['VET-PAGE-WALK-ENDS'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page, request) => {
        if ((page.vettedPackages?.length ?? 0) > 0 || !request.pageToken) return undefined;
        page.nextPageToken = request.pageToken;
        return page;
      }),
    },
  }),
  fault({
    name: 'vet-walk-ends-early',
    breaks: 'a page filled to the requested pageSize carries "" although more entries follow',
    rules: ['VET-PAGE-WALK-ENDS', 'VET-PAGE-WALK-COMPLETE'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page, request) => {
        const size = request.pageSize ?? 0;
        if (size <= 0 || (page.vettedPackages?.length ?? 0) !== size) return undefined;
        page.nextPageToken = '';
        return page;
      }),
    },
  }),
  fault({
    name: 'vet-final-token-full-page',
    breaks:
      'strict-interface mode only: the last page carries "" only when it is shorter than pageSize; an exactly full last page keeps a token (a no-op in canton mode, where every non-empty page keeps one)',
    rules: ['VET-PAGE-FINAL-TOKEN-EMPTY'],
    profile: PROFILES.strictInterface,
  }),
  fault({
    name: 'vet-filter-paged-first',
    breaks:
      'strict-interface mode pages a package-filtered request as Canton does: a window of pageSize entries filtered afterwards, so a window without a match is an empty page with "" and the walk ends before later matches',
    rules: ['VET-PAGE-FILTERED-WALK'],
    profile: PROFILES.strictInterface,
  }),
  fault({
    name: 'vet-token-cursor',
    breaks:
      'a token names a server-side cursor that moves on with every use: the same token twice gives the next page',
    rules: ['VET-PAGE-TOKEN-REPEAT', 'VET-PAGE-TOKEN-REPEAT-MORE'],
  }),
  fault({
    name: 'vet-token-stale-cache',
    breaks: 'the page of a token is computed once and served again: packages vetted later never show',
    rules: ['VET-PAGE-TOKEN-REPEAT-MORE'],
  }),
  fault({
    name: 'vet-token-position',
    breaks:
      'a page token holds how many entries came before it, not the last entry: the same place on a quiet participant, but an entry joining (or leaving) before it makes the next page repeat (or skip) an entry',
    rules: ['VET-PAGE-AFTER-TOKEN', 'VET-PAGE-WALK-COMPLETE'],
    profile: PROFILES.live,
  }),
  fault({
    name: 'vet-invalid-token-accepted',
    breaks: 'a page token the server cannot decode is taken as the first page',
    rules: ['VET-PAGE-TOKEN-INVALID'],
  }),
  fault({
    name: 'vet-invalid-token-not-found',
    breaks:
      'a page token the server cannot decode is answered 404 NOT_FOUND, not PROTO_DESERIALIZATION_FAILURE',
    rules: ['VET-PAGE-TOKEN-INVALID'],
    rewrite: {
      route: 'vetting-list',
      apply: onRejection(BAD_TOKEN, (res) =>
        withError(res, 404, { code: 'PAGE_TOKEN_NOT_FOUND', grpcCodeValue: 5, errorCategory: 11 }),
      ),
    },
  }),

  // ─── Page sizes ──────────────────────────────────────────────────────────────────────────────────────────
  fault({
    name: 'vet-page-size-ignored',
    breaks: 'pageSize is ignored: every page holds up to the maximum',
    rules: ['VET-PAGE-SIZE-MAX'],
  }),
  fault({
    name: 'vet-max-page-size-rejected',
    breaks: 'pageSize equal to the maximum is rejected (the limit checked with >= instead of >)',
    rules: ['VET-PAGE-SIZE-MAX', 'VET-PAGE-SIZE-DEFAULT-MAX', 'VET-PAGE-SIZE-DEFAULT'],
  }),
  fault({
    name: 'vet-page-size-zero-literal',
    breaks: 'pageSize 0 is taken literally: an empty page with "" instead of a page the server sizes',
    rules: ['VET-PAGE-SIZE-DEFAULT', 'VET-PAGE-SIZE-DEFAULT-MAX'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page, request) =>
        request.pageSize === 0 ? { vettedPackages: [], nextPageToken: '' } : undefined,
      ),
    },
  }),
  fault({
    name: 'vet-page-size-default-one',
    breaks:
      'pageSize 0 or absent gives pages of one entry, not of the maximum (allowed by the document, not Canton)',
    rules: ['VET-PAGE-SIZE-DEFAULT-MAX'],
  }),
  fault({
    name: 'vet-page-size-limit-unenforced',
    breaks: 'a pageSize above the maximum is accepted (clamped to the maximum)',
    rules: ['VET-PAGE-SIZE-ABOVE-MAX', 'VET-PAGE-SIZE-ABOVE-MAX-CODE'],
  }),
  fault({
    name: 'vet-page-size-limit-off-by-one',
    breaks: 'pageSize = maximum + 1 is accepted; only larger sizes are rejected',
    rules: ['VET-PAGE-SIZE-ABOVE-MAX', 'VET-PAGE-SIZE-ABOVE-MAX-CODE'],
  }),
  fault({
    name: 'vet-page-size-above-max-wrong-code',
    breaks: 'a pageSize above the maximum is rejected as INVALID_ARGUMENT, not PROTO_DESERIALIZATION_FAILURE',
    rules: ['VET-PAGE-SIZE-ABOVE-MAX-CODE'],
    rewrite: {
      route: 'vetting-list',
      apply: onRejection(ABOVE_MAX, (res) => withError(res, 400, { code: 'INVALID_ARGUMENT' })),
    },
  }),
  fault({
    name: 'vet-page-size-above-max-500',
    breaks: 'a pageSize above the maximum is answered 500 INTERNAL (grpcCodeValue 13)',
    rules: ['VET-PAGE-SIZE-ABOVE-MAX', 'VET-PAGE-SIZE-ABOVE-MAX-CODE'],
    rewrite: {
      route: 'vetting-list',
      apply: onRejection(ABOVE_MAX, (res) =>
        withError(res, 500, { code: 'LEDGER_API_INTERNAL_ERROR', grpcCodeValue: 13, errorCategory: 4 }),
      ),
    },
  }),
  fault({
    name: 'vet-negative-page-size-accepted',
    breaks: 'a negative pageSize is taken as 0 (the server decides) instead of being rejected',
    rules: ['VET-PAGE-SIZE-NEGATIVE'],
  }),
  fault({
    name: 'vet-negative-page-size-wrong-code',
    breaks: 'a negative pageSize is rejected as INVALID_FIELD, not PROTO_DESERIALIZATION_FAILURE',
    rules: ['VET-PAGE-SIZE-NEGATIVE'],
    rewrite: {
      route: 'vetting-list',
      apply: onRejection(NEGATIVE, (res) => withError(res, 400, { code: 'INVALID_FIELD' })),
    },
  }),

  // ─── Filters ─────────────────────────────────────────────────────────────────────────────────────────────
  fault({
    name: 'vet-filter-package-ids-ignored',
    breaks: 'the packageIds filter is ignored',
    rules: [
      'VET-FILTER-PACKAGE-IDS',
      'VET-FILTER-PACKAGE-OR',
      'VET-FILTER-NO-MATCH',
      'VET-FILTER-ENTRY-HAS-MATCH',
    ],
  }),
  fault({
    name: 'vet-filter-package-ids-first-only',
    breaks: 'only the first of several packageIds is honoured',
    rules: ['VET-FILTER-PACKAGE-IDS'],
  }),
  fault({
    name: 'vet-filter-prefix-exact',
    breaks: 'packageNamePrefixes are compared with whole names, not as prefixes',
    rules: ['VET-FILTER-NAME-PREFIXES'],
  }),
  fault({
    name: 'vet-filter-packages-not-narrowed',
    breaks: 'an entry matching a package filter is listed with all its packages, not only the matching ones',
    rules: ['VET-FILTER-PACKAGE-IDS', 'VET-FILTER-NAME-PREFIXES', 'VET-FILTER-PACKAGE-OR'],
  }),
  fault({
    name: 'vet-filter-keeps-unmatched-entries',
    breaks:
      'an entry with no package matching the package filter is listed anyway, with an empty package list',
    // VET-FILTER-NAME-PREFIXES catches it too when a prefix leaves an entry without a match (data-dependent).
    // VET-PAGE-FILTERED-WALK: not the walk Canton ends early (rules/expectations/canton.json), entries it must not list.
    rules: [
      'VET-PAGE-FILTERED-WALK',
      'VET-FILTER-ENTRY-HAS-MATCH',
      'VET-FILTER-PACKAGE-IDS',
      'VET-FILTER-PACKAGE-OR',
      'VET-FILTER-NO-MATCH',
    ],
  }),
  fault({
    name: 'vet-filter-package-and',
    breaks: 'packageIds and packageNamePrefixes together must both match (AND), not either (OR)',
    rules: ['VET-FILTER-PACKAGE-OR'],
  }),
  fault({
    name: 'vet-filter-participants-ignored',
    breaks: 'the participantIds filter is ignored',
    rules: [
      'VET-FILTER-PARTICIPANTS',
      'VET-FILTER-TOPOLOGY-AND',
      'VET-FILTER-NO-MATCH',
      'VET-FILTER-ENTRY-HAS-MATCH',
    ],
  }),
  fault({
    name: 'vet-filter-participants-first-only',
    breaks: 'only the first of several participantIds (in participant order) is honoured',
    rules: ['VET-FILTER-PARTICIPANTS'],
  }),
  fault({
    name: 'vet-filter-synchronizers-ignored',
    breaks: 'the synchronizerIds filter is ignored',
    rules: [
      'VET-FILTER-SYNCHRONIZERS',
      'VET-FILTER-TOPOLOGY-AND',
      'VET-FILTER-EMPTY-LISTS',
      'VET-FILTER-ENTRY-HAS-MATCH',
    ],
  }),
  fault({
    name: 'vet-filter-topology-or',
    breaks: 'participantIds and synchronizerIds together match either (OR), not both (AND)',
    rules: ['VET-FILTER-TOPOLOGY-AND'],
  }),
  fault({
    name: 'vet-filter-empty-participants-match-nothing',
    breaks: 'an explicitly empty participantIds list matches no participant instead of restricting nothing',
    rules: ['VET-FILTER-EMPTY-LISTS'],
  }),
  fault({
    name: 'vet-filter-empty-synchronizers-match-nothing',
    breaks: 'an explicitly empty synchronizerIds list matches no synchronizer instead of restricting nothing',
    rules: ['VET-FILTER-EMPTY-LISTS'],
  }),
  fault({
    name: 'vet-filter-no-match-token',
    breaks: 'a filtered first page that matches nothing still carries a (non-empty) nextPageToken',
    rules: ['VET-FILTER-NO-MATCH'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page, request) => {
        if ((page.vettedPackages?.length ?? 0) > 0 || request.pageToken || !hasFilter(request))
          return undefined;
        // A cursor past every entry: following it gives an empty page with "".
        page.nextPageToken = encodePageToken('zzzz::zzzz', 'zzzz::zzzz');
        return page;
      }),
    },
  }),
];
