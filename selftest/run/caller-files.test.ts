// The files settings name (LEDGER_EXPECTATIONS' team files, LEDGER_COMMAND_TEMPLATE, LEDGER_JWT_PRIVATE_KEY as a
// path) resolve against LEDGER_CALLER_DIR first — a team's own folder, the calling repository's checkout in the
// nightly workflow — then the current directory; an absolute path as is. A path found nowhere stops the run with
// one line naming the variable and both folders. In-process: loadSettings and the secret gate's list.
import { generateKeyPairSync } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { loadSettings, SettingsError } from '../../core/settings';
import { loadLayers } from '../../rules/expectations';
import { runSecrets } from '../../scripts/report/secret-gate';

const PING = {
  commands: [{ CreateCommand: { templateId: '#p:M:T', createArguments: { p: '{{actAs0}}' } } }],
};

test.describe('file settings: the caller folder first, then the current directory', () => {
  let dir: string;
  const cwd = process.cwd();
  const key = generateKeyPairSync('rsa', { modulusLength: 2048 }).privateKey.export({
    type: 'pkcs1',
    format: 'pem',
  }) as string;

  test.beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'caller-files-'));
    mkdirSync(join(dir, 'qa'));
    writeFileSync(join(dir, 'qa', 'waivers.json'), JSON.stringify({ name: 'qa', deviations: [] }));
    writeFileSync(join(dir, 'qa', 'template.json'), JSON.stringify(PING));
    writeFileSync(join(dir, 'qa', 'signing-key.pem'), key);
    // The same relative path as a file of the harness: the caller's wins.
    mkdirSync(join(dir, 'core', 'templates'), { recursive: true });
    writeFileSync(join(dir, 'core', 'templates', 'canton-ping.json'), JSON.stringify(PING));
  });
  test.afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("the caller's files resolve, the caller's first; the harness's when the caller has none", () => {
    const s = loadSettings({
      LEDGER_CALLER_DIR: dir,
      LEDGER_EXPECTATIONS: 'auto,qa/waivers.json,rules/expectations/canton.json',
      LEDGER_COMMAND_TEMPLATE: 'qa/template.json',
      LEDGER_AUTH: 'rs256',
      LEDGER_JWT_PRIVATE_KEY: 'qa/signing-key.pem',
    });
    expect(s.fileDirs).toEqual([dir, cwd]);
    expect(s.commandTemplate).toEqual({ path: join(dir, 'qa', 'template.json'), document: PING });
    expect(s.auth.kind === 'rs256' && s.auth.privateKey.asymmetricKeyType).toBe('rsa');
    // The layers keep the names they were given (the report shows them), read from where they resolved.
    expect(loadLayers(s.expectations, '3.4.11', s.fileDirs).map((l) => l.from)).toEqual([
      'canton',
      'qa/waivers.json',
      'rules/expectations/canton.json',
    ]);
    // The key file's text is a secret of the run: the gate looks for it as written.
    expect(runSecrets(s, { LEDGER_JWT_PRIVATE_KEY: 'qa/signing-key.pem' }).map((x) => x.value)).toContain(
      key,
    );
    const both = loadSettings({
      LEDGER_CALLER_DIR: dir,
      LEDGER_COMMAND_TEMPLATE: 'core/templates/canton-ping.json',
    });
    expect(both.commandTemplate.path).toBe(join(dir, 'core', 'templates', 'canton-ping.json'));
    // Without the setting, the current directory only, as before; a shipped name is no path.
    expect(
      loadSettings({ LEDGER_COMMAND_TEMPLATE: 'core/templates/canton-ping.json' }).commandTemplate.path,
    ).toBe(join(cwd, 'core', 'templates', 'canton-ping.json'));
    expect(loadSettings({ LEDGER_CALLER_DIR: dir, LEDGER_COMMAND_TEMPLATE: 'canton-ping' }).fileDirs).toEqual(
      [dir, cwd],
    );
  });

  test('a path found nowhere, or a caller folder that is not there: one line naming the variable', () => {
    const nowhere = `no such file in ${dir} or ${cwd}`;
    const cases: [Record<string, string>, string][] = [
      [
        { LEDGER_COMMAND_TEMPLATE: 'qa/missing.json' },
        `LEDGER_COMMAND_TEMPLATE="qa/missing.json" is not valid: ${nowhere}: set it to sandbox-asset-transfer or canton-ping, or a JSON file like core/templates/sandbox-asset-transfer.json ({"commands":[…]})`,
      ],
      [
        { LEDGER_EXPECTATIONS: 'auto,qa/missing.json' },
        `LEDGER_EXPECTATIONS=auto,qa/missing.json: qa/missing.json: ${nowhere} (the format: rules/expectations/README.md; auto, canton and none name Canton's baseline)`,
      ],
      [
        { LEDGER_AUTH: 'es256', LEDGER_JWT_PRIVATE_KEY: 'qa/missing.pem' },
        `LEDGER_JWT_PRIVATE_KEY="qa/missing.pem" is not valid: ${nowhere}: set it to a PEM private key, inline or as a path to a .pem file`,
      ],
    ];
    for (const [env, message] of cases) {
      expect(() => loadSettings({ LEDGER_CALLER_DIR: dir, ...env })).toThrow(new SettingsError(message));
    }
    expect(() => loadSettings({ LEDGER_CALLER_DIR: join(dir, 'absent') })).toThrow(
      new SettingsError(
        `LEDGER_CALLER_DIR="${join(dir, 'absent')}" is not valid: no such folder: set it to the folder your own files (waivers, a command template, a key) are in, or leave it unset`,
      ),
    );
    expect(() => loadSettings({ LEDGER_CALLER_DIR: join(dir, 'qa', 'waivers.json') })).toThrow(
      /no such folder/,
    );
  });
});
