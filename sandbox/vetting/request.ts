// ListVettedPackagesRequest → listing options, checked in Canton's order (ListVettedPackagesOpts.fromProto):
// package ids, synchronizer ids, participant ids, page token, page size ≥ 0, page size ≤ max. Every failure
// is PROTO_DESERIALIZATION_FAILURE with the inner error, as Scala prints it, in context.reason.
import { int32Schema } from '../decode-failures';
import { protoDeserializationFailure, type CantonError } from '../errors';
import { NO_FAULTS, type FaultSet } from '../faults/registry';
import { packageIdError } from '../ids';
import { decodePageToken } from './page-token';
import type { Position } from './topology';
import { compareUid, uid, uidError, type Uid } from './uid';

/** The request body after decoding (ajv checked the JSON types; every field is optional). */
export interface ListVettedPackagesBody {
  packageMetadataFilter?: { packageIds?: string[]; packageNamePrefixes?: string[] } | null;
  topologyStateFilter?: { participantIds?: string[]; synchronizerIds?: string[] } | null;
  pageToken?: string;
  pageSize?: number;
}

export interface ListOptions {
  /** Empty = no package filter on ids. Together with prefixes: a package matching either is listed. */
  packageIds: ReadonlySet<string>;
  namePrefixes: readonly string[];
  synchronizers: ReadonlySet<string> | undefined;
  /** Sorted in Canton's order, so a page can seek within them. */
  participants: readonly Uid[] | undefined;
  after: Position | undefined;
  pageSize: number;
}

/** A ListVettedPackagesRequest body as JSON Schema: proto3 fields, a nested message may be null. */
export const LIST_REQUEST_SCHEMA = {
  type: 'object',
  properties: {
    packageMetadataFilter: {
      type: ['object', 'null'],
      properties: {
        packageIds: { type: 'array', items: { type: 'string' } },
        packageNamePrefixes: { type: 'array', items: { type: 'string' } },
      },
    },
    topologyStateFilter: {
      type: ['object', 'null'],
      properties: {
        participantIds: { type: 'array', items: { type: 'string' } },
        synchronizerIds: { type: 'array', items: { type: 'string' } },
      },
    },
    pageToken: { type: 'string' },
    pageSize: int32Schema,
  },
} as const;

const valueConversion = (field: string, error: string): CantonError =>
  protoDeserializationFailure(`ValueConversionError(${field},${error})`);
const invariant = (field: string, error: string): CantonError =>
  protoDeserializationFailure(`InvariantViolation(Some(${field}),${error})`);

function uids(field: string, values: readonly string[]): Uid[] {
  for (const v of values) {
    const error = uidError(v);
    if (error !== undefined) throw valueConversion(field, error);
  }
  return values.map(uid);
}

/** `faults`: the vetting faults of sandbox/faults/groups/vetting.ts switch the branches named after them. */
export function parseListRequest(
  body: ListVettedPackagesBody,
  maxPageSize: number,
  faults: Pick<FaultSet, 'has'> = NO_FAULTS,
): ListOptions {
  const packageIds = body.packageMetadataFilter?.packageIds ?? [];
  for (const id of packageIds) {
    const error = packageIdError(id);
    if (error !== undefined) throw valueConversion('package_ids', error);
  }
  const synchronizers = uids('synchronizer_ids', body.topologyStateFilter?.synchronizerIds ?? []);
  const participants = uids('participant_ids', body.topologyStateFilter?.participantIds ?? []);

  let after: Position | undefined;
  if (body.pageToken) {
    const decoded = decodePageToken(body.pageToken);
    if (typeof decoded === 'string' && !faults.has('vet-invalid-token-accepted'))
      throw valueConversion('page_token', decoded);
    after = typeof decoded === 'string' ? undefined : decoded;
  }
  let size = body.pageSize ?? 0;
  if (size < 0 && faults.has('vet-negative-page-size-accepted')) size = 0;
  if (size > maxPageSize && faults.has('vet-page-size-limit-unenforced')) size = maxPageSize;
  if (size === maxPageSize + 1 && faults.has('vet-page-size-limit-off-by-one')) size = maxPageSize;
  if (size === maxPageSize && faults.has('vet-max-page-size-rejected')) size = maxPageSize + 1;
  if (size < 0) {
    throw invariant(
      'page_size',
      `Received the negative ${size} as argument, but we require a non-negative value here.`,
    );
  }
  if (size > maxPageSize) {
    throw invariant('page_size', `Page size must not exceed the server's maximum of ${maxPageSize}`);
  }

  const unique = new Map(participants.map((p) => [p.full, p]));
  const opts: ListOptions = {
    packageIds: new Set(packageIds),
    namePrefixes: body.packageMetadataFilter?.packageNamePrefixes ?? [],
    // Empty lists restrict nothing (TopologyStateFilter: "Empty fields are ignored").
    synchronizers: synchronizers.length > 0 ? new Set(synchronizers.map((s) => s.full)) : undefined,
    participants:
      unique.size > 0
        ? faults.has('vet-filter-order-from-request')
          ? [...unique.values()]
          : [...unique.values()].sort(compareUid)
        : undefined,
    after,
    pageSize: size === 0 ? maxPageSize : size,
  };
  return withOptionFaults(opts, body, maxPageSize, faults);
}

/** The vetting faults that change what a request asks for (sandbox/faults/groups/vetting.ts): with none
 * enabled, the options come back unchanged. */
function withOptionFaults(
  opts: ListOptions,
  body: ListVettedPackagesBody,
  maxPageSize: number,
  faults: Pick<FaultSet, 'has'>,
): ListOptions {
  const o = { ...opts };
  const ids = body.packageMetadataFilter?.packageIds ?? [];
  if (faults.has('vet-filter-package-ids-ignored')) o.packageIds = new Set();
  if (faults.has('vet-filter-package-ids-first-only')) o.packageIds = new Set(ids.slice(0, 1));
  if (faults.has('vet-filter-participants-ignored')) o.participants = undefined;
  if (faults.has('vet-filter-participants-first-only')) o.participants = o.participants?.slice(0, 1);
  if (faults.has('vet-filter-synchronizers-ignored')) o.synchronizers = undefined;
  const topology = body.topologyStateFilter;
  if (faults.has('vet-filter-empty-participants-match-nothing') && topology?.participantIds?.length === 0)
    o.participants = [];
  if (faults.has('vet-filter-empty-synchronizers-match-nothing') && topology?.synchronizerIds?.length === 0)
    o.synchronizers = new Set();
  if (faults.has('vet-page-size-ignored')) o.pageSize = maxPageSize;
  if (faults.has('vet-page-size-default-one') && !body.pageSize) o.pageSize = 1;
  return o;
}
