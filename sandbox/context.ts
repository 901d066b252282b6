// What every route of the sandbox gets: its settings and the shared services. Routes are registered with
// `register<Name>Routes(app, ctx)`; app.ts builds the context once per app instance.
import type { FastifyRequest } from 'fastify';
import type { Claims } from './claims';
import type { SandboxConfig } from './config';
import type { FaultSet } from './faults/registry';
import type { VettingTopology } from './vetting/topology';

export type { Claims } from './claims';

export interface Authenticator {
  /**
   * Canton's JSON-layer claim resolution. Throws the redacted 403 (with context.ledger_api_error
   * "invalid token") for a valid token of an unknown user; returns `unauthenticated` otherwise on any
   * token problem.
   */
  resolve(req: FastifyRequest): Promise<Claims>;
}

export interface SandboxContext {
  config: SandboxConfig;
  auth: Authenticator;
  /** The enabled faults (none unless SANDBOX_FAULTS names some): behavioural faults check `faults.has(name)`. */
  faults: FaultSet;
  /** The vetting topology (synchronizers, participants, vetted packages); always set by buildApp. */
  topology?: VettingTopology;
}
