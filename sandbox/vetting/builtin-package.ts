// The packages the sandbox serves: its own `conformance-sandbox` and Canton's admin-workflow Ping package,
// which every Canton participant loads and vets (sandbox/ledger/README.md). The own package's id is derived
// from name and version so it is stable across runs and machines, like a real package hash.
import { createHash } from 'node:crypto';

const packageName = 'conformance-sandbox';
const packageVersion = '1.0.0';

export const BUILTIN_PACKAGE = {
  packageId: createHash('sha256').update(`${packageName}-${packageVersion}`).digest('hex'),
  packageName,
  packageVersion,
} as const;

/**
 * Canton's built-in admin-workflow package, as the DAR Canton 3.4.11 and 3.5 ship it
 * (community/participant/src/main/resources/dar/canton-builtin-admin-workflow-ping.dar: its MANIFEST's main
 * dalf is `canton-builtin-admin-workflow-ping-3.4.0-<id>`). The daml.yaml beside the sources says 1.0.0 on
 * main, but the participant loads the committed DAR (AdminWorkflowServices.PingDarResourceFileName), so the
 * vetting listing of a real participant shows this id and version.
 */
export const PING_PACKAGE = {
  packageId: 'de2cc2f90eb523414ff54e899951dadd8789a4c07e0f71f6d6c9eaf57d412a54',
  packageName: 'canton-builtin-admin-workflow-ping',
  packageVersion: '3.4.0',
} as const;

export type BuiltinPackage = typeof BUILTIN_PACKAGE | typeof PING_PACKAGE;

/** Every package the participant vets on each synchronizer it is connected to. */
export const BUILTIN_PACKAGES: readonly BuiltinPackage[] = [BUILTIN_PACKAGE, PING_PACKAGE];
