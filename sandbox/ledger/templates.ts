// The built-in templates — `conformance-sandbox`'s Asset and Canton's admin-workflow Ping — written as data
// plus small bodies instead of Daml: their record types, signatories/observers, and choices (controllers,
// consuming or not, what the body creates and returns). Documented in README.md beside this file.
import { BUILTIN_PACKAGE, PING_PACKAGE, type BuiltinPackage } from '../vetting/builtin-package';
import type { RecordType, RecordValue } from './values';

/** What a choice body may do: create contracts (authorized by the exercise's authorizers). */
export interface ExerciseContext {
  create(template: Template, args: RecordValue): string;
}

export interface Choice {
  readonly name: string;
  readonly consuming: boolean;
  readonly argType: RecordType;
  /** The controllers, from the contract and (for a flexible controller such as AbortPing's) the argument. */
  controllers(contract: RecordValue, arg: RecordValue): string[];
  /** Runs the body; returns the exercise result as its JSON Ledger API value. */
  body(ctx: ExerciseContext, contract: RecordValue, arg: RecordValue): unknown;
}

export interface Template {
  /** The package the template belongs to (id, name and version as responses carry them). */
  readonly pkg: BuiltinPackage;
  readonly module: string;
  readonly entity: string;
  readonly argType: RecordType;
  signatories(args: RecordValue): string[];
  /** Observers never include signatories (Canton's CreatedEvent.observers). */
  observers(args: RecordValue): string[];
  readonly choices: ReadonlyMap<string, Choice>;
}

const sortedUnique = (parties: string[]): string[] => [...new Set(parties)].sort();
const minus = (parties: string[], remove: string[]): string[] => parties.filter((p) => !remove.includes(p));
const field = (r: RecordValue, name: string): string => r[name] ?? '';

const choices = (...list: Choice[]): ReadonlyMap<string, Choice> => new Map(list.map((c) => [c.name, c]));

/**
 * template Asset with issuer : Party; owner : Party; amount : Decimal; label : Text
 *   where signatory issuer; observer owner
 *   choice Transfer : ContractId Asset with newOwner : Party  controller owner  (consuming)
 *   choice Archive : ()                                         controller issuer (consuming)
 *   nonconsuming choice Inspect : Text                          controller owner
 */
export const Asset: Template = {
  pkg: BUILTIN_PACKAGE,
  module: 'Conformance',
  entity: 'Asset',
  argType: { issuer: 'party', owner: 'party', amount: 'numeric10', label: 'text' },
  signatories: (a) => [field(a, 'issuer')],
  observers: (a) => sortedUnique(minus([field(a, 'owner')], [field(a, 'issuer')])),
  choices: choices(
    {
      name: 'Transfer',
      consuming: true,
      argType: { newOwner: 'party' },
      controllers: (a) => [field(a, 'owner')],
      body: (ctx, a, arg) => ctx.create(Asset, { ...a, owner: field(arg, 'newOwner') }),
    },
    {
      name: 'Archive',
      consuming: true,
      argType: {},
      controllers: (a) => [field(a, 'issuer')],
      body: () => ({}),
    },
    {
      name: 'Inspect',
      consuming: false,
      argType: {},
      controllers: (a) => [field(a, 'owner')],
      body: (_ctx, a) => field(a, 'label'),
    },
  ),
};

/**
 * Canton's admin-workflow Ping (community/participant/src/main/daml/canton-builtin-admin-workflow-ping/
 * Canton/Internal/Ping.daml, identical in the 3.4.11 DAR):
 * template Ping with id : Text; initiator : Party; responder : Party
 *   where signatory initiator; observer responder
 *   choice Respond : ()                       controller responder (consuming)
 *   choice AbortPing : () with anyone : Party  controller anyone    (consuming)
 *   choice Archive : ()                       controller initiator (consuming; the compiler's, on every template)
 * A participant's PingService only reacts to pings of its admin party, so a user's ping is left alone.
 */
export const Ping: Template = {
  pkg: PING_PACKAGE,
  module: 'Canton.Internal.Ping',
  entity: 'Ping',
  argType: { id: 'text', initiator: 'party', responder: 'party' },
  signatories: (a) => [field(a, 'initiator')],
  observers: (a) => sortedUnique(minus([field(a, 'responder')], [field(a, 'initiator')])),
  choices: choices(
    {
      name: 'Respond',
      consuming: true,
      argType: {},
      controllers: (a) => [field(a, 'responder')],
      body: () => ({}),
    },
    {
      name: 'AbortPing',
      consuming: true,
      argType: { anyone: 'party' },
      controllers: (_a, arg) => [field(arg, 'anyone')],
      body: () => ({}),
    },
    {
      name: 'Archive',
      consuming: true,
      argType: {},
      controllers: (a) => [field(a, 'initiator')],
      body: () => ({}),
    },
  ),
};

/** The template id as responses carry it: `<packageId>:Module:Entity`. */
export const templateIdOf = (t: Template): string => `${t.pkg.packageId}:${t.module}:${t.entity}`;

/** Every built-in template by its full id `<packageId>:Module:Entity`. */
export const TEMPLATES: ReadonlyMap<string, Template> = new Map(
  [Asset, Ping].map((t) => [templateIdOf(t), t]),
);

export const stakeholders = (t: Template, args: RecordValue): string[] =>
  sortedUnique([...t.signatories(args), ...t.observers(args)]);
export { sortedUnique };
