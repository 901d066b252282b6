// The endpoints a user calls to learn who it is on a participant (outside the interface document; served so a
// harness can discover its settings from a URL and credentials, as against Canton 3.4):
//   GET /v2/authenticated-user            JsUserManagementService.getCurrentUser → getUser(userId = "")
//   GET /v2/users/{user-id}/rights        JsUserManagementService.listUserRights
//   GET /v2/parties/participant-id        JsPartyManagementService → getParticipantId
//   GET /v2/state/connected-synchronizers JsStateService → ApiStateService / CantonSyncService
// Authorization as UserManagementServiceAuthorization (MatchUserIdForUserManagement: yourself, or an admin
// for anyone), PartyManagementServiceAuthorization (Public) and StateServiceAuthorization (Public without a
// party, AdminOrIdpAdminOrOperateAsParty with one); community/base/…/auth/Authorizer.scala applies them.
// Not modelled: identity providers (the identity-provider-id / identityProviderId parameters are ignored;
// every user belongs to the default one) and deactivated users.
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { requireAuthenticated, type AuthenticatedClaims } from '../auth';
import type { SandboxConfig } from '../config';
import type { SandboxContext } from '../context';
import { cantonError, invalidField, missingUserId, permissionDenied } from '../errors';
import { partyError, uniqueIdentifierError, userIdAllowsParentheses, userIdError } from '../ids';
import { jsonLayerInvalid } from '../ledger/values';
import { sendJson } from '../reply';
import type { VettingTopology } from '../vetting/topology';

/** Canton's ClaimAdmin check (isAdminOrIDPAdmin): auth disabled (wildcard) or a ParticipantAdmin user. */
const isAdmin = (claims: AuthenticatedClaims): boolean => claims.kind === 'wildcard' || claims.admin === true;

/** UserManagementServiceErrors.UserNotFound (DamlErrorWithDefiniteAnswer: definiteAnswer false). */
const userNotFound = (operation: string, userId: string) =>
  cantonError(
    'USER_NOT_FOUND',
    'InvalidGivenCurrentSystemStateResourceMissing',
    `${operation} failed for unknown user "${userId}"`,
    { resources: [['USER', userId]], definiteAnswer: false },
  );

/** The User message as circe writes it: every field, the metadata a store gives a user never updated. */
function userJson(id: string): unknown {
  return {
    id,
    primaryParty: '',
    isDeactivated: false,
    metadata: { resourceVersion: '0', annotations: {} },
    identityProviderId: '',
  };
}

/** A query parameter as tapir reads `query[Option[String]]`: absent → "", repeated → the first value. */
function queryParam(request: FastifyRequest, name: string): string {
  const v = (request.query as Record<string, unknown>)[name];
  const first: unknown = Array.isArray(v) ? v[0] : v;
  return typeof first === 'string' ? first : '';
}

/** The synchronizers the participant is connected to (its entries in the topology), in Canton's order. */
const connectedSynchronizers = (config: SandboxConfig, topology: VettingTopology): string[] =>
  topology.synchronizerIds().filter((id) => topology.entry(id, config.participantId) !== undefined);

/** The alias a participant gives a synchronizer when connecting: the sandbox uses its identifier. */
const aliasOf = (synchronizerId: string): string => synchronizerId.split('::')[0] ?? synchronizerId;

