// Which spec files hold the tests of which rules, from Playwright's own listing of the suite (read once).
import { execFile } from 'node:child_process';
import { relative } from 'node:path';
import { promisify } from 'node:util';
import { ruleIdOfTitle } from '../../rules/catalogue';
import { playwrightCommand } from '../run/playwright-cli';

interface ListedSuite {
  title: string;
  file: string;
  specs?: { title: string; file: string }[];
  suites?: ListedSuite[];
}

/** rule id → the spec files (relative to the root) whose test titles start with it. */
export type RuleFiles = ReadonlyMap<string, ReadonlySet<string>>;

let cache: Promise<RuleFiles> | undefined;

/**
 * The listing's environment: no participant needed (an unreachable default), and none of Playwright's
 * PLAYWRIGHT_JSON_OUTPUT_* variables — set by a CI job for its own JSON report, they send the listing to a
 * file, and stdout (read here) comes back empty.
 */
export function listingEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  const out: NodeJS.ProcessEnv = { ...env, LEDGER_BASE_URL: env.LEDGER_BASE_URL || 'http://127.0.0.1:9' };
  for (const k of ['FILE', 'DIR', 'NAME']) delete out[`PLAYWRIGHT_JSON_OUTPUT_${k}`];
  return out;
}

/**
 * rule id → the spec files (relative to root) whose test titles start with it: Playwright's listing, in `env`,
 * made once per process (whoever asks first; its callers in one process share it).
 */
export function ruleFiles(root: string, env: NodeJS.ProcessEnv = process.env): Promise<RuleFiles> {
  // A failed listing is not kept: the next caller lists again.
  cache ??= listRuleFiles(root, env).catch((e: unknown) => {
    cache = undefined;
    throw e;
  });
  return cache;
}

async function listRuleFiles(root: string, env: NodeJS.ProcessEnv): Promise<RuleFiles> {
  const { stdout: out } = await promisify(execFile)(
    process.execPath,
    playwrightCommand('test', '--list', '--reporter=json'),
    { cwd: root, env: listingEnv(env), maxBuffer: 64 * 1024 * 1024 },
  );
  const listing = JSON.parse(out.slice(out.indexOf('{'))) as {
    suites: ListedSuite[];
    config: { rootDir: string };
  };
  const map = new Map<string, Set<string>>();
  const visit = (suite: ListedSuite) => {
    for (const spec of suite.specs ?? []) {
      const id = ruleIdOfTitle(spec.title);
      if (!id) continue;
      if (!map.has(id)) map.set(id, new Set());
      map.get(id)!.add(relative(root, `${listing.config.rootDir}/${spec.file}`));
    }
    for (const child of suite.suites ?? []) visit(child);
  };
  listing.suites.forEach(visit);
  return map;
}

/** The spec files holding `rules`; empty (= the whole suite) when no rule is given or none is found. */
export function specsForRules(files: RuleFiles, rules: readonly string[]): string[] {
  return [...new Set(rules.flatMap((r) => [...(files.get(r) ?? [])]))].sort();
}
