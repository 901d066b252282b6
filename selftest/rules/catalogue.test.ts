import { expect, test } from '../support/test';
import { RULES, ruleById, ruleIdOfTitle } from '../../rules/catalogue';
import { BUILTIN_BASELINES, appliesTo, entriesFor, loadLayers } from '../../rules/expectations';

test.describe('rule catalogue hygiene', () => {
  test('ids are unique and well formed, with a known group prefix', () => {
    const ids = RULES.map((r) => r.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of ids) expect(id).toMatch(/^(VER|VET|SUB|AUTH|GEN)(-[A-Z0-9]+)+$/);
  });

  test('every rule names its clause, level and a read/write tag', () => {
    for (const r of RULES) {
      expect(r.clause.section, r.id).not.toBe('');
      expect(r.clause.text.length, r.id).toBeGreaterThan(10);
      expect(['interface', 'canton'], r.id).toContain(r.level);
      expect(
        r.tags.includes('@readonly') !== r.tags.includes('@writes'),
        `${r.id} is either @readonly or @writes`,
      ).toBe(true);
    }
  });

  test('a canton-level rule says what Canton does where the document is silent', () => {
    for (const r of RULES.filter((x) => x.level === 'canton')) expect(r.clause.text, r.id).toMatch(/Canton/);
  });

  test('a title yields its rule id, and only a catalogued one resolves', () => {
    expect(ruleIdOfTitle('VET-PAGE-ORDER entries are sorted')).toBe('VET-PAGE-ORDER');
    expect(ruleIdOfTitle('SUB-TREE-REMOVED-3-5 x')).toBe('SUB-TREE-REMOVED-3-5');
    expect(ruleIdOfTitle('entries are sorted')).toBeUndefined();
    expect(ruleById('VET-NOPE')).toBeUndefined();
  });

  test('the Canton baseline names catalogued rules, each with a reason', () => {
    for (const d of BUILTIN_BASELINES.canton!.deviations) {
      expect(ruleById(d.rule), d.rule).toBeDefined();
      expect(d.reason.length).toBeGreaterThan(20);
    }
  });

  test('deviations apply by version, snapshots as their release', () => {
    const canton = loadLayers('canton', undefined);
    const tree = (version: string) =>
      entriesFor(canton, 'SUB-TREE-REMOVED-3-5', 'SUB-TREE-REMOVED-3-5 t', version).active;
    expect(tree('3.4.11')).toBeUndefined();
    expect(tree('3.5.0')).toBeDefined();
    expect(tree('3.5.10-SNAPSHOT')).toBeDefined();
    expect(appliesTo({ rule: 'X', expect: 'fail', reason: 'r', versions: { below: '3.5.0' } }, '3.5.0')).toBe(
      false,
    );
    expect(
      appliesTo({ rule: 'X', expect: 'fail', reason: 'r', versions: { below: '3.5.0' } }, '3.4.99'),
    ).toBe(true);
  });
});
