// The run's expectations as the run-information block and target.json show them: the layers in force for
// the target's version, and every entry with whether it applies and whether it is past its `until` day.
import { appliesTo, expired, loadLayers, placed, todayUtc } from '../../rules/expectations';
import type { ExpectationsInfo } from '../../reporters/expectations-status';

export function expectationsInfo(
  setting: string,
  version: string | undefined,
  today = todayUtc(),
  dirs?: readonly string[],
): ExpectationsInfo {
  const layers = loadLayers(setting, version, dirs);
  return {
    setting,
    layers: layers.map((l) => ({ name: l.name, from: l.from, entries: l.deviations.length })),
    // Undefined fields (no test, owner, ticket, until) leave target.json as JSON leaves them: out.
    entries: placed(layers).map((d) => ({
      key: d.key,
      layer: d.layer,
      rule: d.rule,
      test: d.test,
      reason: d.reason,
      owner: d.owner,
      ticket: d.ticket,
      until: d.until,
      applies: version !== undefined && appliesTo(d, version),
      expired: expired(d, today),
    })),
  };
}

/** `canton (5 entries) + team.json (2 entries, 1 expired)`, or `none`. */
export function expectationsLine(info: ExpectationsInfo): string {
  if (info.layers.length === 0) return `none (LEDGER_EXPECTATIONS=${info.setting})`;
  return info.layers
    .map((l) => {
      const old = info.entries.filter((e) => e.layer === l.from && e.expired && e.applies).length;
      return `${l.from} (${l.entries} entr${l.entries === 1 ? 'y' : 'ies'}${old ? `, ${old} expired` : ''})`;
    })
    .join(' + ');
}

/** Days before its `until` day a waiver is announced as expiring. */
export const EXPIRING_WITHIN_DAYS = 7;

/**
 * The applying entries past their `until` day or reaching it within a week, one line each: what the preflight
 * lists so a team renews or fixes before the run judges the test as any other.
 */
export function waiverLines(info: ExpectationsInfo, today: string): [string, string][] {
  const dayMs = 86_400_000;
  const lines: [string, string][] = [];
  for (const e of info.entries) {
    if (!e.applies || e.until === undefined) continue;
    const left = Math.round((Date.parse(e.until) - Date.parse(today)) / dayMs);
    if (!e.expired && left > EXPIRING_WITHIN_DAYS) continue;
    const who = [e.layer, e.owner && `owner ${e.owner}`, e.ticket].filter(Boolean).join(', ');
    const what = `${e.rule}${e.test ? ` "${e.test}"` : ''} (${who})`;
    lines.push(
      e.expired
        ? [
            'waiver expired',
            `${what}: past its until day ${e.until}, no longer excuses: the run judges its test`,
          ]
        : [
            'waiver expiring',
            `${what}: until ${e.until} (${left === 0 ? 'today' : `in ${left} day${left === 1 ? '' : 's'}`})`,
          ],
    );
  }
  return lines;
}
