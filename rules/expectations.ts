// Known deviations and waivers as data, in layers: Canton's baseline (its known deviations, each pinned to
// what Canton does instead) and any number of a team's own files on top (LEDGER_EXPECTATIONS). A layer adds
// entries, never removes one; an entry names a rule (or one test of it), a reason, and may carry an owner, a
// ticket and an `until` date past which it no longer excuses. The format is documented in
// rules/expectations/README.md and checked by rules/expectations/expectations.schema.json.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import type { ErrorObject, ValidateFunction } from 'ajv/dist/2020';
import cantonBaseline from './expectations/canton.json';
import expectationsSchema from './expectations/expectations.schema.json';
import { compareReleases } from './versions';
import { RULES, ruleById } from './catalogue';

/**
 * What Canton does instead of the rule, as the harness can check it. Each check is implemented beside the
 * rule's test (fixtures/pinned-deviations.ts); a deviation is known only when the target does exactly this.
 */
export const PINNED_CHECKS = {
  'version-document': 'answers 200 with a version document that passes VER-SHAPE’s checks',
  'command-accepted-with-its-tree':
    'accepts the command: 200 with a well-formed transaction tree of that very command',
  'trailing-empty-page':
    'gives a non-empty nextPageToken on the last non-empty page, then exactly one empty page with ""',
  'early-end-on-empty-page':
    'ends the walk early on an empty page with "", every entry it did list correct, in order and listed once',
} as const;
export type PinnedCheck = keyof typeof PINNED_CHECKS;

export interface Deviation {
  rule: string;
  /** Narrows the entry to the one test with this title (the whole title, or what follows the rule id). */
  test?: string;
  expect: 'fail' | 'skip';
  reason: string;
  /** Inclusive lower bound and exclusive upper bound on the target's release (pre-releases count as their release). */
  versions?: { from?: string; below?: string };
  /** What the target does instead: only that behaviour is excused (Canton's baseline pins every entry). */
  instead?: { check: PinnedCheck; does: string };
  owner?: string;
  ticket?: string;
  /** YYYY-MM-DD, inclusive: after that day the entry no longer excuses and the run lists it as expired. */
  until?: string;
  /** Where the behaviour comes from (a Canton source file, a release note). */
  source?: string;
}

export interface Baseline {
  name: string;
  deviations: Deviation[];
}

/** One layer of expectations and where it came from (`canton` for the built-in one, else the file). */
export interface Layer extends Baseline {
  from: string;
}

/** An entry with its place: `<layer>#<n>` (1-based) names it in annotations and reports. */
export interface PlacedDeviation extends Deviation {
  key: string;
  layer: string;
}

export class ExpectationsError extends Error {
  override name = 'ExpectationsError';
}

export const BUILTIN_BASELINES: Record<string, Baseline> = { canton: cantonBaseline as Baseline };

export function appliesTo(deviation: Deviation, version: string): boolean {
  const { from, below } = deviation.versions ?? {};
  return (
    (from === undefined || compareReleases(version, from) >= 0) &&
    (below === undefined || compareReleases(version, below) < 0)
  );
}

/** Past its `until` day (UTC) on `today` (YYYY-MM-DD). */
export const expired = (d: Deviation, today: string): boolean => d.until !== undefined && today > d.until;

export const todayUtc = (now = new Date()): string => now.toISOString().slice(0, 10);

/**
 * The schema's validator, compiled on first use (most runs read no team file), with ajv loaded then: every
 * process of a run reads the settings, and most never validate a file. The pinned checks it accepts are
 * PINNED_CHECKS' names: one list, here.
 */
let validator: ValidateFunction<Baseline> | undefined;
function validate(json: unknown): json is Baseline {
  if (validator === undefined) {
    const schema: Record<string, unknown> & typeof expectationsSchema = structuredClone(expectationsSchema);
    const instead = schema.$defs.Entry.properties.instead.properties as Record<string, unknown>;
    instead.check = { enum: Object.keys(PINNED_CHECKS) };
    /* oxlint-disable typescript/no-require-imports -- loaded on first use, as schemas/index.ts does */
    const { Ajv2020 } = require('ajv/dist/2020') as typeof import('ajv/dist/2020');
    const addFormats = (require('ajv-formats') as typeof import('ajv-formats')).default;
    /* oxlint-enable typescript/no-require-imports */
    const ajv = new Ajv2020({ allErrors: false, strict: true });
    addFormats(ajv, ['date']);
    validator = ajv.compile<Baseline>(schema);
  }
  return validator(json);
}

/** How to fix the first schema error, in one clause. */
function fixOf(error: ErrorObject): string {
  const field = error.instancePath.split('/').slice(3).join('.') || undefined;
  switch (error.keyword) {
    case 'required':
      return `add "${String(error.params.missingProperty)}"`;
    case 'additionalProperties':
      return `remove "${String(error.params.additionalProperty)}" (known fields: rule, test, expect, reason, versions, instead, owner, ticket, until, source)`;
    case 'format':
      return `write "${field}" as a date, YYYY-MM-DD`;
    case 'enum':
      return `set "${field}" to one of ${(error.params.allowedValues as unknown[]).map((v) => JSON.stringify(v)).join(', ')}`;
    case 'pattern':
      return `"${field}" must match ${String(error.params.pattern)}`;
    default:
      return `"${field ?? 'the file'}" ${error.message ?? 'is malformed'}`;
  }
}

