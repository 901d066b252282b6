// A wrong setting produces the documented message — naming the variable and the fix, never a secret — and
// stops a real run before any test with that one line. That the defaults are the sandbox's dev defaults is
// every run with nothing set: its preflight checks each identity against the sandbox (identity-settings.test.ts
// shows each wrong one stops the run), and the clean sandbox passes every rule.
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { expect, test } from '../support/test';
import { DEV } from '../../core/dev-defaults';
import { SettingsError } from '../../core/settings';
import { settingsFor } from '../support/harness-kit';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { EXIT } from '../../core/exit-codes';

const ROOT = resolve(__dirname, '..', '..');

/** [env, the exact message] — the messages README and .env.example promise. */
const WRONG: [Record<string, string>, string][] = [
  [
    { LEDGER_BASE_URL: 'localhost:7575' },
    'LEDGER_BASE_URL="localhost:7575" is not valid: set it to an http(s) URL like http://127.0.0.1:7575',
  ],
  [
    { LEDGER_TIMEOUT_SCALE: 'fast' },
    'LEDGER_TIMEOUT_SCALE="fast" is not valid: set it to a number from 0.1 to 100, e.g. 3 for a slow participant',
  ],
  [
    { LEDGER_MEASURED_TIMEOUT_SCALE: '0.5' },
    'LEDGER_MEASURED_TIMEOUT_SCALE="0.5" is not valid: leave it unset, the run sets it itself (LEDGER_TIMEOUT_SCALE is the setting that chooses the scale)',
  ],
  [{ LEDGER_SEED: '-1' }, 'LEDGER_SEED="-1" is not valid: set it to an integer from 0 to 4294967295'],
  [
    { LEDGER_AUTH: 'jwt' },
    'LEDGER_AUTH="jwt" is not valid: set it to one of none, static, hs256, rs256, es256, oauth2',
  ],
  [
    { LEDGER_AUTH: 'static' },
    'LEDGER_TOKEN is missing: with LEDGER_AUTH=static set it to the access token (without "Bearer ")',
  ],
  [
    { LEDGER_AUTH: 'rs256' },
    'LEDGER_JWT_PRIVATE_KEY is missing: set it to a PEM private key, inline or as a path to a .pem file',
  ],
  [
    { LEDGER_AUTH: 'oauth2', LEDGER_OAUTH_TOKEN_URL: 'https://idp.example/token' },
    'LEDGER_OAUTH_CLIENT_ID is missing: with LEDGER_AUTH=oauth2 set it to the client id',
  ],
  [
    { LEDGER_ACT_AS: 'Alice' },
    'LEDGER_ACT_AS="Alice" is not valid: set it to comma-separated Canton party ids like Alice::1220…,Bob::1220…',
  ],
  [
    { LEDGER_TOKEN_LIFETIME_SECONDS: '3600' },
    'LEDGER_TOKEN_LIFETIME_SECONDS="3600" is not valid: set it to an integer from 30 to 300 (Canton rejects > 300)',
  ],
  [
    { LEDGER_USER: 'has space' },
    'LEDGER_USER="has space" is not valid: set it to a Canton user id: 1–128 of letters, digits and @^$.!`-#+\'~_|:',
  ],
  [
    { LEDGER_ADMIN_USER: 'no spaces' },
    'LEDGER_ADMIN_USER="no spaces" is not valid: set it to a Canton user id: 1–128 of letters, digits and @^$.!`-#+\'~_|:',
  ],
  [
    { LEDGER_TAPS_MAX_PASSES_LIMIT: '0' },
    'LEDGER_TAPS_MAX_PASSES_LIMIT="0" is not valid: set it to an integer from 1 to 2147483646 (the participant\'s max-passes-limit; Canton\'s default is 4)',
  ],
  [
    { LEDGER_WORKERS: '0' },
    'LEDGER_WORKERS="0" is not valid: set it to an integer from 1 to 64 (tests run at once; lower it for a fragile participant)',
  ],
  [
    { LEDGER_TAGS: '@no-such-tag' },
    "LEDGER_TAGS: unknown tag @no-such-tag; the catalogue's tags are @readonly, @writes, @auth, @slow, @sandbox-only, @flagship",
  ],
  [
    { LEDGER_COMPARE_WITH: 'no/such' },
    'LEDGER_COMPARE_WITH="no/such" is not valid: set it to previous, or to the name of a baseline saved with npm run baseline -- save <name> (letters, digits, . _ -)',
  ],
  [
    { LEDGER_INTERFACE_DOC_URL: 'https://docs.example.com/ledger-api.html' },
    'LEDGER_INTERFACE_DOC_URL="https://docs.example.com/ledger-api.html" is not valid: set it to an http(s) URL with {section} where the section number goes',
  ],
  // A shipped template's name resolves: canton-ping is what forecast-skips.test.ts's and discovery-run.test.ts's
  // runs submit, sandbox-asset-transfer participant-death.test.ts's.
  [
    { LEDGER_COMMAND_TEMPLATE: 'canton-pong' },
    'LEDGER_COMMAND_TEMPLATE="canton-pong" is not valid: no such file: set it to sandbox-asset-transfer or canton-ping',
  ],
  [
    { LEDGER_EXPECTATIONS: 'no-such-baseline.json' },
    "LEDGER_EXPECTATIONS=no-such-baseline.json: no-such-baseline.json: no such file (the format: rules/expectations/README.md; auto, canton and none name Canton's baseline)",
  ],
];

for (const [env, message] of WRONG) {
  test(`${Object.keys(env).join(' + ')} wrong → "${message.slice(0, 60)}…"`, () => {
    expect(() => settingsFor(env)).toThrow(SettingsError);
    expect(() => settingsFor(env)).toThrow(message);
  });
}

