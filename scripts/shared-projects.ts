// Fault runs judge many participants (catalogued faults, held-out mutants) in one Playwright run. Every
// project starts workers of its own — about a second of CPU each — so participants share projects: a project
// holds participants with no rule in common, each rule's tests routed to the participant judged by them
// (`targetsByRule`, fixtures/target.ts) and filed under its name by the collector.
import type { PlannedProject } from './mutation.config';

export interface Judged {
  name: string;
  url: string;
  /** The rules whose tests run against it. */
  rules: string[];
  /** The spec files holding them. */
  specs: string[];
}

/** First fit: each participant goes to the first project none of whose rules it shares. */
export function sharedProjects(judged: readonly Judged[], prefix: string): PlannedProject[] {
  const slots: { project: PlannedProject; taken: Set<string> }[] = [];
  for (const j of judged) {
    let slot = slots.find((x) => j.rules.every((r) => !x.taken.has(r)));
    if (!slot) {
      const name = `${prefix}-${slots.length + 1}`;
      slot = {
        project: { name, url: '', specs: [], rules: [], skipSlow: [], env: {}, routes: {} },
        taken: new Set(),
      };
      slots.push(slot);
    }
    for (const r of j.rules) {
      slot.taken.add(r);
      slot.project.rules.push(r);
      slot.project.routes![r] = { url: j.url, fault: j.name };
    }
    slot.project.specs = [...new Set([...slot.project.specs, ...j.specs])].sort();
  }
  return slots.map((x) => x.project);
}
