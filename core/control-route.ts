// The sandbox's control route (sandbox/routes/control.ts: vets packages on request, SANDBOX_CONTROL=true), which
// no Canton participant offers: the rule that must see packages vetted between two reads needs it. It asks what
// Canton asks of its own vetting change (POST /v2/package-vetting/update, RequiredClaim.Admin): a token of a user
// with the participant-admin right, so the harness presents one minted for LEDGER_ADMIN_USER. Whether a target
// offers it, and to this caller, is asked once, the same way by the preflight's forecast and by the workers'
// skips, with a body the route refuses, so that nothing is ever vetted by asking.
import type { Settings } from './settings';
import type { TokenProvider } from './token-providers';

export const CONTROL_VET_PATH = '/sandbox/control/vet';

/**
 * The probe's body: it decodes, so the route asks for its caller first, then refuses the empty ids (400)
 * without a change.
 */
export const CONTROL_PROBE_BODY = { synchronizerId: '', participantId: '', packages: [] };

/** usable: the route is there for this caller; refused: there, but not for this caller; absent: not there. */
export type ControlRoute = 'usable' | 'refused' | 'absent';

/** UNAUTHENTICATED and PERMISSION_DENIED, the redacted JsCantonError of a 401 and a 403. */
const REFUSALS: Readonly<Record<number, number>> = { 401: 16, 403: 7 };

/**
 * What the answer to the probe says: its refusal of the body (400) means the route served this caller; a 401 or
 * 403 carrying Canton's JsCantonError, that the route asked for a caller with the right. Any other answer
 * (Canton's 404 for a path it does not serve, a gateway's own 401 or 403) means the route is not there.
 */
export function controlRouteOf(status: number, text: string): ControlRoute {
  if (status === 400) return 'usable';
  const grpc = REFUSALS[status];
  if (grpc === undefined) return 'absent';
  try {
    return (JSON.parse(text) as { grpcCodeValue?: unknown } | null)?.grpcCodeValue === grpc
      ? 'refused'
      : 'absent';
  } catch {
    return 'absent';
  }
}

/** The token a control request carries, and the setting naming its user (the ledger client's `identity`). */
export interface ControlCaller {
  /** undefined: the run's own token (none when LEDGER_AUTH=none). */
  token: string | undefined;
  identity: string | undefined;
}

/** A token minted for LEDGER_ADMIN_USER when the harness can mint; the run's own token otherwise. */
export async function controlCaller(s: Settings, provider: TokenProvider): Promise<ControlCaller> {
  if (s.auth.kind === 'none' || s.adminUser === undefined || provider.minter === undefined)
    return { token: await provider.token(), identity: undefined };
  return {
    token: await provider.minter.mint({ sub: s.adminUser }),
    identity: `LEDGER_ADMIN_USER=${s.adminUser}`,
  };
}

/** Why the rule that vets packages meanwhile skips on a target without the route. */
export const NO_CONTROL_ROUTE =
  'the target offers no control route to vet packages (the sandbox with SANDBOX_CONTROL=true does)';

/** Why it skips when the route refuses the token presented: what to set, by where the token came from. */
export function controlRouteRefused(s: Settings, cannotMint: string | undefined): string {
  const need =
    'the control route asks for a token of a user with the participant-admin right (the sandbox’s user admin)';
  if (s.adminUser === undefined) return `${need}: set LEDGER_ADMIN_USER to such a user`;
  if (cannotMint !== undefined)
    return `${need}, and a token for LEDGER_ADMIN_USER must be minted: ${cannotMint}; or give a token of such a user`;
  return `${need}: LEDGER_ADMIN_USER=${s.adminUser} was refused; set it to a user with the right`;
}
