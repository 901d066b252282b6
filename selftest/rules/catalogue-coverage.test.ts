// The suite against its catalogue: every catalogued rule has a test, every test names a catalogued rule,
// and the selections users run by (tags, id prefixes) pick exactly what they say — or fail the run when
// they pick nothing. Lists the conformance suite with Playwright itself (`--list`, no target needed).
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { expect, test } from '../support/test';
import { specsIn } from '../support/json-report';
import { RULES, ruleById, ruleIdOfTitle, type Tag } from '../../rules/catalogue';
import { cliIdPrefix, cliTagFilter, grepOfRuleIds, parseTagFilter } from '../../rules/selection';
import { tagSelection } from '../../core/selection';
import { playwrightCommand } from '../../scripts/run/playwright-cli';

const ROOT = resolve(__dirname, '..', '..');

interface Listing {
  status: number;
  stderr: string;
  titles: string[];
}

const listings = new Map<string, Listing>();

/**
 * `playwright test --list` of the conformance config, with these arguments and settings; each listing once per
 * worker (a listing is a whole Playwright start).
 */
function list(args: string[] = [], env: Record<string, string | undefined> = {}): Listing {
  const key = JSON.stringify([args, env]);
  const known = listings.get(key);
  if (known) return known;
  const listing = listNow(args, env);
  listings.set(key, listing);
  return listing;
}

