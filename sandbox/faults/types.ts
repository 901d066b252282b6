// A fault: a small, faithful deviation of exactly one behaviour of the sandbox, declared as data, so the
// suite can be shown to catch it. Faults are off unless named in SANDBOX_FAULTS.
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FaultProfile } from './profiles';

export type FaultRoute = 'version' | 'vetting-list' | 'submit-tree' | 'any';

/** A JSON response as a fault may rewrite it (status, parsed body, headers). */
export interface ResponseView {
  status: number;
  body: unknown;
  contentType: string;
}

export interface Fault {
  /** kebab-case, unique: `vet-unsorted`, `sub-dedup-ignored`… */
  name: string;
  /** The behaviour it breaks, in one sentence a QA engineer understands. */
  breaks: string;
  /** The rule ids that are meant to catch it (the mutation matrix flags a fault caught only by others). */
  rules: string[];
  /**
   * conformance: the suite must fail on `rules`. transport: the environment misbehaves (slow, resets, 5xx
   * on some calls); the suite must report inconclusive (or still pass when `expect` is 'pass'), never failed.
   */
  kind: 'conformance' | 'transport';
  expect?: 'fail' | 'inconclusive' | 'pass';
  /** The settings its rules need to run (profiles.ts); absent = the defaults of a conformance run. */
  profile?: FaultProfile;
  /**
   * A response-level fault: rewrites the JSON response of `route` before it is sent. Return the new view,
   * or undefined to leave the response as it is. Faults that need to change behaviour rather than output
   * check `faults.has(name)` at the one place they deviate instead.
   */
  rewrite?: {
    route: FaultRoute;
    apply: (res: ResponseView, req: FastifyRequest) => ResponseView | undefined;
  };
  /** A request-level fault (transport): runs first; may delay, reset the connection or answer itself. */
  onRequest?: (req: FastifyRequest, reply: FastifyReply, state: { calls: number }) => Promise<void> | void;
}
