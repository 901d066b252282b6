// Holds every schema of schemas/ against the facts Canton publishes (spec/canton-<version>.json): same
// property names, types, formats, required sets and nullability, except the differences listed with their
// reason in schemas/differences.json. An unlisted difference fails, and so does a listed one that no longer
// exists, so the list stays true. Runs without Canton's own files: spec/ is committed.

import { expect, test } from '../support/test';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SCHEMAS } from '../../schemas';
import listed from '../../schemas/differences.json';
import type { SpecFacts } from '../../spec/facts';
import {
  compareAll,
  differenceKey,
  type Difference,
  type DifferenceKind,
  type SchemaDoc,
} from '../../core/schema-compare';

const specDir = join(__dirname, '..', '..', 'spec');
const specs: SpecFacts[] = readdirSync(specDir)
  .filter((file) => /^canton-.+\.json$/.test(file))
  .sort()
  .map((file) => JSON.parse(readFileSync(join(specDir, file), 'utf8')) as SpecFacts);

interface Listed {
  at: string | string[];
  kind: string;
  detail: string | string[];
  versions: string[];
  reason: string;
}
const entries = listed.differences as Listed[];
const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** The listed differences of one version, expanded to one key per (at, detail). */
function listedFor(version: string): Map<string, Listed> {
  const keys = new Map<string, Listed>();
  for (const entry of entries.filter((e) => e.versions.includes(version))) {
    for (const at of list(entry.at)) {
      for (const detail of list(entry.detail)) {
        keys.set(differenceKey({ at, kind: entry.kind as DifferenceKind, detail }), entry);
      }
    }
  }
  return keys;
}

/** A ready-to-fill entry for the failure message. */
const suggestion = (d: Difference, version: string): string =>
  JSON.stringify({ at: d.at, kind: d.kind, detail: d.detail, versions: [version], reason: 'TODO: why' });

test('spec/ holds the facts of Canton 3.4.11 and 3.5.10', () => {
  expect(specs.map((s) => s.cantonVersion)).toEqual(expect.arrayContaining(['3.4.11', '3.5.10']));
});

for (const spec of specs) {
  const version = spec.cantonVersion;

  test(`schemas match spec/canton-${version}.json except the listed differences`, () => {
    const actual = compareAll(spec, SCHEMAS);
    const expected = listedFor(version);
    const actualKeys = new Set(actual.map(differenceKey));
    const unlisted = actual.filter((d) => !expected.has(differenceKey(d)));
    const stale = [...expected.keys()].filter((key) => !actualKeys.has(key));
    expect
      .soft(
        unlisted.map(differenceKey),
        `differences from Canton ${version} not listed in schemas/differences.json — fix the schema or list them:\n` +
          unlisted.map((d) => suggestion(d, version)).join(',\n'),
      )
      .toEqual([]);
    expect(
      stale,
      `listed for ${version} in schemas/differences.json but no longer a difference — remove them`,
    ).toEqual([]);
  });

  test(`the three operations of ${version} share one error body`, () => {
    const errors = Object.values(spec.operations).map((op) => op.error);
    expect(new Set(errors)).toEqual(new Set(['JsCantonError']));
  });
}

test('every listed difference names a spec version and a reason, once', () => {
  // An entry of a kind the comparison does not know matches no difference: the test above finds it stale.
  const versions = specs.map((s) => s.cantonVersion);
  const problems: string[] = [];
  const seen = new Set<string>();
  for (const entry of entries) {
    const name = `${list(entry.at).join(', ')} ${entry.kind}`;
    if (entry.reason.trim().length < 20) problems.push(`${name}: give a reason`);
    if (entry.versions.length === 0 || entry.versions.some((v) => !versions.includes(v))) {
      problems.push(`${name}: versions must be among ${versions.join(', ')}`);
    }
    for (const version of entry.versions) {
      for (const at of list(entry.at)) {
        for (const detail of list(entry.detail)) {
          const key = `${version} ${differenceKey({ at, kind: entry.kind as DifferenceKind, detail })}`;
          if (seen.has(key)) problems.push(`listed twice: ${key}`);
          seen.add(key);
        }
      }
    }
  }
  expect(problems).toEqual([]);
});

test('the comparison reports a planted difference of each kind', () => {
  // Proves the check can fail: alter a copy of the schemas and expect exactly those alterations reported.
  const copy = JSON.parse(JSON.stringify(SCHEMAS)) as SchemaDoc[];
  const obj = (value: unknown): Record<string, unknown> => value as Record<string, unknown>;
  const byName = (suffix: string): Record<string, unknown> => copy.find((s) => s.$id!.endsWith(suffix))!;
  const request = byName('/submit-request.json');
  request.required = (request.required as string[]).filter((r) => r !== 'actAs');
  obj(request.properties).userId = { type: 'integer' };
  delete obj(request.properties).readAs;
  const error = byName('/canton-error.json');
  obj(error.properties).extra = { type: 'string' };
  obj(error.properties).code = { type: ['string', 'null'] };
  const defs = obj(byName('/defs.json').$defs);
  obj(obj(defs.CreatedEvent).properties).acsDelta = { type: 'boolean', const: true };
  (obj(defs.Command).oneOf as unknown[]).pop();

  const spec = specs.find((s) => s.cantonVersion === '3.5.10')!;
  const found = new Set(compareAll(spec, copy).map(differenceKey));
  for (const planted of [
    'JsCommands | required-dropped | actAs',
    'JsCommands.userId | type | string → integer',
    'JsCommands | property-missing | readAs',
    'JsCantonError | property-extra | extra',
    'JsCantonError.code | nullable-added | null',
    'CreatedEvent.acsDelta | constraint | const=true',
    'Command | variant-missing | ExerciseCommand',
  ]) {
    expect(found, planted).toContain(planted);
  }
});
