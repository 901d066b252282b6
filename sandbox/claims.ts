// Apart from context.ts so that the fault groups can name Claims without importing the context, which holds
// the fault registry: context.ts and sandbox/faults/ must not import each other (context.ts re-exports them).
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
