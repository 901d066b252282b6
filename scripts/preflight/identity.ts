// The identity values of a run against a real participant: as given, and the unset ones asked of the
// participant (core/discovery.ts) — its id first (with a scope-form token when minted audience tokens would need
// it), then the command template (Canton's Ping when its package is vetted there), then the user, parties,
// synchronizer and unauthorized party. Explicit settings always win.
import {
  discover,
  DiscoveryError,
  VettingAnswerError,
  PARTICIPANT_ID_PATH,
  participantIdOf,
  synchronizersVetting,
  vettedEntries,
  type Discovered,
  type Discovery,
  type Fetcher,
  type KnownIdentity,
} from '../../core/discovery';
import { loadSettings, type DiscoverableSetting, type Settings } from '../../core/settings';
import { credentialRefused, ParticipantAnswer, type IdentityValue, type Resolution } from './answers';
import { tokenProviderFor } from '../../core/token-providers';
import { Client, PING_PACKAGE, PreflightError, preflightFailure, type Env } from './client';
import { checkPartyRights } from './rights';
import { EXIT } from '../../core/exit-codes';
import { PATHS } from '../../core/api-paths';

export type { IdentityValue, Resolution } from './answers';

export const isMinting = (s: Settings): boolean =>
  s.auth.kind === 'hs256' || s.auth.kind === 'rs256' || s.auth.kind === 'es256';

export const blank = (env: Env, key: string): boolean => (env[key]?.trim() ?? '') === '';

/** Every identity value of `s` with where it came from: the setting, or the development default. */
function given(s: Settings, unset: ReadonlySet<string>): IdentityValue[] {
  const src = (key: DiscoverableSetting) => (unset.has(key) ? 'development default' : key);
  return [
    { setting: 'LEDGER_PARTICIPANT_ID', value: s.participantId, source: src('LEDGER_PARTICIPANT_ID') },
    { setting: 'LEDGER_USER', value: s.user, source: src('LEDGER_USER') },
    { setting: 'LEDGER_ACT_AS', value: s.actAs.join(','), source: src('LEDGER_ACT_AS') },
    { setting: 'LEDGER_READ_AS', value: s.readAs.join(',') || 'none', source: src('LEDGER_READ_AS') },
    {
      setting: 'LEDGER_UNAUTHORIZED_PARTY',
      value: s.unauthorizedParty,
      source: src('LEDGER_UNAUTHORIZED_PARTY'),
    },
    {
      setting: 'LEDGER_SYNCHRONIZER_ID',
      value: s.synchronizerId ?? 'none',
      source: src('LEDGER_SYNCHRONIZER_ID'),
    },
    {
      setting: 'LEDGER_COMMAND_TEMPLATE',
      value: templateName(s),
      source: src('LEDGER_COMMAND_TEMPLATE'),
    },
  ];
}

function templateName(s: Settings): string {
  const m = /core\/templates\/([^/]+)\.json$/.exec(s.commandTemplate.path.replace(/\\/g, '/'));
  return m?.[1] ?? s.commandTemplate.path;
}

/**
 * The identity values of a run: as given, and for a real participant the unset ones asked for. Explicit
 * settings always win. Throws PreflightError (exit 2, or 4 when the target stopped answering).
 */
export async function resolveIdentity(
  s: Settings,
  baseUrl: string,
  env: Env = process.env,
): Promise<Resolution> {
  const unset = new Set<string>(s.discoverable);
  if (unset.size === 0) return { settings: s, env: {}, identity: given(s, unset) };
  const client = new Client(baseUrl, s.timeoutScale);
  try {
    return await resolveWith(client, s, unset, env);
  } catch (e) {
    throw preflightFailure(e, client, 'discovery');
  } finally {
    await client.close();
  }
}

/**
 * The participant's id, asked of it. Minted audience tokens name the participant, which is what is not known
 * yet: ask with a scope-form token first (Canton accepts both forms unless target-audience / target-scope is set).
 */
