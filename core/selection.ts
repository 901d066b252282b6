// This run's selection by tag or rule id prefix, from LEDGER_TAGS (read and validated in core/settings.ts) and
// the command line, which only the runner's main process sees: it hands what it read to the workers through the
// run context, so every process builds the same suite. The selecting itself is rules/selection.ts'.
import { EXIT } from './exit-codes';
import { handOff, runContext } from './run-context';
import { SettingsError, tagsSetting } from './settings';
import {
  cliSelection,
  grepOfRuleIds,
  selectionOf,
  SelectionError,
  type CliSelection,
  type ConfigSelection,
} from '../rules/selection';
import { RULES } from '../rules/catalogue';
import type { Rule, Tag } from '../rules/types';

type Env = Record<string, string | undefined>;

function selection(env: Env, argv: readonly string[]): { rules: Rule[]; required: Tag[] } | undefined {
  const fromEnv = tagsSetting(env);
  let cli = cliSelection(argv);
  if (cli.tags || cli.prefix) handOff({ cliTagSelection: JSON.stringify(cli) }, env);
  else {
    const handed = runContext(env).cliTagSelection;
    if (handed) cli = JSON.parse(handed) as CliSelection;
  }
  return selectionOf(fromEnv, cli);
}

/** The config fragment for the selection of this run, from LEDGER_TAGS and the command line. */
export function tagSelection(
  env: Env = process.env,
  argv: readonly string[] = process.argv,
): ConfigSelection {
  const chosen = selection(env, argv);
  if (chosen === undefined) return {};
  return {
    grep: grepOfRuleIds(chosen.rules.map((r) => r.id)),
    ...(chosen.required.length > 0 ? { tag: [...chosen.required] } : {}),
  };
}

/** The rules this run selects by tag or id prefix (the whole catalogue without such a selection). */
export function selectedRules(env: Env = process.env, argv: readonly string[] = process.argv): Rule[] {
  return selection(env, argv)?.rules ?? [...RULES];
}

/**
 * Whether the run may create something on the target: a rule tagged @writes among those selected. Any other
 * --grep (a regular expression of Playwright's) is taken as the whole catalogue.
 */
export function selectionWrites(env: Env = process.env, argv: readonly string[] = process.argv): boolean {
  return selectedRules(env, argv).some((r) => r.tags.includes('@writes'));
}

/** tagSelection, or print the message and stop the process (a wrong setting's exit code). */
export function tagSelectionOrExit(): ConfigSelection {
  try {
    return tagSelection();
  } catch (e) {
    if (!(e instanceof SelectionError) && !(e instanceof SettingsError)) throw e;
    process.stderr.write(`ledger-conformance: ${e.message}\n`);
    process.exit(EXIT.badSetting);
  }
}
