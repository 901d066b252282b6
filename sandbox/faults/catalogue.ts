// The fault catalogue: every named fault of the sandbox. `npm run mutation` runs the suite once per fault.
// Its rows keep their names and rule ids as literal types: `FaultName` is what a behavioural switch may ask
// for (`faults.has(name)`), `DeclaredRuleId` what the fault runner checks against the rule catalogue.
import { authFaults } from './groups/auth';
import { deduplicationFaults } from './groups/deduplication';
import { descriptionFaults } from './groups/description';
import { generalFaults } from './groups/general';
import { pinnedDeviationFaults } from './groups/pinned-deviations';
import { submissionFaults } from './groups/submission';
import { transportFaults } from './groups/transport';
import { versionFaults } from './groups/version';
import { vettingFaults } from './groups/vetting';
import type { Fault } from './types';

export type { Fault } from './types';

const ROWS = [
  ...versionFaults,
  ...authFaults,
  ...generalFaults,
  ...vettingFaults,
  ...submissionFaults,
  ...deduplicationFaults,
  ...pinnedDeviationFaults,
  ...transportFaults,
  ...descriptionFaults,
];

/** The name of a catalogued fault. */
export type FaultName = (typeof ROWS)[number]['name'];
/** A rule id some fault declares (checked against the rule catalogue by scripts/mutation/run-mutation.ts). */
export type DeclaredRuleId = (typeof ROWS)[number]['rules'][number];

export const FAULTS: readonly (Fault & { name: FaultName; rules: readonly DeclaredRuleId[] })[] = ROWS;

export function faultByName(name: string): Fault | undefined {
  return FAULTS.find((f) => f.name === name);
}
