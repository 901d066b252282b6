// Faults that break the vetting rules: filled by the suite engineers, one or more per rule.
import type { Fault } from '../types';

export const vettingFaults: Fault[] = [];
