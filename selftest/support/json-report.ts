// Playwright's JSON report, as the self-tests read it: its specs in report order, whatever the suites nest.
import { readFileSync } from 'node:fs';

/** A spec as Playwright's JSON reporter writes it (the parts the self-tests read). */
export interface JsonSpec {
  title: string;
  file: string;
  line: number;
  tags: string[];
  tests: {
    projectName: string;
    annotations?: { type: string; description?: string }[];
    results: { status: string; startTime: string; duration: number; errors: { message?: string }[] }[];
  }[];
}

interface JsonSuite {
  title: string;
  specs?: JsonSpec[];
  suites?: JsonSuite[];
}

/** Every spec of a report (its text, as written), with the titles of the suites around it, outermost first. */
export function specsOf(reportText: string): (JsonSpec & { suitePath: string[] })[] {
  const all: (JsonSpec & { suitePath: string[] })[] = [];
  const visit = (s: JsonSuite, path: string[]): void => {
    for (const spec of s.specs ?? []) all.push({ ...spec, suitePath: path });
    for (const child of s.suites ?? []) visit(child, [...path, child.title]);
  };
  for (const s of (JSON.parse(reportText) as { suites?: JsonSuite[] }).suites ?? []) visit(s, [s.title]);
  return all;
}

/** The specs of the report written to this file. */
export const specsIn = (file: string) => specsOf(readFileSync(file, 'utf8'));