async function askParticipantId(client: Client, s: Settings, env: Env): Promise<Discovered<string>> {
  const bootstrap = isMinting(s) && s.token.form === 'audience' && blank(env, 'LEDGER_AUDIENCE');
  const via = bootstrap ? loadSettings({ ...env, LEDGER_TOKEN_FORM: 'scope' }) : s;
  const res = await client.fetcher(via, false)({ method: 'GET', path: PARTICIPANT_ID_PATH });
  if (res.status === 401 || res.status === 403) {
    throw new PreflightError(
      bootstrap
        ? // A key or secret the participant does not trust is the usual cause; a participant that takes only the
          // audience form (a custom target-audience) is rarer, and refuses the same way.
          `${credentialRefused(s, `GET ${PARTICIPANT_ID_PATH} answered ${res.status} to a scope-form token`)}; or, if the participant takes only the audience form, set LEDGER_PARTICIPANT_ID (or LEDGER_AUDIENCE)`
        : credentialRefused(s, `GET ${PARTICIPANT_ID_PATH} answered ${res.status}`),
      EXIT.badSetting,
    );
  }
  const id = res.status === 200 ? participantIdOf(res.body) : undefined;
  if (id === undefined)
    throw new PreflightError(
      `GET ${PARTICIPANT_ID_PATH} answered ${res.status} without a participant id: set LEDGER_PARTICIPANT_ID`,
      EXIT.badSetting,
    );
  const form = bootstrap ? ', with a scope-form token' : '';
  return { value: id, source: `discovered via GET ${PARTICIPANT_ID_PATH}${form}` };
}

/**
 * Whether Canton's built-in Ping can be the template: its package vetted on the synchronizer the run will use
 * (every participant loads it unless parameters.admin-workflow.auto-load-dar = false), and the source to show.
 */
async function pingUsable(
  fetcher: Fetcher,
  current: Settings,
  unset: ReadonlySet<string>,
): Promise<{ usable: boolean; source: string }> {
  const entries = await vettedEntries(
    fetcher,
    current.participantId,
    [PING_PACKAGE],
    'LEDGER_COMMAND_TEMPLATE',
  );
  const on = synchronizersVetting(entries, current.participantId, { names: [PING_PACKAGE], ids: [] });
  const usable = unset.has('LEDGER_SYNCHRONIZER_ID')
    ? on.length > 0
    : current.synchronizerId === undefined || on.includes(current.synchronizerId);
  return usable
    ? { usable, source: `picked: ${PING_PACKAGE} is vetted, discovered via POST ${PATHS.vettingList}` }
    : { usable, source: `default: ${PING_PACKAGE} is not vetted here (auto-load-dar off?)` };
}

/** The identity values the settings give (discovery asks the participant for the rest). */
function knownIdentity(s: Settings, current: Settings, unset: ReadonlySet<string>): KnownIdentity {
  const known: KnownIdentity = {};
  if (!unset.has('LEDGER_USER') || isMinting(s)) known.user = current.user;
  if (!unset.has('LEDGER_ACT_AS')) known.actAs = current.actAs;
  if (!unset.has('LEDGER_READ_AS')) known.readAs = current.readAs;
  known.participantId = current.participantId;
  if (!unset.has('LEDGER_SYNCHRONIZER_ID')) known.synchronizerId = current.synchronizerId ?? null;
  if (!unset.has('LEDGER_UNAUTHORIZED_PARTY')) known.unauthorizedParty = current.unauthorizedParty;
  return known;
}

async function discoverOrExplain(
  fetcher: Fetcher,
  current: Settings,
  known: KnownIdentity,
  pingAbsent: boolean,
): Promise<Discovery> {
  try {
    return await discover(
      {
        token: await tokenProviderFor(current).token(),
        commandTemplate: current.commandTemplate,
        known,
      },
      fetcher,
    );
  } catch (e) {
    // The default template's package is the sandbox's: say why Ping was not taken instead.
    const ping = `canton-ping cannot stand in: ${PING_PACKAGE} is not vetted here (parameters.admin-workflow.auto-load-dar = false?)`;
    if (e instanceof VettingAnswerError && pingAbsent)
      throw new VettingAnswerError(e.setting, `${e.message}; ${ping}`, e.answered);
    if (e instanceof DiscoveryError && e.setting === 'LEDGER_SYNCHRONIZER_ID' && pingAbsent)
      throw new DiscoveryError(e.setting, `${e.message}; ${ping}`);
    throw e;
  }
}

