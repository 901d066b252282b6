// The identities a run is configured with, checked as far as the participant lets a user check them: each user
// reads its own rights (GET /v2/users/{user-id}/rights; Canton's MatchUserIdForUserManagement lets a user read
// its own, an admin anyone's), so the run's user is asked with the run's token and LEDGER_SECOND_USER with a
// token minted for it. A valid token of an unknown or deactivated user is refused with 403 before any service
// (Canton's UserBasedClaimResolver; docs/canton-behaviour.md). A wrong identity is ONE line naming the setting.
import { partiesFromRights, type Fetcher } from '../../core/discovery';
import type { Settings } from '../../core/settings';
import { tokenProviderFor } from '../../core/token-providers';
import { parse, PreflightError, type Client } from './client';
import { EXIT } from '../../core/exit-codes';
import { PATHS } from '../../core/api-paths';

const rightsPath = PATHS.userRights;

/** Which of the party settings were given (not discovered from the user's rights, so not right by making). */
export interface GivenParties {
  actAs: boolean;
  readAs: boolean;
}

/**
 * The run's user may act and read as the configured parties (the cause to name first: every later call with a
 * party the user has no right for is a redacted 403, which discovery would read as a setting of its own).
 */
export async function checkPartyRights(
  fetcher: Fetcher,
  s: Settings,
  given: GivenParties = { actAs: true, readAs: true },
): Promise<{ actAs: string[]; readAs: string[] }> {
  const path = rightsPath(s.user);
  const res = await fetcher({ method: 'GET', path });
  if (res.status === 403 || res.status === 404)
    throw new PreflightError(
      `GET ${path} answered ${res.status}: the token's user is not ${s.user} (or it is unknown here): set LEDGER_USER to the token's user`,
      EXIT.badSetting,
    );
  if (res.status !== 200)
    throw new PreflightError(
      `GET ${path} answered ${res.status}: set LEDGER_ACT_AS and LEDGER_READ_AS`,
      EXIT.badSetting,
    );
  const rights = partiesFromRights(res.body);
  if (given.actAs) {
    const noAct = s.actAs.find((p) => !rights.actAs.includes(p));
    if (noAct !== undefined && rights.actAs.length > 0)
      throw new PreflightError(
        `LEDGER_ACT_AS names ${noAct}, which user ${s.user} may not act as (GET ${path}): set LEDGER_ACT_AS to parties it acts as (${rights.actAs.join(',')}), or grant the right`,
        EXIT.badSetting,
      );
  }
  if (s.actAs.length === 0 || rights.actAs.length === 0)
    throw new PreflightError(
      `user ${s.user} has no CanActAs right (GET ${path}): grant one, or set LEDGER_USER to a user that has`,
      EXIT.badSetting,
    );
  const readable = [...rights.actAs, ...rights.readAs];
  const noRead = given.readAs ? s.readAs.find((p) => !readable.includes(p)) : undefined;
  if (noRead !== undefined)
    throw new PreflightError(
      `LEDGER_READ_AS names ${noRead}, which user ${s.user} may not read as (GET ${path}): set LEDGER_READ_AS to parties it reads as (${rights.readAs.join(',') || 'none'}; none is allowed), or grant the right`,
      EXIT.badSetting,
    );
  return rights;
}

/** The run's user: its rights cover the parties, and none covers LEDGER_UNAUTHORIZED_PARTY. */
export async function checkRights(fetcher: Fetcher, s: Settings): Promise<void> {
  const rights = await checkPartyRights(fetcher, s);
  if ([...rights.actAs, ...rights.readAs].includes(s.unauthorizedParty))
    throw new PreflightError(
      `user ${s.user} has a right for LEDGER_UNAUTHORIZED_PARTY=${s.unauthorizedParty} (GET ${rightsPath(s.user)}): set it to a party the user has no right for, or leave it unset`,
      EXIT.badSetting,
    );
}

/**
 * LEDGER_SECOND_USER, asked with a token minted for it: known here and acting as every LEDGER_ACT_AS party, as
 * the rule that uses it submits. Nothing to check when the rule cannot use it (no authentication: any userId
 * is taken as sent; no minting: the rule skips, and the forecast says so).
 */
export async function checkSecondUser(client: Client, s: Settings): Promise<void> {
  const user = s.secondUser;
  const minter = tokenProviderFor(s).minter;
  if (user === undefined || s.auth.kind === 'none' || minter === undefined) return;
  const path = rightsPath(user);
  const unset = 'or leave it unset (SUB-DEDUP-NEW-USER-ID then skips)';
  const res = await client.send('GET', path, await minter.mint({ sub: user }));
  if (res.status === 401 || res.status === 403 || res.status === 404)
    throw new PreflightError(
      `LEDGER_SECOND_USER=${user} is not a user of this participant (GET ${path} with a token for it answered ${res.status}: an unknown or deactivated user): set LEDGER_SECOND_USER to a user with the act-as rights of ${s.user}, ${unset}`,
      EXIT.badSetting,
    );
  // Another answer (user management switched off, a proxy's error) says nothing of the user: the run's rule
  // then ends as a set-up verdict if the participant refuses the user, never as a failure of the participant.
  if (res.status !== 200) return;
  const rights = partiesFromRights(parse(res.text));
  const noAct = s.actAs.find((p) => !rights.actAs.includes(p));
  if (noAct !== undefined)
    throw new PreflightError(
      `LEDGER_SECOND_USER=${user} may not act as ${noAct} (GET ${path}): set LEDGER_SECOND_USER to a user that acts as every LEDGER_ACT_AS party, grant it the right, ${unset}`,
      EXIT.badSetting,
    );
}
