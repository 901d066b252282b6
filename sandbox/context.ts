// What every route of the sandbox gets: its settings and the shared services. Routes are registered with
// `register<Name>Routes(app, ctx)`; app.ts builds the context once per app instance.
import type { FastifyRequest } from 'fastify';
import type { SandboxConfig } from './config';
import type { FaultSet } from './faults/install';
import type { VettingTopology } from './vetting/topology';

/**
 * The claims a request carries after the JSON layer resolved its token (Canton's ClaimSet).
 * An absent, malformed or expired token is not rejected at this stage: it becomes `unauthenticated`,
 * and the operation decides (Canton rejects it with 401 only at authorization, after decoding).
 */
export type Claims =
  | { kind: 'unauthenticated'; reason: string }
  | {
      kind: 'user';
      userId: string;
      actAs: ReadonlySet<string>;
      readAs: ReadonlySet<string>;
      /** The user holds ParticipantAdmin (Canton's ClaimAdmin): admin-or-self checks pass for anyone. */
      admin?: boolean;
      /** Set when the token is restricted to another participant: a 403 at authorization (requireAuthenticated). */
      foreignParticipant?: string;
    }
  /** Auth disabled: admin, act as any party, no user (then userId must be in the body). */
  | { kind: 'wildcard' };

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