function listNow(args: string[], env: Record<string, string | undefined>): Listing {
  const dir = mkdtempSync(join(tmpdir(), 'coverage-'));
  const output = join(dir, 'list.json');
  try {
    const run = spawnSync(
      process.execPath,
      playwrightCommand('test', '-c', 'playwright.config.ts', '--list', '--reporter=json', ...args),
      {
        cwd: ROOT,
        encoding: 'utf8',
        timeout: 120_000,
        env: {
          ...process.env,
          LEDGER_TAGS: undefined,
          LEDGER_CLI_TAG_SELECTION: undefined,
          PLAYWRIGHT_JSON_OUTPUT_NAME: output,
          ...env,
        },
      },
    );
    let titles: string[] = [];
    try {
      titles = specsIn(output).map((spec) => spec.title);
    } catch {
      titles = [];
    }
    return { status: run.status ?? 1, stderr: run.stderr, titles };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/** The unfiltered listing. */
const wholeSuite = (): Listing => list();

const idsOf = (titles: string[]): Set<string> => new Set(titles.map((t) => ruleIdOfTitle(t) ?? t));
const taggedIds = (tag: Tag): string[] => RULES.filter((r) => r.tags.includes(tag)).map((r) => r.id);

// One worker for the file, so each listing is made once (the other worker runs other files meanwhile).
test.describe.configure({ mode: 'default' });

test.describe('the suite covers its catalogue', () => {
  test('every test title starts with a catalogued rule id', () => {
    const { status, titles } = wholeSuite();
    expect(status, 'listing the suite').toBe(0);
    const strays = titles.filter((t) => ruleById(ruleIdOfTitle(t) ?? '') === undefined);
    expect(strays, 'tests whose title names no catalogued rule').toEqual([]);
  });

  test('every catalogued rule has at least one test', () => {
    const { status, titles } = wholeSuite();
    expect(status, 'listing the suite').toBe(0);
    const tested = idsOf(titles);
    const missing = RULES.map((r) => r.id).filter((id) => !tested.has(id));
    expect(missing, 'catalogued rules without a test').toEqual([]);
  });

  test("every title is its rule's catalogue title, a case's detail after it", () => {
    const { titles } = wholeSuite();
    // forRule (fixtures/rule-test.ts) writes `${id} ${rule.title}`, a case adding ` — …` or `: …`.
    const off = titles.filter((t) => {
      const rule = ruleById(ruleIdOfTitle(t) ?? '');
      if (rule === undefined) return false; // the first test of this block names those
      const exact = `${rule.id} ${rule.title}`;
      return t !== exact && !t.startsWith(`${exact} — `) && !t.startsWith(`${exact}: `);
    });
    expect(
      off,
      'titles that differ from their rule in the catalogue (declare tests with test(...forRule(id)))',
    ).toEqual([]);
  });

  test('test titles are unique', () => {
    const { titles } = wholeSuite();
    const seen = new Set<string>();
    const twice = titles.filter((t) => (seen.has(t) ? true : (seen.add(t), false)));
    expect(twice, 'titles used by more than one test').toEqual([]);
  });
});

test.describe('selection', () => {
  const readonlyIds = taggedIds('@readonly');
  const all = () => wholeSuite().titles;

  test('LEDGER_TAGS=@readonly selects exactly the tests of @readonly rules', () => {
    const { status, titles } = list([], { LEDGER_TAGS: '@readonly' });
    expect(status).toBe(0);
    expect(titles.length).toBeGreaterThan(0);
    const expected = all().filter((t) => readonlyIds.includes(ruleIdOfTitle(t) ?? ''));
    expect(titles.sort()).toEqual(expected.sort());
  });

  test('--grep @readonly selects the same tests as LEDGER_TAGS=@readonly', () => {
    const viaGrep = list(['--grep', '@readonly']);
    const viaEnv = list([], { LEDGER_TAGS: '@readonly' });
    expect(viaGrep.status).toBe(0);
    expect(viaGrep.titles.length).toBeGreaterThan(0);
    for (const t of viaGrep.titles) expect(readonlyIds, t).toContain(ruleIdOfTitle(t));
    expect(viaGrep.titles.sort()).toEqual(viaEnv.titles.sort());
  });

  test('--grep-invert @writes and LEDGER_TAGS=!@writes leave out every @writes rule', () => {
    const writes = taggedIds('@writes');
    for (const run of [list(['--grep-invert', '@writes']), list([], { LEDGER_TAGS: '!@writes' })]) {
      expect(run.status).toBe(0);
      expect(run.titles.length).toBeGreaterThan(0);
      for (const t of run.titles) expect(writes, t).not.toContain(ruleIdOfTitle(t));
    }
  });

  test('--grep VET- selects exactly the tests of one group, by id', () => {
    const titles = all();
    // AUTH- is the telling group (VER-AUTH-REQUIRED has AUTH- inside its id); VER- is a plain one. Another plain
    // group would cost another listing (a Playwright start) to show nothing new.
    for (const group of ['VER-', 'AUTH-']) {
      const run = list(['--grep', group]);
      expect(run.status, group).toBe(0);
      expect(run.titles.sort(), group).toEqual(titles.filter((t) => t.startsWith(group)).sort());
    }
  });

  test('a selection that selects nothing fails the run', () => {
    for (const [args, env] of [
      [['--grep', 'NO-SUCH-RULE-ANYWHERE'], {}],
      [['--grep', 'VET-NO-SUCH-RULE'], {}],
      [[], { LEDGER_TAGS: '@no-such-tag' }],
      [[], { LEDGER_TAGS: '@readonly,@writes' }],
    ] as [string[], Record<string, string>][]) {
      const run = list(args, env);
      expect(run.status, `${args.join(' ')} ${JSON.stringify(env)} must fail`).not.toBe(0);
      expect(run.titles, `${args.join(' ')} ${JSON.stringify(env)} lists nothing`).toEqual([]);
    }
  });
});

test.describe('selection parsing', () => {
  test('tags, exclusions and unknown tags', () => {
    expect(parseTagFilter('@readonly, !@slow -@writes')).toEqual({
      required: ['@readonly'],
      excluded: ['@slow', '@writes'],
    });
    expect(parseTagFilter('  ')).toBeUndefined();
    expect(() => parseTagFilter('@nope')).toThrow(/unknown tag @nope/);
    expect(() => parseTagFilter('readonly')).toThrow(/not a tag/);
  });

  test('the command line: one tag, an id prefix, or nothing of ours', () => {
    expect(cliTagFilter(['x', '--grep', '@auth'])).toEqual({ required: ['@auth'], excluded: [] });
    expect(cliTagFilter(['-g', '@slow'])).toEqual({ required: ['@slow'], excluded: [] });
    expect(cliTagFilter(['--grep-invert=@writes'])).toEqual({ required: [], excluded: ['@writes'] });
    expect(cliTagFilter(['--grep', '@auth|@slow'])).toBeUndefined();
    expect(cliIdPrefix(['--grep', 'VET-'])).toBe('VET-');
    expect(cliIdPrefix(['--grep', 'SUB-DEDUP-PARALLEL'])).toBe('SUB-DEDUP-PARALLEL');
    expect(cliIdPrefix(['--grep', 'GET'])).toBeUndefined();
    expect(cliIdPrefix(['--grep', 'vet-'])).toBeUndefined();
  });

  test('the grep matches a title by its leading rule id only', () => {
    const re = grepOfRuleIds(['VER-AUTH-REQUIRED', 'SUB-SHAPE']);
    expect(re.test('tests/version.spec.ts GET /v2/version VER-AUTH-REQUIRED the version…')).toBe(true);
    expect(re.test('tests/a.spec.ts d SUB-SHAPE x')).toBe(true);
    expect(re.test('tests/a.spec.ts d SUB-SHAPE-CODE x')).toBe(false);
    expect(re.test('tests/a.spec.ts d XSUB-SHAPE x')).toBe(false);
  });

  test('the workers build the selection the main process read from its command line', () => {
    const env: Record<string, string | undefined> = {};
    const main = tagSelection(env, ['node', 'playwright', 'test', '--grep', '@readonly']);
    const worker = tagSelection(env, ['node', 'worker']);
    expect(worker).toEqual(main);
    expect(main.tag).toEqual(['@readonly']);
    expect(tagSelection({}, ['node'])).toEqual({});
  });
});
