// The fault catalogue: every named fault of the sandbox. `npm run mutation` runs the suite once per fault.
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

export const FAULTS: readonly Fault[] = [
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

export function faultByName(name: string): Fault | undefined {
  return FAULTS.find((f) => f.name === name);
}
