// The preflight's forecast ("will skip" lines) and a run's skips, rule by rule with their reasons, so a self-test
// can hold them equal word for word: the two are meant to come from one source (core/rule-needs.ts).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { RULES } from '../../rules/catalogue';

/** rule id → reason, from `will skip  <rules>: <reason>` lines (`AUTH-*` is every AUTH rule). */
export function forecastOf(preflightStdout: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of preflightStdout.split('\n')) {
    const m = /^\s+will skip\s+(\S.*?): (.*)$/.exec(line);
    if (!m) continue;
    for (const item of m[1]!.split(', ')) {
      const ids = item.endsWith('-*')
        ? RULES.filter((r) => r.id.startsWith(item.slice(0, -1))).map((r) => r.id)
        : [item];
      for (const id of ids) out[id] = m[2]!;
    }
  }
  return out;
}

/** rule id → reason of every rule the run in `reportsDir` skipped as a whole. */
export function skipsOf(reportsDir: string): Record<string, string> {
  const matrix = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as {
    rules: { id: string; verdict: string; reasons: string[] }[];
  };
  return Object.fromEntries(
    matrix.rules.filter((r) => r.verdict === 'skip').map((r) => [r.id, r.reasons.join(' | ')]),
  );
}

/** The verdict the run in `reportsDir` gave rule `id`. */
export function verdictOf(reportsDir: string, id: string): string | undefined {
  const matrix = JSON.parse(readFileSync(join(reportsDir, 'conformance.json'), 'utf8')) as {
    rules: { id: string; verdict: string }[];
  };
  return matrix.rules.find((r) => r.id === id)?.verdict;
}
