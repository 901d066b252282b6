// Faults of the participant's own API description (GET /docs/openapi, sandbox/routes/docs.ts), which no rule
// judges: the harness reports a description's drift beside the verdicts and never lets it change one. So the
// suite must still pass with the fault on (judged as a transport fault that expects `pass`), and the drift
// report names what changed (selftest/core/openapi-drift.test.ts).
import { fault } from '../types';

export const descriptionFaults = [
  fault({
    name: 'description-drift',
    breaks:
      'the published description drops JsTransactionTree.offset from the tree response and moves the vetting listing to POST /v2/package-vetting/query; every answer stays as it was',
    rules: [],
    kind: 'transport',
    expect: 'pass',
  }),
] as const;
