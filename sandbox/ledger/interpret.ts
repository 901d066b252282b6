// Interpretation: runs the commands against a staged view of the contract set and produces the transaction's
// nodes in Daml-LF order (pre-order: an exercise's node id precedes its children's), or throws the first Daml
// error. Nothing touches the store here, so a failure in command 2 leaves no trace of command 1: the ledger
// applies the draft only after every check passed.
import type { Contract, ContractStore } from './contracts';
import type { Transcoded } from './json-layer';
import { authorizationError, contractNotActive, contractNotFound } from './ledger-errors';
import { sortedUnique, stakeholders, templateIdOf, type Choice, type Template } from './templates';
import type { RecordValue } from './values';

export interface CreatedNode {
  kind: 'created';
  nodeId: number;
  contract: Contract;
  /** Every informee of the node and its ancestors (filtered to the requesting parties when rendered). */
  witnesses: string[];
}

export interface ExercisedNode {
  kind: 'exercised';
  nodeId: number;
  contract: Contract;
  choice: Choice;
  choiceArg: RecordValue;
  actingParties: string[];
  witnesses: string[];
  lastDescendantNodeId: number;
  result: unknown;
}

export type TxNode = CreatedNode | ExercisedNode;

export interface Draft {
  nodes: TxNode[];
  /** Contracts created and still active at the end of the transaction. */
  created: Contract[];
  /** Pre-existing contracts the transaction consumed. */
  archived: string[];
  /** Contract ids created and consumed within the transaction. */
  transient: ReadonlySet<string>;
}

class Interpreter {
  readonly nodes: TxNode[] = [];
  private readonly local = new Map<string, Contract>();
  private readonly consumed = new Set<string>();
  private readonly readers: ReadonlySet<string>;

  constructor(
    private readonly store: ContractStore,
    private readonly actAs: readonly string[],
    readAs: readonly string[],
    private readonly effectiveAt: number,
    private readonly newContractId: () => string,
  ) {
    this.readers = new Set([...actAs, ...readAs]);
  }

  create(
    template: Template,
    args: RecordValue,
    authorizers: readonly string[],
    ancestors: readonly string[],
  ): Contract {
    const nodeId = this.nodes.length;
    const signatories = sortedUnique(template.signatories(args));
    if (signatories.some((p) => !authorizers.includes(p))) {
      throw authorizationError(
        nodeId,
        templateIdOf(template),
        'authorizers',
        signatories,
        sortedUnique([...authorizers]),
      );
    }
    const observers = template.observers(args);
    const contract: Contract = {
      contractId: this.newContractId(),
      template,
      args,
      signatories,
      observers,
      stakeholders: stakeholders(template, args),
      createdAt: this.effectiveAt,
    };
    this.nodes.push({
      kind: 'created',
      nodeId,
      contract,
      witnesses: sortedUnique([...contract.stakeholders, ...ancestors]),
    });
    this.local.set(contract.contractId, contract);
    return contract;
  }

  /** The contract an ExerciseCommand names: active, and visible to actAs ∪ readAs. */
  fetch(contractId: string, template: Template): Contract {
    if (this.consumed.has(contractId)) throw contractNotActive(contractId, templateIdOf(template));
    const local = this.local.get(contractId);
    if (local) return local;
    const stored = this.store.get(contractId);
    if (!stored || !stored.stakeholders.some((p) => this.readers.has(p))) throw contractNotFound(contractId);
    return stored;
  }

  exercise(
    contract: Contract,
    choice: Choice,
    choiceArg: RecordValue,
    authorizers: readonly string[],
    ancestors: readonly string[],
  ): void {
    const nodeId = this.nodes.length;
    const templateId = templateIdOf(contract.template);
    const controllers = sortedUnique(choice.controllers(contract.args, choiceArg));
    if (controllers.some((p) => !authorizers.includes(p))) {
      throw authorizationError(
        nodeId,
        templateId,
        'controllers',
        controllers,
        sortedUnique([...authorizers]),
      );
    }
    const informees = choice.consuming
      ? [...contract.stakeholders, ...controllers]
      : [...contract.signatories, ...controllers];
    const witnesses = sortedUnique([...informees, ...ancestors]);
    const node: ExercisedNode = {
      kind: 'exercised',
      nodeId,
      contract,
      choice,
      choiceArg,
      actingParties: controllers,
      witnesses,
      lastDescendantNodeId: nodeId,
      result: undefined,
    };
    this.nodes.push(node);
    // A consuming choice archives its contract before the body runs (the body cannot use it again).
    if (choice.consuming) this.consumed.add(contract.contractId);
    const bodyAuthorizers = sortedUnique([...contract.signatories, ...controllers]);
    node.result = choice.body(
      { create: (t, a) => this.create(t, a, bodyAuthorizers, witnesses).contractId },
      contract.args,
      choiceArg,
    );
    node.lastDescendantNodeId = this.nodes.length - 1;
  }

  run(commands: readonly Transcoded[]): void {
    for (const cmd of commands) {
      switch (cmd.kind) {
        case 'create':
          this.create(cmd.template, cmd.args, this.actAs, []);
          break;
        case 'exercise':
          this.exercise(this.fetch(cmd.contractId, cmd.template), cmd.choice, cmd.choiceArg, this.actAs, []);
          break;
        case 'createAndExercise': {
          const contract = this.create(cmd.template, cmd.args, this.actAs, []);
          this.exercise(contract, cmd.choice, cmd.choiceArg, this.actAs, []);
          break;
        }
      }
    }
  }

  draft(): Draft {
    const transient = new Set<string>();
    const created: Contract[] = [];
    for (const c of this.local.values()) {
      if (this.consumed.has(c.contractId)) transient.add(c.contractId);
      else created.push(c);
    }
    const archived = [...this.consumed].filter((id) => !this.local.has(id));
    return { nodes: this.nodes, created, archived, transient };
  }
}

export function interpret(
  commands: readonly Transcoded[],
  store: ContractStore,
  submitters: { actAs: readonly string[]; readAs: readonly string[] },
  effectiveAt: number,
  newContractId: () => string,
): Draft {
  const interpreter = new Interpreter(store, submitters.actAs, submitters.readAs, effectiveAt, newContractId);
  interpreter.run(commands);
  return interpreter.draft();
}
