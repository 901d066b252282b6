// `npm run sandbox` as a process: one line with URL, mode and credentials; serves; stops cleanly on SIGTERM
// and SIGINT; a bad setting exits 2 with one message naming it (no stack trace). Port 0 on 127.0.0.1.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect, test } from '../support/test';
import { loadConfig } from '../../sandbox/config';
import { exposureError, isLoopback } from '../../sandbox/exposure';
import { faultBanner, resolveFaults } from '../../sandbox/faults/install';

const start = (args: string[], env: Record<string, string> = {}) =>
  spawn(process.execPath, ['--require', 'tsx/cjs', 'sandbox/main.ts', ...args], {
    cwd: `${__dirname}/../..`,
    env: { PATH: process.env.PATH ?? '', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });

async function firstLine(stream: NodeJS.ReadableStream): Promise<string> {
  const lines = createInterface({ input: stream });
  const [line] = (await once(lines, 'line')) as [string];
  lines.close();
  return line;
}

test.describe('sandbox main', () => {
  // SIGINT's start carries a secret of its own and the risk setting, which on 127.0.0.1 change nothing else.
  const starts = [
    { signal: 'SIGTERM', args: ['--control'], env: {}, auth: 'auth hs256 secret "sandbox-dev-secret"' },
    {
      signal: 'SIGINT',
      args: [],
      env: { SANDBOX_HMAC_SECRET: 'a-private-secret', SANDBOX_ALLOW_INSECURE_HOST: 'true' },
      auth: 'auth hs256 secret from SANDBOX_HMAC_SECRET',
    },
  ] as const;
  for (const { signal, args, env, auth } of starts) {
    test(`prints one line, serves /v2/version, and exits 0 on ${signal}`, async () => {
      const child = start(['--port', '0', ...args], env);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const line = await firstLine(child.stdout);
      expect(line).toMatch(
        new RegExp(
          `^sandbox listening on http://127\\.0\\.0\\.1:\\d+ \\(mode canton${args.length ? ', control route on' : ''}\\) · `,
        ),
      );
      expect(line).toContain(`${auth}, user conformance`);
      expect(line).toContain('audience https://daml.com/jwt/aud/participant/participant1::1220');
      expect(line).not.toContain('a-private-secret');
      expect(line).not.toContain('unprotected');
      const url = /http:\/\/[^ ]+/.exec(line)?.[0] ?? '';
      const res = await fetch(`${url}/v2/version`);
      expect(res.status).toBe(200);
      expect(((await res.json()) as { version: string }).version).toBe('3.4.11');

      child.kill(signal);
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(0);
      expect(stderr).toBe('');
    });
  }

  test('with faults on, it prints the banner the in-process sandbox prints, after its line', async () => {
    const faults = ['vet-entries-unsorted', 'sub-dedup-ignored'];
    const child = start(['--port', '0'], { SANDBOX_FAULTS: faults.join(',') });
    const banner = faultBanner(resolveFaults(faults)).split('\n');
    const lines = createInterface({ input: child.stdout });
    const seen: string[] = [];
    for await (const line of lines) if (seen.push(line) > banner.length) break;
    child.kill('SIGTERM');
    await once(child, 'exit');
    expect(seen[0]).toMatch(/^sandbox listening on /);
    expect(seen.slice(1)).toEqual(banner);
  });

  test('a bad setting exits 2 with one line naming it, no stack trace', async () => {
    const child = start(['--port', 'abc']);
    let stderr = '';
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const [code] = (await once(child, 'exit')) as [number | null];
    expect(code).toBe(2);
    expect(stderr.trim()).toBe(
      'sandbox: SANDBOX_PORT="abc" is not valid: set it to an integer between 0 and 65535',
    );
  });
});

// Protected mode: the decision as a function (every host and trust), and the process refusing before it listens.
// Nothing here binds beyond loopback: the refusals exit before listening, the start is on 127.0.0.1.
test.describe('sandbox main: protected mode', () => {
  const SETTING = 'SANDBOX_ALLOW_INSECURE_HOST';

  test('loopback hosts are localhost, 127.0.0.0/8 and ::1; anything else reaches beyond this machine', () => {
    for (const host of [
      '127.0.0.1',
      '127.1.2.3',
      'localhost',
      'LOCALHOST',
      '::1',
      '[::1]',
      '::ffff:127.0.0.1',
    ])
      expect(isLoopback(host), host).toBe(true);
    for (const host of [
      '0.0.0.0',
      '::',
      '10.0.0.5',
      '192.168.1.2',
      'sandbox.example.com',
      '::ffff:10.0.0.1',
      '128.0.0.1',
    ])
      expect(isLoopback(host), host).toBe(false);
  });

  test('beyond loopback, the development secret or auth off is refused unless the risk is accepted', () => {
    const decide = (env: Record<string, string>) => exposureError(loadConfig(env));
    const wide = { SANDBOX_HOST: '0.0.0.0' };
    expect(decide(wide)).toMatch(
      /^SANDBOX_HOST=0\.0\.0\.0 reaches beyond this machine, and the development secret.*: set SANDBOX_HMAC_SECRET .*SANDBOX_JWKS.*SANDBOX_ALLOW_INSECURE_HOST=true to accept the risk$/,
    );
    expect(
      decide({ ...wide, SANDBOX_HMAC_SECRET: 'sandbox-dev-secret' }),
      'the dev secret set explicitly',
    ).toBeDefined();
    expect(decide({ ...wide, SANDBOX_AUTH: 'none' })).toMatch(/SANDBOX_AUTH=none lets anyone/);
    expect(decide({ SANDBOX_HOST: '::', SANDBOX_AUTH: 'none' })).toContain(SETTING);
    // A secret or keys of its own: it starts.
    expect(decide({ ...wide, SANDBOX_HMAC_SECRET: 'a-secret-of-our-own' })).toBeUndefined();
    expect(decide({ ...wide, SANDBOX_AUTH: 'jwks', SANDBOX_JWKS: 'keys.json' })).toBeUndefined();
    // The operator's choice, by name.
    expect(decide({ ...wide, [SETTING]: 'true' })).toBeUndefined();
    expect(decide({ ...wide, SANDBOX_AUTH: 'none', [SETTING]: 'true' })).toBeUndefined();
    // Loopback is as easy as before.
    for (const host of ['127.0.0.1', '::1', 'localhost'])
      expect(decide({ SANDBOX_HOST: host, SANDBOX_AUTH: 'none' })).toBeUndefined();
    expect(decide({})).toBeUndefined();
  });

  // Each host and trust's decision is the test above; one refused start shows the process stops on it.
  const refused: Record<string, string>[] = [{ SANDBOX_HOST: '0.0.0.0' }];
  for (const env of refused) {
    test(`${JSON.stringify(env)}: exit 2 before listening, one line naming the secret settings and ${SETTING}`, async () => {
      const child = start(['--port', '0'], env);
      let [stdout, stderr] = ['', ''];
      child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const [code] = (await once(child, 'exit')) as [number | null];
      expect(code).toBe(2);
      expect(stdout, 'it never said it listens').toBe('');
      const lines = stderr.trim().split('\n');
      expect(lines).toHaveLength(1);
      expect(lines[0]).toMatch(
        new RegExp(`^sandbox: SANDBOX_HOST=${env.SANDBOX_HOST ?? ''} reaches beyond this machine`),
      );
      for (const name of ['SANDBOX_HMAC_SECRET', 'SANDBOX_JWKS', `${SETTING}=true`])
        expect(lines[0]).toContain(name);
    });
  }
});
