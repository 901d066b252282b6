import { expect, test } from '../support/test';
import { claim } from '../support/claim';
import { buildApp } from '../../sandbox/app';
import { loadConfig } from '../../sandbox/config';
import { FAULTS } from '../../sandbox/faults/catalogue';
import { faultBanner, resolveFaults, UnknownFaultError } from '../../sandbox/faults/install';
import { RULES } from '../../rules/catalogue';

const app = (faults: string) => buildApp(loadConfig({ SANDBOX_FAULTS: faults }));

test.describe('sandbox faults', () => {
  // That every rule a fault declares is catalogued is the type check's (scripts/mutation/run-mutation.ts).
  test('the catalogue is well formed: unique kebab-case names, declared rules, a way to deviate', () => {
    const names = FAULTS.map((f) => f.name);
    expect(new Set(names).size).toBe(names.length);
    for (const f of FAULTS) {
      claim(f.name).toMatch(/^[a-z0-9]+(-[a-z0-9]+)+$/);
      claim(f.breaks.length, f.name).toBeGreaterThan(10);
      if (f.kind === 'conformance')
        claim(f.rules.length, `${f.name} declares its catching rules`).toBeGreaterThan(0);
    }
  });

  test('every catalogued rule is declared by a conformance fault, so the fault run proves it can fail', () => {
    // The fault run (selftest/mutation/mutation.test.ts) shows each fault killed by a rule it declares: a
    // rule no fault declares is one nothing shows able to fail.
    const declared = new Set<string>(FAULTS.filter((f) => f.kind === 'conformance').flatMap((f) => f.rules));
    const unproven = RULES.map((r) => r.id).filter((id) => !declared.has(id));
    expect(
      unproven,
      'rules no fault of sandbox/faults/ declares (add one that breaks exactly that rule)',
    ).toEqual([]);
  });

  test('an unknown fault name stops the sandbox with the list of known ones', async () => {
    await expect(app('no-such-fault')).rejects.toThrow(UnknownFaultError);
    await expect(app('no-such-fault')).rejects.toThrow(
      /SANDBOX_FAULTS names an unknown fault "no-such-fault"/,
    );
  });

  test('no fault is on by default, and an enabled one is announced', async () => {
    const clean = await app('');
    const res = await clean.inject({ method: 'GET', url: '/v2/version' });
    expect(res.statusCode).toBe(200);
    await clean.close();
    expect(faultBanner(resolveFaults(['transport-unavailable']))).toMatch(
      /SANDBOX FAULTS ENABLED[\s\S]*transport-unavailable/,
    );
  });

  test('a transport fault misbehaves as declared: from the twentieth call, an outage of 503s', async () => {
    const faulty = await app('transport-unavailable');
    const statuses: number[] = [];
    for (let i = 0; i < 25; i++)
      statuses.push((await faulty.inject({ method: 'GET', url: '/v2/version' })).statusCode);
    // The outage lasts seconds: every call after the twentieth, made at once, falls in it.
    expect(statuses).toEqual([...Array<number>(19).fill(200), ...Array<number>(6).fill(503)]);
    await faulty.close();
  });
});
