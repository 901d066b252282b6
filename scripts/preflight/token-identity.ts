// Which identity setting a refused or misdirected token comes from, asked on GET /v2/parties/participant-id:
// any valid token may read it (RequiredClaim.Public), so an answer there is about the token alone, never about
// the user's rights. Canton (AuthServiceJWT.scala, Claims.validForParticipant; docs/canton-behaviour.md) answers
// 401 when no audience or scope it accepts is in the token or its signature is not trusted, 403 with
// context.ledger_api_error "invalid token" for an unknown user, and a bare 403 (InvalidParticipant) for an
// audience naming another participant. Where one answer fits two settings, a second token told apart: the same
// key's scope-form token accepted means the audience was refused, not the key.
import { participantAudience } from '../../core/api-paths';
import { unknownUserRefusal } from '../../core/ledger-client';
import { loadSettings, type Settings } from '../../core/settings';
import { tokenProviderFor } from '../../core/token-providers';
import { EXIT } from '../../core/exit-codes';
import { PARTICIPANT_ID_PATH, participantIdOf } from '../../core/discovery';
import { Client, parse, PreflightError, unknownUser, type Env } from './client';
import { credentialRefused } from './answers';
import { blank, isMinting } from './identity';

const ASKED = `GET ${PARTICIPANT_ID_PATH}`;

const fail = (line: string): never => {
  throw new PreflightError(line, EXIT.badSetting);
};

/**
 * Asks the participant its id with the run's token and stops with the line naming the setting that is wrong:
 * the participant id or audience the token names, the secret or key, the token, the user. Returns the id the
 * participant answered (undefined when it named none).
 */
export async function checkTokenIdentity(client: Client, s: Settings, env: Env): Promise<string | undefined> {
  const send = async (via: Settings) =>
    client.send('GET', PARTICIPANT_ID_PATH, await tokenProviderFor(via).token());
  const res = await send(s);
  const body = parse(res.text);
  if (unknownUserRefusal(res.status, body)) throw unknownUser(s, ASKED);
  if (res.status === 200) {
    const id = participantIdOf(body);
    if (id !== undefined && !blank(env, 'LEDGER_PARTICIPANT_ID') && id !== s.participantId)
      fail(
        `LEDGER_PARTICIPANT_ID=${s.participantId} is not this participant's id (${ASKED} answers ${id}): set it to ${id}, or leave it unset to have it asked`,
      );
    return id;
  }
  if (res.status !== 401 && res.status !== 403) return undefined;
  // A scope-form token of the same key: accepted, the signature is right and what the audience names is not.
  const scope =
    isMinting(s) && s.token.form === 'audience'
      ? loadSettings({ ...env, LEDGER_TOKEN_FORM: 'scope' })
      : undefined;
  const other = scope === undefined ? undefined : await send(scope);
  const realId = other?.status === 200 ? participantIdOf(parse(other.text)) : undefined;
  const answered = `${ASKED} answered ${res.status}`;
  if (res.status === 403) foreignParticipant(s, env, answered, realId);
  if (other?.status === 200) wrongAudience(s, env, answered, realId);
  // Both forms refused: the signature is the likelier cause; an audience set by hand is the other one.
  const audience = blank(env, 'LEDGER_AUDIENCE')
    ? ''
    : `; or, if the participant takes only its target-audience, LEDGER_AUDIENCE=${s.token.audience}`;
  return fail(`${credentialRefused(s, answered)}${audience}`);
}

/** A bare 403 on a Public read: the token is bound to another participant. */
function foreignParticipant(s: Settings, env: Env, answered: string, realId: string | undefined): never {
  const real = realId === undefined ? '' : `; this participant is ${realId}`;
  const why = `${answered}: a token for another participant${real}`;
  if (isMinting(s) && !blank(env, 'LEDGER_AUDIENCE'))
    fail(
      `LEDGER_AUDIENCE=${s.token.audience} names another participant (${why}): set it to ${participantAudience(realId ?? '<its participant id>')}, or leave it unset`,
    );
  if (isMinting(s))
    fail(
      `LEDGER_PARTICIPANT_ID=${s.participantId} is not this participant's id (${why}): set it to ${realId ?? 'its id'}, or leave it unset to have it asked`,
    );
  if (s.auth.kind === 'oauth2')
    fail(`LEDGER_OAUTH_AUDIENCE names another participant (${why}): set it to this participant's audience`);
  return fail(`LEDGER_TOKEN is for another participant (${why}): set it to a token for this participant`);
}

/** 401 to the audience form, 200 to the scope form: the audience is not one the participant accepts. */
function wrongAudience(s: Settings, env: Env, answered: string, realId: string | undefined): never {
  const why = `${answered}; the same key's scope-form token is accepted`;
  if (!blank(env, 'LEDGER_AUDIENCE'))
    fail(
      `LEDGER_AUDIENCE=${s.token.audience} is not an audience this participant accepts (${why}): set it to ${participantAudience(realId ?? s.participantId)} or the participant's target-audience, or leave it unset`,
    );
  return fail(
    `the participant refuses the audience ${s.token.audience} (${why}): set LEDGER_AUDIENCE to its target-audience, or LEDGER_TOKEN_FORM=scope`,
  );
}