/** Parses and checks one layer's JSON; throws ExpectationsError naming the file, the entry and the fix. */
export function parseLayer(text: string, from: string): Layer {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (e) {
    throw new ExpectationsError(`${from} is not JSON (${(e as Error).message}): fix the file`);
  }
  if (!validate(json)) {
    const error = validator!.errors![0]!;
    const index = /^\/deviations\/(\d+)/.exec(error.instancePath)?.[1];
    const entry = index === undefined ? undefined : (json as Baseline).deviations[Number(index)];
    const named =
      index === undefined
        ? ''
        : `, entry ${Number(index) + 1}${typeof entry?.rule === 'string' ? ` (${entry.rule})` : ''}`;
    throw new ExpectationsError(`${from}${named}: ${fixOf(error)}`);
  }
  json.deviations.forEach((d, i) => {
    const wrong = againstCatalogue(d);
    if (wrong !== undefined) throw new ExpectationsError(`${from}, entry ${i + 1} (${d.rule}): ${wrong}`);
  });
  return { ...json, from };
}

/**
 * What in an entry names nothing of the catalogue, with the fix; undefined when its rule exists and its test
 * (if any) can be one of that rule's. Every test of a rule is titled `<id> <the rule's title>[ — detail]`, so a
 * title that does not start so can never match: a typo that would otherwise surface after the run, as stale.
 */
function againstCatalogue(d: Deviation): string | undefined {
  const rule = ruleById(d.rule);
  if (rule === undefined) {
    const near = closestRuleId(d.rule);
    return `no rule ${d.rule} in the catalogue${near ? ` (did you mean ${near}?)` : ''}: fix "rule" (rules/groups/ lists every id)`;
  }
  if (d.test === undefined) return undefined;
  const rest = d.test.startsWith(`${d.rule} `) ? d.test.slice(d.rule.length).trim() : d.test.trim();
  return rest.startsWith(rule.title)
    ? undefined
    : `"test" names no test of ${d.rule}: its tests are titled "${d.rule} ${rule.title}" (and a detail after it for some); fix "test", or leave it out to name every test of the rule`;
}

/** The catalogue's id nearest to a mistyped one (a few edits away at most), for the error's hint. */
function closestRuleId(id: string): string | undefined {
  let best: { id: string; d: number } | undefined;
  for (const r of RULES) {
    const d = editDistance(id, r.id);
    if (d <= 3 && (best === undefined || d < best.d)) best = { id: r.id, d };
  }
  return best?.id;
}

function editDistance(a: string, b: string): number {
  let prev = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const row = [i];
    for (let j = 1; j <= b.length; j++)
      row[j] = Math.min(prev[j]! + 1, row[j - 1]! + 1, prev[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
    prev = row;
  }
  return prev[b.length]!;
}

/**
 * The layers a LEDGER_EXPECTATIONS value names, for a target reporting `version`: comma-separated `auto`
 * (default: Canton's baseline for a 3.x target), `canton`, `none` (no Canton baseline), and files of a team's
 * own entries, which add to Canton's. A relative path is read from the first of `dirs` holding it (the settings'
 * order: a team's folder, then the current directory).
 */
export function loadLayers(
  setting: string | undefined,
  version: string | undefined,
  dirs: string | readonly string[] = process.cwd(),
): Layer[] {
  const items = (setting ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const files = items.filter((i) => !['auto', 'canton', 'none'].includes(i));
  const canton = items.includes('none')
    ? false
    : items.includes('canton') || (version !== undefined && version.startsWith('3.'));
  const layers: Layer[] = canton ? [{ ...BUILTIN_BASELINES.canton!, from: 'canton' }] : [];
  for (const file of files) {
    const where = typeof dirs === 'string' ? [dirs] : dirs;
    const path = isAbsolute(file) ? file : where.map((d) => resolve(d, file)).find((p) => existsSync(p));
    if (path === undefined || !existsSync(path)) {
      const looked = isAbsolute(file) || where.length < 2 ? '' : ` in ${where.join(' or ')}`;
      throw new ExpectationsError(`${file}: no such file${looked}`);
    }
    layers.push(parseLayer(readFileSync(path, 'utf8'), file));
  }
  return layers;
}

/** Every entry of the layers, keyed `<layer>#<n>`. */
export function placed(layers: readonly Layer[]): PlacedDeviation[] {
  return layers.flatMap((l) =>
    l.deviations.map((d, i) => ({ ...d, key: `${l.from}#${i + 1}`, layer: l.from })),
  );
}

/** True when the entry names this test: its rule, and the test's title when it narrows to one. */
export function matchesTest(d: Deviation, ruleId: string, title: string): boolean {
  if (d.rule !== ruleId) return false;
  if (d.test === undefined) return true;
  return title === d.test || title.slice(ruleId.length).trim() === d.test.trim();
}

/** The entries of the layers that name this test on this version: the first unexpired one excuses it. */
export function entriesFor(
  layers: readonly Layer[],
  ruleId: string,
  title: string,
  version: string,
  today = todayUtc(),
): { active: PlacedDeviation | undefined; matched: PlacedDeviation[]; expired: PlacedDeviation[] } {
  const matched = placed(layers).filter((d) => matchesTest(d, ruleId, title) && appliesTo(d, version));
  const old = matched.filter((d) => expired(d, today));
  return { active: matched.find((d) => !expired(d, today)), matched, expired: old };
}
