// A fault: a small, faithful deviation of exactly one behaviour of the sandbox, declared as data, so the
// suite can be shown to catch it. Faults are off unless named in SANDBOX_FAULTS. Every fault is a row built by
// `fault({ name, breaks, rules, … })`, which keeps its name and rule ids as literal types: the catalogue's
// `FaultName` (what a behavioural switch may ask for) and the rule ids the fault runner checks come from them.
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
  rules: readonly string[];
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
   * or undefined to leave the response as it is. A fault with neither `rewrite` nor `onRequest` changes
   * behaviour: the sandbox asks `faults.has(name)` (typed `FaultName`) at the one place it deviates.
   */
  rewrite?: {
    route: FaultRoute;
    apply: (res: ResponseView, req: FastifyRequest) => ResponseView | undefined;
  };
  /** A request-level fault (transport): runs first; may delay, reset the connection or answer itself. */
  onRequest?: (req: FastifyRequest, reply: FastifyReply, state: { calls: number }) => Promise<void> | void;
}

/** A row as groups/ write it: `kind` defaults to conformance. */
type FaultRow<Name extends string, Rule extends string> = Omit<Fault, 'name' | 'rules' | 'kind'> & {
  name: Name;
  rules: readonly Rule[];
  kind?: Fault['kind'];
};

/** One fault, its name and rule ids kept as literal types (for `FaultName` and the rule-id check). */
export function fault<const Name extends string, const Rule extends string = never>(
  row: FaultRow<Name, Rule>,
): Fault & { name: Name; rules: readonly Rule[] } {
  return { kind: 'conformance', ...row };
}
