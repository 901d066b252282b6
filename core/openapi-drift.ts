// What a participant's own description (core/openapi-read.ts) says otherwise than the interface document, and
// what changed in it since the target's previous run. Each difference is one line: the operation, the field
// (named as spec/ and schemas/differences.json name them), before → after, and the rules that read the field
// (rules/fields.ts), so a reader sees at once whether a change is covered. Compared: paths and methods, field
// names, types and formats, required sets, variants, enums. Not compared: prose, examples, the grammars the
// document adds and the nullability schemas/ adds (Canton's OpenAPI states neither).
import { SCHEMAS } from '../schemas';
import listed from '../schemas/differences.json';
import { RULES } from '../rules/catalogue';
import { BODY_READERS, FIELD_READERS } from '../rules/fields';
import type { Operation } from '../rules/types';
import { OPERATION_NAMES } from './api-paths';
import type { DescriptionFacts, OperationFact, OperationKey, TypeFact } from '../spec/facts';
import {
  compareDescription,
  differenceKey,
  type Difference,
  type DifferenceKind,
  type SchemaDoc,
} from './schema-compare';

export interface DriftLine {
  /** The harness's name of the operation (`submit-tree`, `vetting-list`, `version`). */
  operation: string;
  /** `Component.field`, or `(path)` for where the operation is served. */
  at: string;
  before: string;
  after: string;
  /** The rules that read the field. */
  rules: string[];
  /** Against the document: the reason schemas/differences.json gives, when the difference is a known one. */
  known?: string;
}

const OP_NAME: Record<OperationKey, Exclude<Operation, 'all'>> = {
  submitTree: 'submit-tree',
  vettingList: 'vetting-list',
  version: 'version',
};
const KEYS = Object.keys(OP_NAME) as OperationKey[];
type Body = 'request' | 'response' | 'error';

/** The kinds of difference a description can state: grammars and nullability it cannot, so they are not compared. */
const COMPARED: ReadonlySet<DifferenceKind> = new Set<DifferenceKind>([
  'property-missing',
  'property-extra',
  'required-added',
  'required-dropped',
  'type',
  'variant-missing',
  'variant-extra',
  'nullable-dropped',
  'constraint-dropped',
]);

const refsOf = (t: TypeFact): string[] => [
  ...(t.ref ? [t.ref] : []),
  ...[...(t.oneOf ?? []), ...(t.items ? [t.items] : []), ...Object.values(t.properties ?? {})].flatMap(
    refsOf,
  ),
  ...(t.additionalProperties ? refsOf(t.additionalProperties) : []),
];

/** Every component reachable from one component. */
function closure(components: Record<string, TypeFact>, root: string | null | undefined): Set<string> {
  const seen = new Set<string>();
  const pending = root ? [root] : [];
  while (pending.length > 0) {
    const name = pending.pop()!;
    if (seen.has(name) || !components[name]) continue;
    seen.add(name);
    pending.push(...refsOf(components[name]));
  }
  return seen;
}

/** Where a component is read: each (operation, body) whose body reaches it. */
function placesOf(d: DescriptionFacts): Map<string, { op: OperationKey; body: Body }[]> {
  const places = new Map<string, { op: OperationKey; body: Body }[]>();
  for (const op of KEYS) {
    const fact = d.operations[op];
    const roots: [Body, string | null | undefined][] = [
      ['request', fact?.request],
      ['response', fact?.success],
      ['error', fact?.error],
    ];
    for (const [body, root] of roots)
      for (const name of closure(d.components, root))
        places.set(name, [...(places.get(name) ?? []), { op, body }]);
  }
  return places;
}

