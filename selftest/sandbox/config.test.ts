// Sandbox settings: every bad value stops the start with a message naming the setting; flags mirror the
// environment and win over it.
import { expect, test } from '../support/test';
import { buildApp } from '../../sandbox/app';
import { ConfigError, DEV_DEFAULTS, flagsToEnv, loadConfig } from '../../sandbox/config';

test.describe('sandbox configuration', () => {
  test('nothing set gives the documented development defaults', () => {
    const c = loadConfig({});
    expect(c).toMatchObject({
      host: '127.0.0.1',
      port: 7575,
      logLevel: undefined,
      mode: 'canton',
      version: '3.4.11',
      auth: 'hs256',
      hmacSecret: DEV_DEFAULTS.hmacSecret,
      maxTokenLifetimeSeconds: 300,
      participantId: DEV_DEFAULTS.participantId,
      synchronizerId: DEV_DEFAULTS.synchronizerId,
      maxVettedPackagesPageSize: 100,
      control: false,
      allowInsecureHost: false,
    });
    expect(c.users.map((u) => u.id)).toEqual(['conformance', 'conformance2', 'reader', 'admin']);
  });

  const bad: [Record<string, string>, string][] = [
    [{ SANDBOX_PORT: '70000' }, 'SANDBOX_PORT'],
    [{ SANDBOX_VERSION: '3.4' }, 'SANDBOX_VERSION'],
    [{ SANDBOX_AUTH: 'rsa' }, 'SANDBOX_AUTH'],
    [{ SANDBOX_AUTH: 'jwks' }, 'SANDBOX_JWKS'],
    [{ SANDBOX_USERS: '{not json' }, 'SANDBOX_USERS'],
    [{ SANDBOX_USERS: '[{"id":1}]' }, 'SANDBOX_USERS[0]'],
    [{ SANDBOX_PARTICIPANT_ID: 'participant1' }, 'SANDBOX_PARTICIPANT_ID'],
    [{ SANDBOX_SYNCHRONIZER_ID: '::1220ab' }, 'SANDBOX_SYNCHRONIZER_ID'],
    [{ SANDBOX_CONTROL: 'yes' }, 'SANDBOX_CONTROL'],
    [{ SANDBOX_ALLOW_INSECURE_HOST: 'sure' }, 'SANDBOX_ALLOW_INSECURE_HOST'],
    [{ SANDBOX_MAX_VETTED_PAGE_SIZE: '0' }, 'SANDBOX_MAX_VETTED_PAGE_SIZE'],
    [{ SANDBOX_MAX_TOKEN_LIFETIME_SECONDS: '-5' }, 'SANDBOX_MAX_TOKEN_LIFETIME_SECONDS'],
    [{ SANDBOX_PACKAGES: '0' }, 'SANDBOX_PACKAGES'],
    [{ LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    [
      { SANDBOX_SYNCHRONIZERS: '1000', SANDBOX_PARTICIPANTS: '100000' },
      'SANDBOX_SYNCHRONIZERS × SANDBOX_PARTICIPANTS',
    ],
  ];
  for (const [env, name] of bad) {
    test(`${JSON.stringify(env)} is refused, naming ${name}`, () => {
      let error: unknown;
      try {
        loadConfig(env);
      } catch (e) {
        error = e;
      }
      expect(error).toBeInstanceOf(ConfigError);
      expect((error as Error).message.startsWith(name)).toBe(true);
    });
  }

  test('flags map to settings: --name value, --name=value, a bare flag is true, flags win', () => {
    expect(
      flagsToEnv(['--port', '7676', '--mode=strict-interface', '--control', '--log-level', 'debug']),
    ).toEqual({
      SANDBOX_PORT: '7676',
      SANDBOX_MODE: 'strict-interface',
      SANDBOX_CONTROL: 'true',
      LOG_LEVEL: 'debug',
    });
    const c = loadConfig({ SANDBOX_PORT: '1111', SANDBOX_CONTROL: 'false' }, ['--port=2222', '--control']);
    expect(c.port).toBe(2222);
    expect(c.control).toBe(true);
    expect(() => loadConfig({}, ['7575'])).toThrow(ConfigError);
    expect(() => loadConfig({}, ['--port', 'x'])).toThrow(/^SANDBOX_PORT/);
  });

  test('a JWKS file that cannot be read stops the build, naming SANDBOX_JWKS', async () => {
    const config = loadConfig({ SANDBOX_AUTH: 'jwks', SANDBOX_JWKS: '/nonexistent/jwks.json' });
    await expect(buildApp(config)).rejects.toThrow(/^SANDBOX_JWKS="\/nonexistent\/jwks.json" is not valid/);
    await expect(buildApp(config)).rejects.toBeInstanceOf(ConfigError);
  });
});
