// Selecting tests by the catalogue's tags. Playwright's `--grep @readonly` only sees tags declared on tests,
// and the specs do not repeat the catalogue's tags; so playwright.config.ts turns a tag selection into a
// grep of the rule ids that carry the tags, read from the catalogue (core/selection.ts reads the setting and
// the command line; this module only selects):
//
//   LEDGER_TAGS=@readonly            rules tagged @readonly
//   LEDGER_TAGS=@auth,@readonly      rules tagged with both
//   LEDGER_TAGS=!@slow               rules not tagged @slow (also -@slow)
//   --grep @readonly                 the same as LEDGER_TAGS=@readonly (one tag)
//   --grep-invert @writes            rules not tagged @writes (one tag)
//
//   --grep VET-                      the VET- rules (a group, or any id prefix: --grep VET-PAGE-SIZE)
//
// Playwright matches --grep case-insensitively anywhere in the file, describe and test titles; for an id
// prefix of a known group the config adds the exact, case-sensitive match on the titles' leading rule id,
// so `--grep SUB-` never picks a test that merely says "sub-…". Any other --grep is Playwright's own.
// A selection naming an unknown tag, or matching no rule, stops the run (a filter that selects nothing
// must never pass).
import { RULES } from './catalogue';
import type { Rule, Tag } from './types';

/** The setting a tag filter comes from, for its messages (core/settings.ts reads it). */
export const TAGS_ENV = 'LEDGER_TAGS';

export const KNOWN_TAGS: readonly Tag[] = [
  '@readonly',
  '@writes',
  '@auth',
  '@slow',
  '@sandbox-only',
  '@flagship',
];

export class SelectionError extends Error {}

export interface TagFilter {
  required: Tag[];
  excluded: Tag[];
}

const TAG_TOKEN = /^(!|-)?(@[\w-]+)$/;

function asTag(raw: string, source: string): Tag {
  if (!(KNOWN_TAGS as readonly string[]).includes(raw)) {
    throw new SelectionError(
      `${source}: unknown tag ${raw}; the catalogue's tags are ${KNOWN_TAGS.join(', ')}`,
    );
  }
  return raw as Tag;
}

/** `@a,@b !@c` → required [@a, @b], excluded [@c]. Empty → undefined (no tag selection). */
export function parseTagFilter(setting: string | undefined, source = TAGS_ENV): TagFilter | undefined {
  const tokens = (setting ?? '').split(/[\s,]+/).filter((t) => t !== '');
  if (tokens.length === 0) return undefined;
  const filter: TagFilter = { required: [], excluded: [] };
  for (const token of tokens) {
    const m = TAG_TOKEN.exec(token);
    if (!m)
      throw new SelectionError(`${source}="${setting}": "${token}" is not a tag like @readonly or !@slow`);
    (m[1] ? filter.excluded : filter.required).push(asTag(m[2]!, source));
  }
  return filter;
}

/** The value of `--grep`/`-g` (or `--grep-invert`) on a Playwright command line, if given. */
function option(argv: readonly string[], names: readonly string[]): string | undefined {
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i]!;
    for (const name of names) {
      if (arg === name) return argv[i + 1];
      if (arg.startsWith(`${name}=`)) return arg.slice(name.length + 1);
    }
  }
  return undefined;
}

/**
 * The tag selection a Playwright command line asks for: `--grep @tag` or `--grep-invert @tag` with exactly
 * one tag. Anything else (an id prefix, a regular expression) is not a tag selection.
 */
export function cliTagFilter(argv: readonly string[]): TagFilter | undefined {
  const grep = option(argv, ['--grep', '-g']);
  const invert = option(argv, ['--grep-invert']);
  const single = (v: string | undefined) => (v !== undefined && /^@[\w-]+$/.test(v) ? v : undefined);
  const required = single(grep);
  const excluded = single(invert);
  if (required === undefined && excluded === undefined) return undefined;
  return {
    required: required ? [asTag(required, `--grep ${required}`)] : [],
    excluded: excluded ? [asTag(excluded, `--grep-invert ${excluded}`)] : [],
  };
}

/** A rule id or id prefix of a known group given as `--grep` (`VET-`, `AUTH-NO-HEADER`), if any. */
export function cliIdPrefix(argv: readonly string[]): string | undefined {
  const grep = option(argv, ['--grep', '-g']);
  return grep !== undefined && /^(?:VER|VET|SUB|AUTH|GEN)-(?:[A-Z0-9]+-?)*$/.test(grep) ? grep : undefined;
}

export function rulesMatching(filter: TagFilter, rules: readonly Rule[] = RULES): Rule[] {
  return rules.filter(
    (r) =>
      filter.required.every((t) => r.tags.includes(t)) && !filter.excluded.some((t) => r.tags.includes(t)),
  );
}

/** Matches a test whose title (anywhere in Playwright's grep title) starts with one of these rule ids. */
export function grepOfRuleIds(ids: readonly string[]): RegExp {
  return new RegExp(`(?:^|\\s)(?:${ids.join('|')})(?=\\s|$)`);
}

export interface ConfigSelection {
  grep?: RegExp;
  /** Added to every selected test so a command-line `--grep @tag` (which Playwright applies too) matches. */
  tag?: string[];
}

export interface CliSelection {
  tags?: TagFilter;
  prefix?: string;
}

/** The command line's selection: its tags (`--grep @tag`) and its id prefix (`--grep VET-`). */
export const cliSelection = (argv: readonly string[]): CliSelection => ({
  tags: cliTagFilter(argv),
  prefix: cliIdPrefix(argv),
});

/**
 * The rules selected by tag or id prefix, from LEDGER_TAGS' filter and the command line's selection
 * (undefined: no such selection). core/selection.ts reads both and hands the command line's to the workers.
 */
export function selectionOf(
  fromEnv: TagFilter | undefined,
  cli: CliSelection,
): { rules: Rule[]; required: Tag[] } | undefined {
  if (!fromEnv && !cli.tags && !cli.prefix) return undefined;
  const filter: TagFilter = {
    required: [...(fromEnv?.required ?? []), ...(cli.tags?.required ?? [])],
    excluded: [...(fromEnv?.excluded ?? []), ...(cli.tags?.excluded ?? [])],
  };
  const rules = rulesMatching(filter).filter((r) => cli.prefix === undefined || r.id.startsWith(cli.prefix));
  if (rules.length === 0) {
    const what = [
      ...filter.required,
      ...filter.excluded.map((t) => `!${t}`),
      ...(cli.prefix ? [`ids ${cli.prefix}…`] : []),
    ].join(', ');
    throw new SelectionError(`the selection ${what} matches no rule of the catalogue: nothing would run`);
  }
  return { rules, required: cli.tags?.required ?? [] };
}
