// The sandbox as a live participant (in-process, fastify inject): vetting that changes while it runs — of
// Canton's kinds, never the configured participant's entries — the control route's unvetting, and serials that
// only grow across a leave and a return. That SANDBOX_VETTING_CHANGE_EVERY_REQUESTS changes the listing, so that
// the position-token fault (vet-token-position) is caught, is the fault run's (its profile `live`).
import { expect, test } from '../support/test';
import { loadConfig } from '../../sandbox/config';
import { churnOf } from '../../sandbox/vetting/churn';
import { generateTopology } from '../../sandbox/vetting/generate';
import { control, list, PARTICIPANT, sandbox, entryKey, type VettedPackages } from '../support/sandbox-kit';

test.describe('sandbox vetting: a live participant', () => {
  test('each change is one of Canton kinds, serials only grow, the configured participant stays as it was', () => {
    const config = loadConfig({ SANDBOX_SYNCHRONIZERS: '2', SANDBOX_PARTICIPANTS: '20' });
    const topology = generateTopology(config);
    const change = churnOf(topology, config);
    const snapshot = () =>
      new Map(
        topology
          .synchronizerIds()
          .flatMap((s) =>
            topology.entriesOf(s).map((e) => [`${s} ${e.participant.full}`, { ...e }] as const),
          ),
      );
    const mine = () =>
      topology
        .synchronizerIds()
        .map((s) => JSON.stringify(topology.entry(s, PARTICIPANT)?.packages))
        .join();
    const before = mine();
    const seen = new Set<string>();
    const serials = new Map<string, number>();
    for (let i = 0; i < 200; i++) {
      const was = snapshot();
      const kind = change();
      expect(kind).toBeDefined();
      seen.add(kind!);
      const now = snapshot();
      const differing = [...new Set([...was.keys(), ...now.keys()])].filter(
        (k) => was.get(k)?.serial !== now.get(k)?.serial || was.get(k)?.packages !== now.get(k)?.packages,
      );
      expect(differing, `change ${i} (${kind}) touches one entry`).toHaveLength(1);
      const k = differing[0]!;
      const entry = now.get(k);
      if (entry) {
        expect(entry.serial, `${k}: the serial only grows`).toBeGreaterThan(serials.get(k) ?? 0);
        expect(entry.packages.length, `${k} keeps a package`).toBeGreaterThan(0);
        serials.set(k, entry.serial);
      } else serials.set(k, was.get(k)!.serial);
      expect(Math.abs(topology.size - 40), 'the topology stays near its size').toBeLessThanOrEqual(1);
    }
    expect([...seen].sort()).toEqual(['join', 'leave', 'unvet', 'vet']);
    expect(mine(), "the configured participant's packages").toBe(before);
  });

  test('a rate of changes a second changes the listing while nobody asks', async () => {
    const app = await sandbox({ SANDBOX_VETTING_CHANGES_PER_SECOND: '200', SANDBOX_PARTICIPANTS: '10' });
    const first = JSON.stringify((await list(app, { pageSize: 100 })).vettedPackages);
    await expect
      .poll(async () => JSON.stringify((await list(app, { pageSize: 100 })).vettedPackages), {
        timeout: 10_000,
      })
      .not.toBe(first);
    await app.close();
  });

  test('a bad rate names the setting and the fix', () => {
    expect(() => loadConfig({ SANDBOX_VETTING_CHANGES_PER_SECOND: 'fast' })).toThrow(
      /SANDBOX_VETTING_CHANGES_PER_SECOND="fast" is not valid: set it to a number of changes a second/,
    );
    expect(() => loadConfig({ SANDBOX_VETTING_CHANGE_EVERY_REQUESTS: '-1' })).toThrow(
      /SANDBOX_VETTING_CHANGE_EVERY_REQUESTS="-1" is not valid/,
    );
  });

  test('the control route unvets and vets: serial + 1 each, the package gone and back; the last package and unknown entries refused', async () => {
    const app = await sandbox({ SANDBOX_CONTROL: 'true' });
    const entry = (await list(app, { pageSize: 100 })).vettedPackages.find((e) => e.packages.length > 1)!;
    const unvet = (packageIds: string[], participantId = entry.participantId) =>
      control(app, 'unvet', { synchronizerId: entry.synchronizerId, participantId, packageIds });
    const gone = entry.packages[0]!.packageId;
    const res = await unvet([gone]);
    expect(res.statusCode).toBe(200);
    const after = res.json<VettedPackages>();
    expect(after.topologySerial).toBe(entry.topologySerial + 1);
    expect(after.packages.map((p) => p.packageId)).not.toContain(gone);
    const listed = (await list(app, { pageSize: 100 })).vettedPackages.find(
      (e) => entryKey(e) === entryKey(entry),
    );
    expect(listed).toEqual(after);
    const all = await unvet(after.packages.map((p) => p.packageId));
    expect(all.statusCode).toBe(400);
    expect(all.json<{ cause: string }>().cause).toMatch(/keep at least one/);
    const unknown = await unvet([gone], `nobody::1220${'a'.repeat(64)}`);
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json<{ cause: string }>().cause).toMatch(/no vetting entry/);
    // Vetted back: serial + 1 again, appended without validity bounds; vetted once more: nothing changes.
    const vet = () =>
      control(app, 'vet', {
        synchronizerId: entry.synchronizerId,
        participantId: entry.participantId,
        packages: [{ packageId: gone }],
      });
    const back = (await vet()).json<VettedPackages>();
    expect(back.topologySerial).toBe(entry.topologySerial + 2);
    expect(back.packages.at(-1)).toMatchObject({
      packageId: gone,
      validFromInclusive: null,
      validUntilExclusive: null,
    });
    expect((await vet()).json<VettedPackages>().topologySerial).toBe(entry.topologySerial + 2);
    await app.close();
  });
});
