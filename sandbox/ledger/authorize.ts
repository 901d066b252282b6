// Stage 5: the gRPC Authorizer's checks for a submission (CommandServiceAuthorization / MatchUserId).
// A user token must hold CanActAs for every actAs party and CanReadAs (or CanActAs) for every readAs party;
// a userId in the body must equal the token's user, and an omitted one is filled from it. Without a user in
// the claims (auth disabled: wildcard) the body must name the user, else INVALID_TOKEN.
// Because this runs before field validation, a user token turns a malformed party or userId into a 403.
import { requireAuthenticated } from '../auth';
import type { Claims } from '../context';
import { missingUserId, permissionDenied } from '../errors';

export interface Submitters {
  actAs: readonly string[];
  readAs: readonly string[];
  userId: string;
}

const noUserToDefault = () =>
  missingUserId(
    'Cannot default user_id field because claims do not specify an user-id. Is authentication turned on?',
  );

/** Returns the effective userId, or throws the redacted 401/403 or INVALID_TOKEN. */
export function authorizeSubmission(resolved: Claims, req: Submitters): string {
  const claims = requireAuthenticated(resolved); // 401 without a caller, 403 for another participant's token
  switch (claims.kind) {
    case 'wildcard':
      if (req.userId === '') throw noUserToDefault();
      return req.userId;
    case 'user': {
      for (const party of req.actAs) if (!claims.actAs.has(party)) throw permissionDenied();
      for (const party of req.readAs) {
        if (!claims.readAs.has(party) && !claims.actAs.has(party)) throw permissionDenied();
      }
      if (req.userId !== '' && req.userId !== claims.userId) throw permissionDenied();
      return claims.userId;
    }
  }
}
