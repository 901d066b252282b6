// Faults of the rules Canton already deviates from, each breaking its rule otherwise than Canton does: the
// harness excuses only Canton's own behaviour there (rules/expectations/canton.json pins it), so each of these
// must come out as a failure of its rule, never as the known deviation. All run in canton mode, where the
// deviation applies. VET-PAGE-FILTERED-WALK's is vetting.ts's vet-filter-keeps-unmatched-entries: a filtered
// walk that lists entries holding no matching package.
import type { FastifyRequest } from 'fastify';
import { decodePageToken, encodePageToken } from '../../vetting/page-token';
import { PROFILES } from '../profiles';
import { fault, type ResponseView } from '../types';

type Json = Record<string, unknown>;

/** Canton's default max-passes-limit, the sandbox's default: above it Canton clamps and runs the command. */
const CANTON_TAPS_LIMIT = 4;

/** Empty pages handed out after the walk's end, each with a token of its own. */
const EXTRA_EMPTY_PAGES = 3;
const EXTRA = /-extra(\d+)$/;

const bodyOf = (req: FastifyRequest): Json => (req.body ?? {}) as Json;

/** A 200 tree answer rewritten by `change` (the body is a fresh copy). */
const onTree =
  (when: (req: FastifyRequest) => boolean, change: (tree: Json) => Json) =>
  (res: ResponseView, req: FastifyRequest): ResponseView | undefined => {
    const tree = (res.body as { transactionTree?: Json } | null)?.transactionTree;
    if (res.status !== 200 || tree === undefined || !when(req)) return undefined;
    return { ...res, body: { transactionTree: change(structuredClone(tree)) } };
  };

/** A 200 vetting page rewritten by `change`. */
const onPage =
  (change: (page: { vettedPackages: Json[]; nextPageToken: string }, req: Json) => boolean) =>
  (res: ResponseView, req: FastifyRequest): ResponseView | undefined => {
    if (res.status !== 200) return undefined;
    const page = structuredClone(res.body) as { vettedPackages: Json[]; nextPageToken: string };
    return change(page, bodyOf(req)) ? { ...res, body: page } : undefined;
  };

export const pinnedDeviationFaults = [
  fault({
    name: 'ver-unauthenticated-bogus',
    breaks:
      'GET /v2/version without a token answers 200 with {"version":"banana"} (Canton answers its real version document)',
    rules: ['VER-AUTH-REQUIRED'],
    rewrite: {
      route: 'version',
      apply: (res, req) =>
        req.headers.authorization === undefined && res.status === 200
          ? { ...res, body: { version: 'banana' } }
          : undefined,
    },
  }),
  fault({
    name: 'sub-taps-above-limit-foreign-tree',
    breaks:
      "tapsMaxPasses above the limit is 'accepted' with an empty tree under another commandId (Canton clamps and runs the command)",
    rules: ['SUB-TAPS-ABOVE-LIMIT'],
    rewrite: {
      route: 'submit-tree',
      apply: onTree(
        (req) => Number(bodyOf(req).tapsMaxPasses) > CANTON_TAPS_LIMIT,
        (tree) => ({ ...tree, commandId: `someone-else-${String(tree.commandId)}`, eventsById: {} }),
      ),
    },
  }),
  fault({
    name: 'sub-tree-35-empty-tree',
    breaks:
      'a 3.5 release serves the deprecated tree endpoint with a tree holding no event (Canton serves the whole tree)',
    rules: ['SUB-TREE-REMOVED-3-5'],
    profile: PROFILES.canton35,
    rewrite: {
      route: 'submit-tree',
      apply: onTree(
        () => true,
        (tree) => ({ ...tree, eventsById: {} }),
      ),
    },
  }),
  fault({
    name: 'vet-final-extra-empty-pages',
    breaks: `a walk's end is put off: ${EXTRA_EMPTY_PAGES} more empty pages, each with a non-empty token, before "" (Canton gives exactly one empty page with "")`,
    rules: ['VET-PAGE-FINAL-TOKEN-EMPTY'],
    rewrite: {
      route: 'vetting-list',
      apply: onPage((page, req) => {
        const token = req.pageToken;
        if (
          page.vettedPackages.length > 0 ||
          page.nextPageToken !== '' ||
          typeof token !== 'string' ||
          !token
        )
          return false;
        const after = decodePageToken(token);
        if (typeof after === 'string') return false;
        // The token of a position just past the last entry: each extra page is empty, and names the next.
        const n = Number(EXTRA.exec(after.participant.identifier)?.[1] ?? 0);
        if (n >= EXTRA_EMPTY_PAGES) return false;
        const identifier = after.participant.identifier.replace(EXTRA, '') + `-extra${n + 1}`;
        page.nextPageToken = encodePageToken(
          after.synchronizer.full,
          `${identifier}::${after.participant.namespace}`,
        );
        return true;
      }),
    },
  }),
];