const componentOf = (at: string): string => at.split(/[.[{|]/)[0] ?? at;
const covers = (key: string, at: string): boolean =>
  at === key || (at.startsWith(key) && '.[{|'.includes(at[key.length]!));

/** The rules that read the field `at`, read in these places. */
export function rulesReading(at: string, places: readonly { op: OperationKey; body: Body }[]): string[] {
  const found = new Set<string>();
  for (const r of BODY_READERS)
    if (places.some((p) => (r.operation === 'all' || r.operation === OP_NAME[p.op]) && r.body === p.body))
      r.rules.forEach((id) => found.add(id));
  for (const [key, ids] of Object.entries(FIELD_READERS))
    if (covers(key, at)) ids.forEach((id) => found.add(id));
  return [...found].sort();
}

const opRules = (op: OperationKey): string[] =>
  RULES.filter((r) => r.operation === OP_NAME[op]).map((r) => r.id);
const route = (op: OperationFact | undefined): string =>
  op ? `${op.method.toUpperCase()} ${op.path}` : 'not described';

/** Where each operation is served: the document's route against the description's. */
function pathLines(d: DescriptionFacts): DriftLine[] {
  return KEYS.filter((op) => route(d.operations[op]) !== OPERATION_NAMES[OP_NAME[op]]).map((op) => ({
    operation: OP_NAME[op],
    at: '(path)',
    before: OPERATION_NAMES[OP_NAME[op]],
    after: route(d.operations[op]),
    rules: opRules(op),
  }));
}

/** Routes a release is known to publish otherwise than the document, with why. */
const KNOWN_ROUTES: Record<string, string> = {
  'vetting-list GET /v2/package-vetting':
    "Canton 3.4's OpenAPI publishes the listing only as the deprecated GET /v2/package-vetting, with the same bodies (spec/README.md).",
};

interface Listed {
  at: string | string[];
  kind: string;
  detail: string | string[];
  reason: string;
}
const list = <T>(v: T | T[]): T[] => (Array.isArray(v) ? v : [v]);

/** Every difference schemas/differences.json lists (whatever the release), by key, with its reason. */
const KNOWN: ReadonlyMap<string, string> = new Map(
  (listed.differences as Listed[]).flatMap((e) =>
    list(e.at).flatMap((at) =>
      list(e.detail).map((detail): [string, string] => [
        differenceKey({ at, kind: e.kind as DifferenceKind, detail }),
        e.reason,
      ]),
    ),
  ),
);

/** A difference between the document (schemas/) and the description, as document → description. */
function sides(d: Difference, desc: DescriptionFacts): { at: string; before: string; after: string } {
  const field = `${d.at}.${d.detail}`;
  const prop = desc.components[d.at]?.properties?.[d.detail];
  switch (d.kind) {
    case 'property-missing':
      return { at: field, before: 'not stated', after: prop ? words(prop) : 'described' };
    case 'property-extra':
      return { at: field, before: 'stated', after: 'absent' };
    case 'required-added':
      return { at: field, before: 'required', after: 'optional' };
    case 'required-dropped':
      return { at: field, before: 'optional', after: 'required' };
    case 'type': {
      const [spec = '', schema = ''] = d.detail.split(' → ');
      return { at: d.at, before: schema, after: spec };
    }
    case 'variant-missing':
      return { at: `${d.at}|${d.detail}`, before: 'absent', after: 'a variant' };
    case 'variant-extra':
      return { at: `${d.at}|${d.detail}`, before: 'a variant', after: 'absent' };
    case 'nullable-dropped':
      return { at: d.at, before: 'not null', after: 'nullable' };
    default:
      return { at: d.at, before: 'unconstrained', after: d.detail };
  }
}

/** A required flag of a property the description lacks: the property's own line says it all. */
const requiredOfAbsent = (d: Difference, desc: DescriptionFacts): boolean =>
  (d.kind === 'required-added' || d.kind === 'required-dropped') &&
  desc.components[d.at]?.properties?.[d.detail] === undefined;

/** What the description says otherwise than the document: routes first, then fields by operation and path. */
export function againstDocument(
  desc: DescriptionFacts,
  schemas: readonly SchemaDoc[] = SCHEMAS,
): DriftLine[] {
  const places = placesOf(desc);
  const routes = pathLines(desc).map((l) => {
    const known = KNOWN_ROUTES[`${l.operation} ${l.after}`];
    return known ? { ...l, known } : l;
  });
  const fields = compareDescription(desc, schemas)
    .filter((d) => COMPARED.has(d.kind) && !requiredOfAbsent(d, desc))
    .flatMap((d) => {
      const { at, before, after } = sides(d, desc);
      const where = places.get(componentOf(at)) ?? [];
      const known = KNOWN.get(differenceKey(d));
      const ops = [...new Set(where.map((p) => OP_NAME[p.op]))];
      return (ops.length > 0 ? ops : ['?']).map((operation) => ({
        operation,
        at,
        before,
        after,
        rules: rulesReading(at, where),
        ...(known ? { known } : {}),
      }));
    });
  return [...routes, ...sortLines(fields)];
}

const sortLines = (lines: DriftLine[]): DriftLine[] =>
  lines.sort((a, b) => a.operation.localeCompare(b.operation) || a.at.localeCompare(b.at));

/** One type in a few words: `string (date-time)`, `array of Command`, `map of TreeEvent`, `CreatedEvent | null`. */
export function words(t: TypeFact): string {
  const head = t.ref
    ? t.ref
    : t.oneOf
      ? `one of ${t.oneOf.map(words).join(' / ')}`
      : t.type === 'array' && t.items
        ? `array of ${words(t.items)}`
        : t.type === 'object' && t.additionalProperties && !t.properties
          ? `map of ${words(t.additionalProperties)}`
          : `${t.type ?? 'any'}${t.format ? ` (${t.format})` : ''}`;
  return withQualifiers(head, t);
}

/** A type's words followed by what narrows it: its enum, its item bounds, a null allowed. */
function withQualifiers(head: string, t: TypeFact): string {
  const extra = [
    t.enum ? `enum ${JSON.stringify(t.enum)}` : '',
    t.minItems !== undefined ? `minItems ${t.minItems}` : '',
    t.maxItems !== undefined ? `maxItems ${t.maxItems}` : '',
  ].filter(Boolean);
  return `${head}${extra.length ? ` ${extra.join(', ')}` : ''}${t.nullable ? ' | null' : ''}`;
}

/** One type without what lies under it (items, properties, variants are walked on their own). */
function shallow(t: TypeFact): string {
  const head =
    t.ref ?? (t.oneOf ? `one of ${t.oneOf.length}` : `${t.type ?? 'any'}${t.format ? ` (${t.format})` : ''}`);
  return withQualifiers(head, t);
}

type Change = Pick<DriftLine, 'at' | 'before' | 'after'>;

/** The changes between two facts of one field and everything under it. */
function walk(at: string, a: TypeFact | undefined, b: TypeFact | undefined, out: Change[]): void {
  if (!a || !b) {
    if (a || b) out.push({ at, before: a ? words(a) : 'absent', after: b ? words(b) : 'absent' });
    return;
  }
  if (shallow(a) !== shallow(b)) out.push({ at, before: words(a), after: words(b) });
  walk(`${at}[]`, a.items, b.items, out);
  walk(`${at}{}`, a.additionalProperties, b.additionalProperties, out);
  const variant = (t: TypeFact, i: number) => t.ref ?? String(i);
  const variants = (t: TypeFact) => new Map((t.oneOf ?? []).map((v, i) => [variant(v, i), v]));
  const [va, vb] = [variants(a), variants(b)];
  for (const key of new Set([...va.keys(), ...vb.keys()]))
    walk(`${at}|${key}`, va.get(key), vb.get(key), out);
  const [pa, pb] = [a.properties ?? {}, b.properties ?? {}];
  for (const name of new Set([...Object.keys(pa), ...Object.keys(pb)])) {
    walk(`${at}.${name}`, pa[name], pb[name], out);
    const [ra, rb] = [a.required?.includes(name) ?? false, b.required?.includes(name) ?? false];
    if (pa[name] && pb[name] && ra !== rb)
      out.push({
        at: `${at}.${name}`,
        before: ra ? 'required' : 'optional',
        after: rb ? 'required' : 'optional',
      });
  }
}

/** What changed in a target's description since the one it published before: routes, bodies, every field. */
export function sinceLast(before: DescriptionFacts, after: DescriptionFacts): DriftLine[] {
  const routes = KEYS.filter((op) => route(before.operations[op]) !== route(after.operations[op])).map(
    (op): DriftLine => ({
      operation: OP_NAME[op],
      at: '(path)',
      before: route(before.operations[op]),
      after: route(after.operations[op]),
      rules: opRules(op),
    }),
  );
  const changes: Change[] = [];
  for (const op of KEYS)
    for (const body of ['request', 'success', 'error'] as const) {
      const [a, b] = [before.operations[op]?.[body], after.operations[op]?.[body]];
      if (before.operations[op] && after.operations[op] && a !== b)
        changes.push({ at: `(${body} of ${OP_NAME[op]})`, before: a ?? 'none', after: b ?? 'none' });
    }
  for (const name of new Set([...Object.keys(before.components), ...Object.keys(after.components)]))
    if (before.components[name] && after.components[name])
      walk(name, before.components[name], after.components[name], changes);
  const [placesAfter, placesBefore] = [placesOf(after), placesOf(before)];
  const fields = changes.flatMap((c) => {
    const where = placesAfter.get(componentOf(c.at)) ?? placesBefore.get(componentOf(c.at)) ?? [];
    const ops = [...new Set(where.map((p) => OP_NAME[p.op]))];
    return (ops.length > 0 ? ops : ['?']).map((operation) => ({
      operation,
      ...c,
      rules: rulesReading(c.at, where),
    }));
  });
  return [...routes, ...sortLines(fields)];
}

/** One difference, one line: `vetting-list (path): POST … → GET … — read by 24 rules: VET-SHAPE, …`. */
export function driftLine(l: DriftLine, shownRules = 6): string {
  const shown = l.rules.slice(0, shownRules).join(', ');
  const more = l.rules.length > shownRules ? `, … (${l.rules.length} rules)` : '';
  const rules = l.rules.length === 0 ? 'no rule reads it' : `rules: ${shown}${more}`;
  return `${l.operation} ${l.at}: ${l.before} → ${l.after} — ${rules}${l.known ? ' (known)' : ''}`;
}
