// Stages 3–4 of Canton's check order, which run in the JSON layer before any authorization
// (TranscodePackageIdResolver, then the JSON → proto transcoding of Daml arguments against the package):
// actAs presence and actAs[0] syntax, package references, `#name` resolution, template and choice lookup,
// and the decoding of createArguments / choiceArgument. A caller with a bad token therefore still gets these
// 4xx answers first, as from Canton.
import type { SandboxConfig } from '../config';
import { cantonError, invalidArgument, invalidField, missingField, type CantonError } from '../errors';
import { nameError, packageIdError, packageRefError, partyError, uniqueIdentifierError } from '../ids';
import { BUILTIN_PACKAGES } from '../vetting/builtin-package';
import type { JsCommand, JsCommands, TemplateRef } from './decode-commands';
import { TEMPLATES, type Choice, type Template } from './templates';
import { decodeRecord, jsonLayerInvalid, type RecordValue } from './values';

/** Is the participant connected to this synchronizer (and so has the built-in package vetted there)? */
export type Connected = (synchronizerId: string) => boolean;

/** A command whose template, choice and arguments are resolved against the package. */
export type Transcoded =
  | { kind: 'create'; template: Template; args: RecordValue }
  | { kind: 'exercise'; template: Template; contractId: string; choice: Choice; choiceArg: RecordValue }
  | {
      kind: 'createAndExercise';
      template: Template;
      args: RecordValue;
      choice: Choice;
      choiceArg: RecordValue;
    };

const packageSelectionFailed = (cause: string): CantonError =>
  cantonError('JSON_API_PACKAGE_SELECTION_FAILED', 'InvalidGivenCurrentSystemStateOther', cause);

const templatesNotFound = (id: string): CantonError =>
  cantonError(
    'TEMPLATES_OR_INTERFACES_NOT_FOUND',
    'InvalidGivenCurrentSystemStateResourceMissing',
    `Templates do not exist: [${id}].`,
  );

/** The package id a `#name` reference resolves to: only the built-in packages are known. */
const packageIdByName = (ref: string): string | undefined =>
  BUILTIN_PACKAGES.find((p) => `#${p.packageName}` === ref)?.packageId;

/** Resolve the `#name` references of the commands to package ids (only the built-in packages are known). */
function resolvePackageNames(cmds: JsCommands, connected: Connected): Map<string, string> {
  const names = new Set(cmds.commands.map((c) => c.templateId.packageRef).filter((r) => r.startsWith('#')));
  const resolved = new Map<string, string>();
  if (names.size === 0) return resolved;
  for (const pref of cmds.packageIdSelectionPreference) {
    if (!BUILTIN_PACKAGES.some((p) => p.packageId === pref))
      throw packageSelectionFailed(`Package-id ${pref} not known`);
  }
  if (cmds.synchronizerId !== '') {
    const err = uniqueIdentifierError(cmds.synchronizerId);
    if (err !== undefined) throw invalidField('synchronizer_id', err);
    if (!connected(cmds.synchronizerId)) {
      // Not confirmed from the source, and not asserted by the harness: Canton's topology-aware resolver finds no vetting on an unknown synchronizer.
      throw packageSelectionFailed(
        `No synchronizer satisfies the vetting requirements: synchronizer ${cmds.synchronizerId} is not connected`,
      );
    }
  }
  for (const ref of names) {
    const packageId = packageIdByName(ref);
    if (packageId === undefined) {
      throw packageSelectionFailed(
        `No package with package-name '${ref.slice(1)}' is vetted by party ${cmds.actAs[0] ?? ''}`,
      );
    }
    resolved.set(ref, packageId);
  }
  return resolved;
}

/** Canton builds the "not found" error with assertFromString on module and entity: bad names throw first. */
function lookupTemplate(ref: TemplateRef, packageId: string): Template {
  const template = TEMPLATES.get(`${packageId}:${ref.module}:${ref.entity}`);
  if (template) return template;
  for (const segment of [...ref.module.split('.'), ...ref.entity.split('.')]) {
    const err = nameError(segment);
    if (err !== undefined) throw jsonLayerInvalid(err); // assertFromString's IllegalArgumentException
  }
  throw templatesNotFound(`${packageId}:${ref.module}:${ref.entity}`);
}

function lookupChoice(template: Template, packageId: string, name: string): Choice {
  const choice = template.choices.get(name);
  if (!choice)
    throw invalidArgument(
      `Invalid template:${packageId}:${template.module}:${template.entity} or choice:${name}`,
    );
  return choice;
}

function transcode(cmd: JsCommand, packageId: string): Transcoded {
  const template = lookupTemplate(cmd.templateId, packageId);
  switch (cmd.kind) {
    case 'CreateCommand':
      return { kind: 'create', template, args: decodeRecord(template.argType, cmd.createArguments, false) };
    case 'ExerciseCommand': {
      const choice = lookupChoice(template, packageId, cmd.choice);
      const choiceArg = decodeRecord(choice.argType, cmd.choiceArgument, true);
      return { kind: 'exercise', template, contractId: cmd.contractId, choice, choiceArg };
    }
    case 'CreateAndExerciseCommand': {
      const args = decodeRecord(template.argType, cmd.createArguments, false);
      const choice = lookupChoice(template, packageId, cmd.choice);
      const choiceArg = decodeRecord(choice.argType, cmd.choiceArgument, true);
      return { kind: 'createAndExercise', template, args, choice, choiceArg };
    }
    case 'ExerciseByKeyCommand':
      // The contract key is transcoded against the template's key type; no built-in template has a key.
      throw templatesNotFound(`${packageId}:${template.module}:${template.entity}`);
  }
}

/** Runs the JSON-layer checks in Canton's order and returns the transcoded commands. */
export function jsonLayer(
  cmds: JsCommands,
  config: SandboxConfig,
  connected: Connected = (id) => id === config.synchronizerId,
): Transcoded[] {
  const submitter = cmds.actAs[0];
  if (submitter === undefined) throw missingField('act_as/actAs');
  const partyErr = partyError(submitter);
  if (partyErr !== undefined) throw invalidArgument(`Invalid party in actAs/act_as: ${partyErr}`);
  for (const pref of cmds.packageIdSelectionPreference) {
    const err = packageIdError(pref);
    if (err !== undefined) throw invalidArgument(`packageIdSelectionPreferences: ${err}`);
  }
  for (const cmd of cmds.commands) {
    const err = packageRefError(cmd.templateId.packageRef);
    if (err !== undefined)
      throw invalidArgument(`Value does not match the package-id or package-name formats: ${err}`);
  }
  const names = resolvePackageNames(cmds, connected);
  const resolve = (ref: TemplateRef): string => names.get(ref.packageRef) ?? ref.packageRef;
  const out = cmds.commands.map((cmd) => transcode(cmd, resolve(cmd.templateId)));
  for (const key of cmds.prefetchContractKeys) {
    const ref = key.templateId;
    const packageId = packageIdByName(ref.packageRef) ?? ref.packageRef;
    const template = lookupTemplate(ref, packageId);
    throw templatesNotFound(`${packageId}:${template.module}:${template.entity}`);
  }
  return out;
}