export function registerIdentityRoutes(
  app: FastifyInstance,
  ctx: SandboxContext,
  topology: VettingTopology,
): void {
  const { config } = ctx;
  const users = new Map(config.users.map((u) => [u.id, u]));
  // The participant hosts every party a user has a right for, with Canton's default hosting permission
  // for an allocated party (Submission); unknown parties are hosted nowhere.
  const hosted = new Set(config.users.flatMap((u) => [...u.actAs, ...u.readAs]));
  const withParentheses = userIdAllowsParentheses(config.version);

  app.get('/v2/authenticated-user', async (request, reply) => {
    const claims = requireAuthenticated(await ctx.auth.resolve(request));
    // getUser(userId = "") defaults to the authenticated user; without one (auth disabled) it cannot.
    if (claims.kind === 'wildcard')
      throw missingUserId(
        'requests with an empty user-id are only supported if there is an authenticated user',
      );
    return sendJson(reply, { user: userJson(claims.userId) });
  });

  app.get<{ Params: { userId: string } }>('/v2/users/:userId/rights', async (request, reply) => {
    const resolved = await ctx.auth.resolve(request);
    const userId = request.params.userId;
    // The JSON layer parses the path (Ref.UserId.fromString) before the gRPC call and its Authorizer.
    const malformed = userIdError(userId, withParentheses);
    if (malformed !== undefined) throw jsonLayerInvalid(`Malformed user-id: ${malformed}`);
    const claims = requireAuthenticated(resolved);
    // MatchUserIdForUserManagement: one's own rights, or anyone's with an admin claim (a redacted 403 else).
    if (!(claims.kind === 'user' && claims.userId === userId) && !isAdmin(claims)) throw permissionDenied();
    const user = users.get(userId);
    if (user === undefined) throw userNotFound('list user rights', userId);
    const rights = [
      ...(user.participantAdmin ? [{ kind: { ParticipantAdmin: { value: {} } } }] : []),
      ...user.actAs.map((party) => ({ kind: { CanActAs: { value: { party } } } })),
      ...user.readAs.map((party) => ({ kind: { CanReadAs: { value: { party } } } })),
    ];
    return sendJson(reply, { rights });
  });

  const participantIdBody = JSON.stringify({ participantId: config.participantId });
  app.get('/v2/parties/participant-id', async (request, reply) => {
    requireAuthenticated(await ctx.auth.resolve(request)); // RequiredClaim.Public: any valid token
    return sendJson(reply, participantIdBody);
  });

  app.get('/v2/state/connected-synchronizers', async (request, reply) => {
    const claims = requireAuthenticated(await ctx.auth.resolve(request));
    const party = queryParam(request, 'party');
    const participantId = queryParam(request, 'participantId');
    // With a party: AdminOrIdpAdminOrOperateAsParty (act, read or execute as it), checked before validation.
    if (party !== '' && !isAdmin(claims) && !(claims.kind === 'user' && operatesAs(claims, party)))
      throw permissionDenied();
    const badParty = party === '' ? undefined : partyError(party);
    if (badParty !== undefined) throw invalidField('party', badParty);
    // Canton parses "PAR::" + participantId (FieldValidator.optionalParticipantId) and wraps the error as a
    // ProtoDeserializationError: a member shorter than its 3-letter code and "::" has its own wording
    // (docs/canton-behaviour.md §8).
    const badParticipant = participantId === '' ? undefined : participantIdError(participantId);
    if (badParticipant !== undefined)
      throw invalidField('participant_id', `Unable to convert field \`participant_id\`: ${badParticipant}`);

    // CantonSyncService.getConnectedSynchronizers: without a party every connected synchronizer (permission
    // unspecified); with one only those where that participant hosts the party, with its permission.
    const hostedHere =
      party === '' || ((participantId === '' || participantId === config.participantId) && hosted.has(party));
    const connected = (hostedHere ? connectedSynchronizers(config, topology) : []).map((synchronizerId) => ({
      synchronizerAlias: aliasOf(synchronizerId),
      synchronizerId,
      permission: party === '' ? 'PARTICIPANT_PERMISSION_UNSPECIFIED' : 'PARTICIPANT_PERMISSION_SUBMISSION',
    }));
    return sendJson(reply, { connectedSynchronizers: connected });
  });
}

/** Claims.canOperateAs: a CanActAs or CanReadAs right for the party. */
const operatesAs = (claims: { actAs: ReadonlySet<string>; readAs: ReadonlySet<string> }, party: string) =>
  claims.actAs.has(party) || claims.readAs.has(party);

/** Canton's reason for a participantId it cannot read as `PAR::<id>` (topology/Member.scala, Identifier.scala). */
function participantIdError(id: string): string | undefined {
  if (`PAR::${id}`.length <= 7)
    return `Invalid member \`PAR::${id}\`, expecting <three-letter-code>::id::fingerprint.`;
  return uniqueIdentifierError(id);
}
