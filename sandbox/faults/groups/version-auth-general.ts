// Faults that break the version, auth, general rules: filled by the suite engineers, one or more per rule.
import type { Fault } from '../types';

export const versionAuthGeneralFaults: Fault[] = [];
