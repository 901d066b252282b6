// Whether a rule's needs (its catalogue row's `needs`) are met here, and in which words a test skips when one
// is not: the one function the tests' skips (fixtures/needs.ts) and the preflight's forecast both call.
import { RULES, type Rule, needsOf } from '../rules/catalogue';
import { controlRouteRefused, NO_CONTROL_ROUTE, type ControlRoute } from './control-route';
import type { Need } from '../rules/needs';
import type { Settings } from './settings';
import { versionAtLeast } from './target-info';
import { participantAudience } from './api-paths';

/** What the needs are judged against: the settings, the target's release, and whether tokens can be minted. */
export interface NeedContext {
  settings: Settings;
  version: string | undefined;
  /** Why the token provider cannot sign tokens, or undefined when it can. */
  cannotMint: string | undefined;
  /** Whether the target offers the sandbox's control route to the harness's caller (core/control-route.ts). */
  controlRoute: ControlRoute;
}

/** Why the auth rules cannot be judged against this target, or undefined when they can. */
export function noAuthReason(s: Settings): string | undefined {
  return s.auth.kind === 'none'
    ? 'LEDGER_AUTH=none: the target runs without authentication, so there is no token to withhold or break'
    : undefined;
}

/** The audience a minted token carries when the participant uses Canton's default audience check. */
export function defaultAudience(s: Settings): string {
  return participantAudience(s.participantId);
}

/**
 * Why a token naming another participant cannot be judged as Canton's InvalidParticipant (403), or undefined.
 * Only with the audience form and the default audience: a participant configured with a target audience or
 * scope refuses such a token earlier, as a wrong audience (401).
 */
export function otherParticipantGate(s: Settings): string | undefined {
  if (s.token.form !== 'audience')
    return 'LEDGER_TOKEN_FORM=scope: a participant-audience token is judged as a wrong scope there';
  if (s.token.audience !== defaultAudience(s))
    return 'LEDGER_AUDIENCE is customised: the participant checks a target audience, which refuses another participant as a wrong audience';
  return undefined;
}

function unmet(need: Need, c: NeedContext): string | undefined {
  const s = c.settings;
  if (typeof need === 'object') {
    return versionAtLeast(c.version, need.release)
      ? undefined
      : `${need.why}; the target reports ${c.version ?? 'no version'}`;
  }
  switch (need) {
    case 'user-token':
      return noAuthReason(s);
    case 'no-auth':
      return s.auth.kind === 'none'
        ? undefined
        : 'needs a participant without authentication (LEDGER_AUTH=none): with a user token any userId other than the token user is refused (403) whatever its syntax';
    case 'minted-tokens':
      return c.cannotMint;
    case 'default-audience':
      return otherParticipantGate(s);
    case 'another-user':
      if (s.auth.kind === 'none') return undefined;
      if (s.secondUser === undefined)
        return 'needs a second user with the same act-as rights: set LEDGER_SECOND_USER';
      return c.cannotMint && `a token for LEDGER_SECOND_USER must be minted: ${c.cannotMint}`;
    case 'two-act-as':
      return s.actAs.length < 2 ? 'needs two actAs parties (LEDGER_ACT_AS)' : undefined;
    case 'control-route':
      if (c.controlRoute === 'refused') return controlRouteRefused(s, c.cannotMint);
      return c.controlRoute === 'usable' ? undefined : NO_CONTROL_ROUTE;
    case 'synchronizer':
      return s.synchronizerId === undefined
        ? 'LEDGER_SYNCHRONIZER_ID=none: requests name no synchronizer, so there is none to echo'
        : undefined;
  }
}

/** Why rule `ruleId` cannot run here (its first unmet need), or undefined when it can. */
export function unmetNeed(ruleId: string, c: NeedContext): string | undefined {
  for (const need of needsOf(ruleId)) {
    const why = unmet(need, c);
    if (why !== undefined) return why;
  }
  return undefined;
}

export interface Skip {
  /** The rules, comma-separated; a whole group as `AUTH-*`. */
  rules: string;
  reason: string;
}

/**
 * Every rule of `rules` (the run's selection) that will skip here for an unmet need, grouped by reason (the
 * preflight's forecast and the run-information block's).
 */
export function skipsForecast(c: NeedContext, rules: readonly Rule[] = RULES): Skip[] {
  const byReason = new Map<string, string[]>();
  for (const rule of rules) {
    const why = unmetNeed(rule.id, c);
    if (why !== undefined) byReason.set(why, [...(byReason.get(why) ?? []), rule.id]);
  }
  return [...byReason].map(([reason, ids]) => ({ rules: compact(ids), reason }));
}

/** `AUTH-*` for a whole group, the ids otherwise. */
function compact(ids: string[]): string {
  const groups = [...new Set(ids.map((id) => id.split('-')[0]!))];
  return groups
    .flatMap((g) => {
      const all = RULES.filter((r) => r.id.startsWith(`${g}-`)).map((r) => r.id);
      const mine = ids.filter((id) => id.startsWith(`${g}-`));
      return mine.length === all.length ? [`${g}-*`] : mine;
    })
    .join(', ');
}
