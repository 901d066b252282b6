// ListVettedPackagesRequest → listing options, checked in Canton's order (ListVettedPackagesOpts.fromProto):
// package ids, synchronizer ids, participant ids, page token, page size ≥ 0, page size ≤ max. Every failure
// is PROTO_DESERIALIZATION_FAILURE with the inner error, as Scala prints it, in context.reason.
import { int32Schema } from '../decode';
import { protoDeserializationFailure, type CantonError } from '../errors';
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

export function parseListRequest(body: ListVettedPackagesBody, maxPageSize: number): ListOptions {
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
    if (typeof decoded === 'string') throw valueConversion('page_token', decoded);
    after = decoded;
  }
  const size = body.pageSize ?? 0;
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
  return {
    packageIds: new Set(packageIds),
    namePrefixes: body.packageMetadataFilter?.packageNamePrefixes ?? [],
    // Empty lists restrict nothing (TopologyStateFilter: "Empty fields are ignored").
    synchronizers: synchronizers.length > 0 ? new Set(synchronizers.map((s) => s.full)) : undefined,
    participants: unique.size > 0 ? [...unique.values()].sort(compareUid) : undefined,
    after,
    pageSize: size === 0 ? maxPageSize : size,
  };
}
