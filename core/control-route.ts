// The sandbox's control route (sandbox/routes/control.ts: vets packages on request, SANDBOX_CONTROL=true), which
// no Canton participant offers: the rule that must see packages vetted between two reads needs it. Whether a
// target offers it is asked once, the same way by the preflight's forecast and by the workers' skips, with a
// body the route refuses, so that nothing is ever vetted by asking.
export const CONTROL_VET_PATH = '/sandbox/control/vet';

/** The probe's body: no synchronizer, participant or package, which the route refuses (400) without a change. */
export const CONTROL_PROBE_BODY = {};

/**
 * Whether the answer to the probe comes from the control route: its refusal of the empty body. Any other answer
 * (Canton's 404 for a path it does not serve, a gateway's 401 or 403) means the route is not there.
 */
export const controlRouteAnswered = (status: number): boolean => status === 400;

/** Why the rule that vets packages meanwhile skips on a target without the route. */
export const NO_CONTROL_ROUTE =
  'the target offers no control route to vet packages (the sandbox with SANDBOX_CONTROL=true does)';