test('secret values are never echoed in a message', () => {
  const secret = 'Bearer super-secret-token-value-42';
  const attempts: Record<string, string>[] = [
    { LEDGER_AUTH: 'static', LEDGER_TOKEN: secret },
    { LEDGER_TOKEN: 'super-secret-token-value-42' }, // set while LEDGER_AUTH is hs256
    {
      LEDGER_AUTH: 'es256',
      LEDGER_JWT_PRIVATE_KEY: '-----BEGIN PRIVATE KEY-----\nsuper-secret-token-value-42\n',
    },
  ];
  for (const env of attempts) {
    let message = '';
    try {
      settingsFor(env);
    } catch (e) {
      message = (e as Error).message;
    }
    expect(message, JSON.stringify(Object.keys(env))).toMatch(/^LEDGER_(TOKEN|JWT_PRIVATE_KEY)/);
    expect(message).not.toContain('super-secret-token-value-42');
  }
});

test('the second user defaults to the dev one only for the in-process sandbox', () => {
  expect(settingsFor().secondUser).toBe(DEV.secondUser);
  expect(settingsFor({ LEDGER_BASE_URL: 'http://127.0.0.1:7575' }).secondUser).toBeUndefined();
  expect(
    settingsFor({ LEDGER_BASE_URL: 'http://127.0.0.1:7575', LEDGER_SECOND_USER: 'qa2' }).secondUser,
  ).toBe('qa2');
});

/** Runs a command of the harness with a clean environment plus `env`. */
function run(args: string[], env: Record<string, string>) {
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([k]) => !/^(LEDGER_|SANDBOX_)/.test(k)),
  );
  return spawnSync(process.execPath, args, {
    cwd: ROOT,
    env: { ...clean, ...env },
    encoding: 'utf8',
    timeout: 60_000,
  });
}

const EXPECTED_LINE =
  'ledger-conformance: LEDGER_TIMEOUT_SCALE="fast" is not valid: set it to a number from 0.1 to 100, e.g. 3 for a slow participant';

test('a wrong setting stops `playwright test` with exactly one line, before any test', () => {
  const res = run(playwrightCommand('test', '--list'), {
    LEDGER_TIMEOUT_SCALE: 'fast',
  });
  expect(res.status).toBe(EXIT.badSetting);
  expect(res.stderr.trim()).toBe(EXPECTED_LINE);
  expect(res.stdout).not.toMatch(/Listing tests|Running/);
});

test('a wrong sandbox setting stops an in-process run the same way', () => {
  const res = run(playwrightCommand('test', '--list'), { SANDBOX_MODE: 'lenient' });
  expect(res.status).toBe(EXIT.badSetting);
  expect(res.stderr.trim()).toBe(
    'ledger-conformance: SANDBOX_MODE="lenient" is not valid: set it to one of canton, strict-interface',
  );
});

/** The setting names a file reads: quoted literals (settings.ts, sandbox/config.ts) and `env.X` accesses. */
function settingNames(file: string, prefix: RegExp): string[] {
  const text = readFileSync(join(ROOT, file), 'utf8');
  const names = [
    ...text.matchAll(/'((?:LEDGER|SANDBOX)_[A-Z0-9_]+)'/g),
    ...text.matchAll(/\benv(?:\.|\[')((?:LEDGER|SANDBOX)_[A-Z0-9_]+)/g),
    ...text.matchAll(/_ENV = '((?:LEDGER|SANDBOX)_[A-Z0-9_]+)'/g),
  ].map((m) => m[1]!);
  return names.filter((n) => prefix.test(n));
}

test('.env.example documents every setting the harness, the sandbox and the suite read', () => {
  const documented = new Set(
    [...readFileSync(join(ROOT, '.env.example'), 'utf8').matchAll(/^# ([A-Z0-9_]+)=/gm)].map((m) => m[1]),
  );
  const sources = [
    'core/settings.ts',
    'sandbox/config.ts',
    'playwright.config.ts',
    ...['core', 'fixtures', 'tests', 'scripts', 'reporters', 'rules'].flatMap((d) =>
      readdirSync(join(ROOT, d))
        .filter((f) => f.endsWith('.ts'))
        .map((f) => `${d}/${f}`),
    ),
  ];
  const read = new Set(sources.flatMap((f) => settingNames(f, /^(LEDGER|SANDBOX)_/)));
  read.add('LOG_LEVEL');
  expect(read.size, 'the scan finds the settings at all').toBeGreaterThan(30);
  expect([...read].filter((n) => !documented.has(n)).sort(), 'read but not in .env.example').toEqual([]);
});

test('a LEDGER_ variable is read only by core/settings.ts, the run context and the reports folder', () => {
  const READERS = new Set(['core/settings.ts', 'core/run-context.ts', 'core/reports-dir.ts']);
  const READ = /process\.env\.LEDGER_[A-Z_]+(?!\s*(?:\|\|)?=[^=])|process\.env\[['"]LEDGER_/;
  const files = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? files(join(dir, e.name)) : e.name.endsWith('.ts') ? [join(dir, e.name)] : [],
    );
  const sources = ['core', 'fixtures', 'reporters', 'rules', 'scripts', 'tests'].flatMap(files);
  sources.push('playwright.config.ts');
  const readers = sources.filter((f) => !READERS.has(f) && READ.test(readFileSync(join(ROOT, f), 'utf8')));
  expect(readers).toEqual([]);
  // The check can fail: a reporter reading a setting itself is found.
  expect(READ.test('const c = process.env.LEDGER_COMPARE_WITH?.trim();')).toBe(true);
  expect(READ.test("const d = process.env['LEDGER_REPORTS_DIR'];")).toBe(true);
});
