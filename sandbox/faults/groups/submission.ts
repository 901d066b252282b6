// Faults that break the submission rules: filled by the suite engineers, one or more per rule.
import type { Fault } from '../types';

export const submissionFaults: Fault[] = [];
