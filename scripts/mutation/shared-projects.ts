// Fault runs judge many participants (catalogued faults, held-out mutants) in one Playwright run. Every
// project starts workers of its own — a worker start-up each — so participants share projects: a project holds
// participants with no rule in common and the same harness settings (a profile's LEDGER_* variables are the
// project's, its workers' settings), each rule's tests routed to the participant judged by them
// (`targetsByRule`, fixtures/target.ts) and filed under its name by the collector.
import type { PlannedProject } from './mutation.config';

export interface Judged {
  name: string;
  url: string;
  /** The rules whose tests run against it. */
  rules: string[];
  /** The spec files holding them. */
  specs: string[];
  /** LEDGER_* settings its tests run with (a fault profile's); none by default. */
  env?: Record<string, string>;
}

/** First fit: each participant goes to the first project of its settings none of whose rules it shares. */
export function sharedProjects(judged: readonly Judged[], prefix: string): PlannedProject[] {
  const slots: { project: PlannedProject; taken: Set<string>; settings: string }[] = [];
  for (const j of judged) {
    const env = j.env ?? {};
    const settings = JSON.stringify(Object.entries(env).sort());
    let slot = slots.find((x) => x.settings === settings && j.rules.every((r) => !x.taken.has(r)));
    if (!slot) {
      const name = `${prefix}-${slots.length + 1}`;
      slot = {
        project: { name, url: '', specs: [], rules: [], skipSlow: [], env, routes: {} },
        taken: new Set(),
        settings,
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
