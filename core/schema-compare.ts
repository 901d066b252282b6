// Holds hand-written JSON Schemas against the facts of spec/: walks a spec component and the schema node
// that stands for it side by side (following $ref on both sides) and lists every difference in property
// names, types, formats, required sets, nullability and added constraints. The differences are named by
// the spec's component path (e.g. `JsCommands.actAs[]`) so that schemas/differences.json can list them.
// The schema self-test holds schemas/ against spec/ with it; a run holds a participant's own description
// against schemas/ (the document) with it (core/openapi-drift.ts).

import { SCHEMA_IDS, type SchemaName } from '../schemas';
import type { DescriptionFacts, SpecFacts, TypeFact } from '../spec/facts';

export type DifferenceKind =
  | 'property-missing' // the spec has the property, the schema does not
  | 'property-extra' // the schema has a property the spec does not
  | 'required-added' // the schema requires what the spec leaves optional
  | 'required-dropped' // the spec requires what the schema leaves optional
  | 'nullable-added'
  | 'nullable-dropped'
  | 'type' // base type or format differ
  | 'constraint' // the schema adds constraints (a grammar, minItems, …)
  | 'constraint-dropped' // the schema lacks a constraint the spec has
  | 'variant-missing'
  | 'variant-extra'
  | 'component-unchecked'; // a spec component the walk never reached

export interface Difference {
  at: string;
  kind: DifferenceKind;
  detail: string;
}

export const differenceKey = (d: Difference): string => `${d.at} | ${d.kind} | ${d.detail}`;

type Node = boolean | { [key: string]: unknown };
export type SchemaDoc = { $id?: string; [key: string]: unknown };

/** Keywords that only annotate. */
const ANNOTATIONS = new Set([
  '$schema',
  '$id',
  '$defs',
  '$comment',
  'title',
  'description',
  'examples',
  'default',
]);
/** Keywords the comparison reads structurally. */
const STRUCTURE = new Set(['type', 'properties', 'required', 'items', 'additionalProperties', 'oneOf']);
/** Keywords that narrow a value: each one the spec lacks is a `constraint` difference. */
const CONSTRAINTS = new Set([
  'format',
  'pattern',
  'minLength',
  'maxLength',
  'minimum',
  'maximum',
  'exclusiveMinimum',
  'exclusiveMaximum',
  'multipleOf',
  'minItems',
  'maxItems',
  'uniqueItems',
  'propertyNames',
  'minProperties',
  'maxProperties',
  'const',
  'enum',
  'not',
]);

/** A schema node after following $ref, a nullable anyOf or a ["T", "null"] type. */
interface Resolved {
  node: { [key: string]: unknown };
  base: string;
  pointer: string;
  nullable: boolean;
  /** keyword → label: the $defs name it came from, or `keyword=value` when written in place. */
  constraints: Map<string, { value: unknown; label: string }>;
}

const isRecord = (v: unknown): v is { [key: string]: unknown } =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const render = (keyword: string, value: unknown): string =>
  keyword === 'not' && isRecord(value)
    ? `not(required ${JSON.stringify(value.required)})`
    : `${keyword}=${JSON.stringify(value)}`;

export class SchemaComparer {
  private readonly docs = new Map<string, SchemaDoc>();
  private readonly differences = new Map<string, Difference>();
  private readonly visited = new Set<string>();
  private readonly reached = new Set<string>();

  constructor(
    private readonly spec: Pick<SpecFacts, 'components'>,
    schemas: readonly SchemaDoc[],
  ) {
    for (const doc of schemas) {
      if (typeof doc.$id !== 'string') throw new Error('every schema document needs an $id');
      this.docs.set(doc.$id, doc);
    }
  }

  /** Compares the schema document `$id` with the spec component `component`. */
  compareRoot(component: string, id: string): void {
    const doc = this.docs.get(id);
    if (!doc) throw new Error(`no schema ${id}`);
    this.compare({ ref: component, nullable: false }, component, doc, id, '#');
  }

  /** All differences found so far, plus the spec components no root reached. */
  result(): Difference[] {
    for (const name of Object.keys(this.spec.components)) {
      if (!this.reached.has(name)) this.add(name, 'component-unchecked', name);
    }
    return [...this.differences.values()].sort((a, b) => differenceKey(a).localeCompare(differenceKey(b)));
  }

  private add(at: string, kind: DifferenceKind, detail: string): void {
    const d = { at, kind, detail };
    this.differences.set(differenceKey(d), d);
  }

