// One list of secret settings (core/secrets.ts) for the secret gate, the webhook message and every redaction:
// each secret of the list, planted in a run's files, is found by the gate under its setting's name; planted
// in a webhook message, is masked before the message leaves (scripts/nightly/notify-changes.ts, to a webhook
// on 127.0.0.1); planted in any text the harness writes (a transcript, an error), is masked by the redaction.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { redact, registerSecretSettings } from '../../core/redact';
import { SECRET_SETTINGS, secretLiterals, type SecretSetting } from '../../core/secrets';
import { loadSettings } from '../../core/settings';
import { scanForSecrets } from '../../reporters/secret-scan';
import { runSecrets } from '../../scripts/report/secret-gate';
import { cleanEnv, runNode } from '../support/child-run';
import { startReceiver } from '../support/webhook-receiver';

const WEBHOOK_PATH = '/services/T0PLANTED/B0PLANTED/planted-webhook-token-5d1e';

/** A value for the setting, of its shape, and the literal of it that is planted (what must never be written). */
function plant(setting: SecretSetting, i: number, dir: string): { value: string; planted: string } {
  switch (setting.shape) {
    case 'value':
      return { value: `planted-${i}-value-7c2b9e`, planted: `planted-${i}-value-7c2b9e` };
    case 'private-key': {
      const pem = generateKeyPairSync('ec', { namedCurve: 'prime256v1' })
        .privateKey.export({ type: 'pkcs8', format: 'pem' })
        .toString();
      const file = join(dir, `key-${i}.pem`);
      writeFileSync(file, pem);
      return { value: file, planted: pem };
    }
    case 'url-credentials':
      return { value: `http://qa:planted-${i}-pw-4e8a@proxy.example:3128`, planted: `planted-${i}-pw-4e8a` };
    case 'url-path':
      return { value: `http://127.0.0.1:1${WEBHOOK_PATH}`, planted: WEBHOOK_PATH };
  }
}

let dir: string;
test.beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'secrets-list-'));
});
test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

function planted(): { env: Record<string, string>; plants: { name: string; planted: string }[] } {
  const env: Record<string, string> = {};
  const plants = SECRET_SETTINGS.map((setting, i) => {
    const p = plant(setting, i, dir);
    env[setting.name] = p.value;
    expect(secretLiterals(setting, p.value), setting.name).toContain(p.planted);
    return { name: setting.name, planted: p.planted };
  });
  return { env, plants };
}

test("every secret of the list planted in a run's files: the secret gate finds each, by its setting's name", () => {
  const { env, plants } = planted();
  const out = join(dir, 'run');
  mkdirSync(out, { recursive: true });
  for (const p of plants)
    writeFileSync(join(out, `${p.name}.txt`), `an attachment quoting ${p.planted} by mistake`);
  const secrets = runSecrets(loadSettings({}), env);
  const hits = scanForSecrets([out], secrets);
  for (const p of plants) {
    expect(
      hits.filter((h) => h.file.endsWith(`${p.name}.txt`)).map((h) => h.kind),
      p.name,
    ).toContain(p.name);
  }
  expect(new Set(hits.map((h) => h.kind))).toEqual(new Set(SECRET_SETTINGS.map((s) => s.name)));
});

test('every secret of the list planted in a webhook message: masked before it is posted', async () => {
  const { env, plants } = planted();
  const receiver = await startReceiver(WEBHOOK_PATH);
  try {
    // One target per secret: a message lists a few rule ids per target, so each gets its own.
    const since = { kind: 'previous', generatedAt: '2026-11-25T02:31:07.123Z', target: {} };
    const none = { fixed: [], deviationsAppeared: [], deviationsGone: [], newSkips: [], newInconclusive: [] };
    const runs = plants.map((p, i) => {
      const run = join(dir, `target-${i}`);
      mkdirSync(run, { recursive: true });
      const newFailures = [{ rule: `AUTH-${p.planted}`, before: 'pass', after: 'fail' }];
      writeFileSync(
        join(run, 'conformance.json'),
        JSON.stringify({ changes: { since, ...none, otherChanges: [], newFailures } }),
      );
      return run;
    });
    const o = await runNode(['--require', 'tsx/cjs', 'scripts/nightly/notify-changes.ts', ...runs], {
      ...cleanEnv(),
      ...env,
      CONFORMANCE_WEBHOOK_URL: receiver.url,
    });
    expect(o.status, o.stdout + o.stderr).toBe(0);
    expect(receiver.received).toHaveLength(1);
    const text = String((JSON.parse(receiver.received[0]!.body) as { text: unknown }).text);
    for (const p of plants) {
      expect(text, p.name).not.toContain(p.planted.trim());
      expect(o.stdout + o.stderr, p.name).not.toContain(p.planted.trim());
    }
    // Each planted rule id is there, masked: the message was sent with every failure in it.
    expect(text.match(/AUTH-<redacted>/g)).toHaveLength(plants.length);
  } finally {
    await receiver.close();
  }
});

test('every secret of the list planted in a text the harness writes: masked by the redaction', () => {
  const { env, plants } = planted();
  registerSecretSettings(env); // what settings() does in every process of a run
  for (const p of plants) {
    const text = redact(`an error quoting ${p.planted} by mistake`);
    expect(text, p.name).not.toContain(p.planted.trim());
    expect(text, p.name).toContain('<redacted>');
  }
});