/** The discovered values of the unset settings, into the settings to hand over and the sources to show. */
function handOver(
  found: Discovery,
  s: Settings,
  unset: ReadonlySet<string>,
  out: Record<string, string>,
  sources: Map<DiscoverableSetting, string>,
): void {
  const put = (key: DiscoverableSetting, value: string, source: string) => {
    if (!unset.has(key)) return;
    out[key] = value;
    sources.set(key, source);
  };
  put(
    'LEDGER_USER',
    found.user.value,
    unset.has('LEDGER_USER') && isMinting(s)
      ? 'development default (the user minted tokens name; set LEDGER_USER)'
      : found.user.source,
  );
  put('LEDGER_ACT_AS', found.actAs.value.join(','), found.actAs.source);
  put('LEDGER_READ_AS', found.readAs.value.join(',') || 'none', found.readAs.source);
  put('LEDGER_SYNCHRONIZER_ID', found.synchronizerId.value ?? 'none', found.synchronizerId.source);
  put('LEDGER_UNAUTHORIZED_PARTY', found.unauthorizedParty.value, found.unauthorizedParty.source);
  // A minted token's user is fixed by the settings, not discovered: nothing to hand over.
  if (isMinting(s)) delete out.LEDGER_USER;
}

async function resolveWith(
  client: Client,
  s: Settings,
  unset: ReadonlySet<string>,
  env: Env,
): Promise<Resolution> {
  const out: Record<string, string> = {};
  const sources = new Map<DiscoverableSetting, string>();
  const reload = () => loadSettings({ ...env, ...out });
  let current = s;

  if (unset.has('LEDGER_PARTICIPANT_ID')) {
    const participant = await askParticipantId(client, s, env);
    out.LEDGER_PARTICIPANT_ID = participant.value;
    sources.set('LEDGER_PARTICIPANT_ID', participant.source);
    current = reload();
  }
  const fetcher = client.fetcher(current);

  // No template setting against a real participant: Canton's built-in Ping when its package is vetted there.
  let pingAbsent = false;
  if (unset.has('LEDGER_COMMAND_TEMPLATE')) {
    const ping = await pingUsable(fetcher, current, unset);
    pingAbsent = !ping.usable;
    if (ping.usable) out.LEDGER_COMMAND_TEMPLATE = 'canton-ping';
    sources.set('LEDGER_COMMAND_TEMPLATE', ping.source);
    current = reload();
  }

  const known = knownIdentity(s, current, unset);
  // Parties given for a known user: its rights first, as the likeliest cause of any later refusal (a party it
  // has no right for makes every call naming it a redacted 403, which would point at another setting).
  if (known.user !== undefined && s.auth.kind !== 'none' && (known.actAs ?? known.readAs) !== undefined)
    await checkPartyRights(fetcher, current, {
      actAs: known.actAs !== undefined,
      readAs: known.readAs !== undefined,
    });
  let found: Discovery;
  let missing: VettingAnswerError | undefined;
  try {
    found = await discoverOrExplain(fetcher, current, known, pingAbsent);
  } catch (e) {
    // The listing says no synchronizer vets the template's package: the rest is still known, the synchronizer
    // left unnamed; the caller decides whether to stop (the preflight) or let the VET- rules judge (a run).
    if (!(e instanceof VettingAnswerError)) throw e;
    missing = e;
    found = await discoverOrExplain(fetcher, current, { ...known, synchronizerId: null }, pingAbsent);
  }
  handOver(found, s, unset, out, sources);
  if (missing && unset.has('LEDGER_SYNCHRONIZER_ID')) {
    out.LEDGER_SYNCHRONIZER_ID = 'none';
    sources.set('LEDGER_SYNCHRONIZER_ID', `none: ${missing.answered}`);
  }
  const settings = reload();
  const identity = given(settings, new Set()).map((v) => ({
    ...v,
    source: sources.get(v.setting) ?? v.source,
  }));
  if (missing)
    throw new ParticipantAnswer(missing.message, missing.answered, { settings, env: out, identity });
  return { settings, env: out, identity };
}