  private lookup(ref: string, base: string): { node: Node; base: string; pointer: string } {
    const url = new URL(ref, base);
    const docId = `${url.origin}${url.pathname}`;
    const doc = this.docs.get(docId);
    if (!doc) throw new Error(`unresolvable $ref ${ref} from ${base}`);
    let node: unknown = doc;
    const fragment = decodeURIComponent(url.hash.replace(/^#/, ''));
    for (const part of fragment.split('/').filter(Boolean)) node = isRecord(node) ? node[part] : undefined;
    if (node === undefined) throw new Error(`unresolvable $ref ${ref} from ${base}`);
    return { node: node as Node, base: docId, pointer: `${docId}#${fragment}` };
  }

  private resolve(start: Node, base: string, pointer: string): Resolved {
    const constraints: Resolved['constraints'] = new Map();
    let nullable = false;
    let node: Node = start;
    let label: string | undefined; // the $defs name we are inside, if any
    for (let hops = 0; ; hops++) {
      if (hops > 20) throw new Error(`$ref loop at ${pointer}`);
      if (node === true) return { node: {}, base, pointer, nullable, constraints };
      if (node === false) throw new Error(`false schema at ${pointer}`);
      for (const key of Object.keys(node)) {
        if (
          !ANNOTATIONS.has(key) &&
          !STRUCTURE.has(key) &&
          !CONSTRAINTS.has(key) &&
          key !== '$ref' &&
          key !== 'anyOf'
        ) {
          throw new Error(`keyword ${key} at ${pointer} is not understood by the comparison`);
        }
        if (CONSTRAINTS.has(key) && !constraints.has(key)) {
          constraints.set(key, { value: node[key], label: label ?? render(key, node[key]) });
        }
      }
      if (Array.isArray(node.type)) {
        const types = node.type.filter((t) => t !== 'null');
        if (types.length !== 1 || node.type.length !== 2)
          throw new Error(`unsupported type union at ${pointer}`);
        nullable = true;
        node = { ...node, type: types[0] };
      }
      if (typeof node.$ref === 'string') {
        const target = this.lookup(node.$ref, base);
        label = target.pointer.split('/').pop();
        ({ node, base, pointer } = target);
        continue;
      }
      if (Array.isArray(node.anyOf)) {
        const others = node.anyOf.filter(
          (n) => !(isRecord(n) && n.type === 'null' && Object.keys(n).length === 1),
        );
        if (others.length !== 1 || node.anyOf.length !== 2)
          throw new Error(`only [X, null] anyOf is understood (${pointer})`);
        nullable = true;
        node = others[0] as Node;
        pointer = `${pointer}/anyOf`;
        continue;
      }
      return { node, base, pointer, nullable, constraints };
    }
  }

  private compare(spec: TypeFact, at: string, schema: Node, base: string, pointer: string): void {
    const resolved = this.resolve(schema, base, pointer);
    if (spec.nullable !== resolved.nullable)
      this.add(at, resolved.nullable ? 'nullable-added' : 'nullable-dropped', 'null');

    const fact = spec.ref ? this.component(spec.ref) : spec;
    this.compareConstraints(fact, at, resolved);
    if (spec.ref) {
      this.reached.add(spec.ref);
      const key = `${spec.ref} @ ${resolved.pointer}`;
      if (this.visited.has(key)) return;
      this.visited.add(key);
      this.compareBody(fact, spec.ref, resolved);
    } else this.compareBody(fact, at, resolved);
  }

  private component(name: string): TypeFact {
    const fact = this.spec.components[name];
    if (!fact) throw new Error(`spec has no component ${name}`);
    return fact;
  }

  /** Constraints the schema adds (one difference, labelled by grammar) and those it drops. */
  private compareConstraints(fact: TypeFact, at: string, resolved: Resolved): void {
    const specSide: Record<string, unknown> = {
      format: fact.format,
      minItems: fact.minItems,
      maxItems: fact.maxItems,
    };
    if (fact.enum) specSide.enum = fact.enum;
    const added = new Set<string>();
    for (const [keyword, { value, label }] of resolved.constraints) {
      if (keyword === 'format' && fact.format !== undefined) continue; // a changed format is a type difference
      if (JSON.stringify(specSide[keyword]) !== JSON.stringify(value)) added.add(label);
    }
    if (added.size > 0) this.add(at, 'constraint', [...added].sort().join(' + '));
    for (const [keyword, value] of Object.entries(specSide)) {
      if (value !== undefined && keyword !== 'format' && !resolved.constraints.has(keyword)) {
        this.add(at, 'constraint-dropped', render(keyword, value));
      }
    }
  }

  private compareBody(fact: TypeFact, at: string, resolved: Resolved): void {
    const { node } = resolved;
    const schemaType = Array.isArray(node.oneOf)
      ? 'oneOf'
      : typeof node.type === 'string'
        ? node.type
        : 'any';
    const specType = fact.oneOf ? 'oneOf' : (fact.type ?? 'any');
    if (specType !== schemaType) {
      this.add(at, 'type', `${specType} → ${schemaType}`);
      return;
    }
    if (fact.format !== undefined && fact.format !== node.format) {
      this.add(
        at,
        'type',
        `format ${fact.format} → ${typeof node.format === 'string' ? node.format : 'none'}`,
      );
    }
    if (fact.oneOf) this.compareVariants(fact.oneOf, at, resolved);
    if (fact.type === 'array') {
      this.compare(fact.items!, `${at}[]`, node.items as Node, resolved.base, `${resolved.pointer}/items`);
    }
    if (fact.type === 'object') this.compareObject(fact, at, resolved);
  }

  private compareObject(fact: TypeFact, at: string, resolved: Resolved): void {
    const { node, base, pointer } = resolved;
    const specProps = fact.properties ?? {};
    const schemaProps = (isRecord(node.properties) ? node.properties : {}) as Record<string, Node>;
    for (const [name, prop] of Object.entries(specProps)) {
      if (!(name in schemaProps)) this.add(at, 'property-missing', name);
      else this.compare(prop, `${at}.${name}`, schemaProps[name]!, base, `${pointer}/properties/${name}`);
    }
    for (const name of Object.keys(schemaProps))
      if (!(name in specProps)) this.add(at, 'property-extra', name);

    const specRequired = new Set(fact.required ?? []);
    const schemaRequired = new Set(Array.isArray(node.required) ? (node.required as string[]) : []);
    for (const name of schemaRequired) if (!specRequired.has(name)) this.add(at, 'required-added', name);
    for (const name of specRequired) if (!schemaRequired.has(name)) this.add(at, 'required-dropped', name);

    const extra = node.additionalProperties;
    if (fact.additionalProperties) {
      if (!isRecord(extra)) this.add(at, 'type', 'map → object without value schema');
      else this.compare(fact.additionalProperties, `${at}{}`, extra, base, `${pointer}/additionalProperties`);
    } else if (extra !== undefined && extra !== true) {
      this.add(at, 'type', extra === false ? 'open object → closed object' : 'object → map');
    }
  }

  /** Variants are matched by the key they require (Canton's variants are one-key wrapper objects). */
  private compareVariants(variants: TypeFact[], at: string, resolved: Resolved): void {
    const keyOf = (required: unknown, index: number): string =>
      Array.isArray(required) && typeof required[0] === 'string' ? required[0] : `#${index}`;
    const schemaVariants = new Map<string, { node: Node; index: number }>();
    (resolved.node.oneOf as Node[]).forEach((node, index) => {
      const required = isRecord(node) ? node.required : undefined;
      schemaVariants.set(keyOf(required, index), { node, index });
    });
    const seen = new Set<string>();
    variants.forEach((variant, index) => {
      const key = keyOf(variant.required, index);
      seen.add(key);
      const match = schemaVariants.get(key);
      if (!match) this.add(at, 'variant-missing', key);
      else
        this.compare(
          variant,
          `${at}|${key}`,
          match.node,
          resolved.base,
          `${resolved.pointer}/oneOf/${match.index}`,
        );
    });
    for (const key of schemaVariants.keys()) if (!seen.has(key)) this.add(at, 'variant-extra', key);
  }
}

/** Which schema stands for which body of the spec's operations. */
export const ROOTS: Record<SchemaName, (spec: SpecFacts) => string | null> = {
  'submit-request': (s) => s.operations.submitTree.request,
  'submit-response': (s) => s.operations.submitTree.success,
  'canton-error': (s) => s.operations.submitTree.error,
  'vetting-list-request': (s) => s.operations.vettingList.request,
  'vetting-list-response': (s) => s.operations.vettingList.success,
  'version-response': (s) => s.operations.version.success,
};

/** Every difference between the given schema documents and one spec file. */
export function compareAll(spec: SpecFacts, schemas: readonly SchemaDoc[]): Difference[] {
  const comparer = new SchemaComparer(spec, schemas);
  for (const [name, root] of Object.entries(ROOTS) as [SchemaName, (s: SpecFacts) => string | null][]) {
    const component = root(spec);
    if (component === null) throw new Error(`spec ${spec.cantonVersion} has no body for ${name}`);
    comparer.compareRoot(component, SCHEMA_IDS[name]);
  }
  return comparer.result();
}

/** Which operation of the description each schema stands for a body of. */
const ROOT_OF: Record<SchemaName, [keyof DescriptionFacts['operations'], 'request' | 'success' | 'error']> = {
  'submit-request': ['submitTree', 'request'],
  'submit-response': ['submitTree', 'success'],
  'canton-error': ['submitTree', 'error'],
  'vetting-list-request': ['vettingList', 'request'],
  'vetting-list-response': ['vettingList', 'success'],
  'version-response': ['version', 'success'],
};

/** Every difference between the schemas and a participant's description; bodies it does not describe are skipped. */
export function compareDescription(desc: DescriptionFacts, schemas: readonly SchemaDoc[]): Difference[] {
  const comparer = new SchemaComparer(desc, schemas);
  for (const [name, [key, body]] of Object.entries(ROOT_OF) as [SchemaName, (typeof ROOT_OF)[SchemaName]][]) {
    const component = desc.operations[key]?.[body];
    if (typeof component === 'string' && desc.components[component] !== undefined)
      comparer.compareRoot(component, SCHEMA_IDS[name]);
  }
  return comparer.result();
}
