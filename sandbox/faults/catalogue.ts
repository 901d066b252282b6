// The fault catalogue: every named fault of the sandbox. `npm run mutation` runs the suite once per fault.
import { pinnedDeviationFaults } from './groups/pinned-deviations';
import { submissionFaults } from './groups/submission';
import { transportFaults } from './groups/transport';
import { versionAuthGeneralFaults } from './groups/version-auth-general';
import { vettingFaults } from './groups/vetting';
import type { Fault } from './types';

export type { Fault } from './types';

export const FAULTS: readonly Fault[] = [
  ...versionAuthGeneralFaults,
  ...vettingFaults,
  ...submissionFaults,
  ...pinnedDeviationFaults,
  ...transportFaults,
];

export function faultByName(name: string): Fault | undefined {
  return FAULTS.find((f) => f.name === name);
}
