// The state of the run's expectations entries (rules/expectations), for the report: which are past their
// `until` day (they no longer excuse: their tests are judged as any other) and which matched no test although
// their rule ran (stale: a renamed test, a rule id that is not catalogued, or a waiver nobody needs any more).
import { RULES } from '../rules/catalogue';

/** An entry as the global setup leaves it in target.json. */
export interface ExpectationEntryInfo {
  key: string;
  layer: string;
  rule: string;
  test?: string;
  reason: string;
  owner?: string;
  ticket?: string;
  until?: string;
  /** Its version range covers the target's version. */
  applies: boolean;
  expired: boolean;
}

export interface ExpectationsInfo {
  setting: string;
  layers: { name: string; from: string; entries: number }[];
  entries: ExpectationEntryInfo[];
}

/** An entry the report lists, with why. */
export type EntryNote = Omit<ExpectationEntryInfo, 'layer' | 'applies' | 'expired'> & { why: string };

const noteOf = (
  { layer: _layer, applies: _applies, expired: _expired, ...entry }: ExpectationEntryInfo,
  why: string,
): EntryNote => ({
  ...entry,
  why,
});

/**
 * `matched`: the entry keys the tests of this run carried (fixtures/deviations.ts annotates them);
 * `rulesRun`: the rules with at least one test in this run.
 */
export function expectationsStatus(
  info: ExpectationsInfo | undefined,
  matched: ReadonlySet<string>,
  rulesRun: ReadonlySet<string>,
): { expired: EntryNote[]; stale: EntryNote[] } {
  const expired: EntryNote[] = [];
  const stale: EntryNote[] = [];
  for (const e of info?.entries ?? []) {
    if (!e.applies) continue;
    if (e.expired) {
      expired.push(noteOf(e, `past its until day ${e.until}: no longer excuses`));
      continue;
    }
    if (matched.has(e.key)) continue;
    if (!RULES.some((r) => r.id === e.rule)) stale.push(noteOf(e, `${e.rule} is not a catalogued rule`));
    else if (rulesRun.has(e.rule))
      stale.push(
        noteOf(e, e.test ? `no test of ${e.rule} is titled "${e.test}"` : `matched no test of ${e.rule}`),
      );
  }
  return { expired, stale };
}

/** What excuses a known deviation or a waived test, for its page in the report: the entry's own words. */
export interface Excuse {
  layer: string;
  reason: string;
  owner?: string;
  ticket?: string;
  until?: string;
}

/** `{ excuse }` of a known deviation excused by the entry `key`, or nothing. */
export function excuseOf(
  verdict: string,
  key: string | undefined,
  info: ExpectationsInfo | undefined,
): { excuse?: Excuse } {
  const entry = info?.entries.find((e) => e.key === key);
  if (verdict !== 'known-deviation' || entry === undefined) return {};
  const { layer, reason, owner, ticket, until } = entry;
  return {
    excuse: {
      layer,
      reason,
      ...(owner ? { owner } : {}),
      ...(ticket ? { ticket } : {}),
      ...(until ? { until } : {}),
    },
  };
}
