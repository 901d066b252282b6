// The settings the harness knows, by name: every `# NAME=value` line of .env.example, with the header of the
// group it sits under. .env.example is the one list (selftest/core/settings.test.ts holds it to what the code
// reads); the nightly workflow passes exactly these from a target's secrets and variables
// (scripts/nightly/env.ts).
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const ENV_EXAMPLE = resolve(__dirname, '..', '.env.example');

export interface KnownSetting {
  readonly name: string;
  /** The group's header, e.g. `Authentication` or `Internal (set by the harness's own runners; …)`. */
  readonly group: string;
}

/** The group of the settings the harness's own runners set and hand to their children: never a user's. */
export const INTERNAL_GROUP = 'Internal';

/** Every setting .env.example lists, once each, in its order. */
export function knownSettings(text = readFileSync(ENV_EXAMPLE, 'utf8')): KnownSetting[] {
  const out: KnownSetting[] = [];
  let group = '';
  for (const line of text.split('\n')) {
    const header = /^# ─── (.+?) ─+$/.exec(line);
    if (header) group = header[1]!;
    const setting = /^# ([A-Za-z][A-Za-z0-9_]*)=/.exec(line);
    if (setting && !out.some((s) => s.name === setting[1])) out.push({ name: setting[1]!, group });
  }
  return out;
}

/** Whether the harness's own runners set it (the group `Internal`). */
export const isInternalSetting = (s: KnownSetting): boolean => s.group.startsWith(INTERNAL_GROUP);
