// `npm run sandbox` as a process: one line with URL, mode and credentials; serves; stops cleanly on SIGTERM
// and SIGINT; a bad setting exits 2 with one message naming it (no stack trace). Port 0 on 127.0.0.1.
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { createInterface } from 'node:readline';
import { expect, test } from '../support/test';

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
  for (const signal of ['SIGTERM', 'SIGINT'] as const) {
    test(`prints one line, serves /v2/version, and exits 0 on ${signal}`, async () => {
      const child = start(['--port', '0', '--control']);
      let stderr = '';
      child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
      const line = await firstLine(child.stdout);
      expect(line).toMatch(
        /^sandbox listening on http:\/\/127\.0\.0\.1:\d+ \(mode canton, control route on\) · /,
      );
      expect(line).toContain('auth hs256 secret "sandbox-dev-secret", user conformance');
      expect(line).toContain('audience https://daml.com/jwt/aud/participant/participant1::1220');
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

  test('a configured HMAC secret is not printed', async () => {
    const child = start(['--port', '0'], { SANDBOX_HMAC_SECRET: 'a-private-secret' });
    const line = await firstLine(child.stdout);
    expect(line).toContain('secret from SANDBOX_HMAC_SECRET');
    expect(line).not.toContain('a-private-secret');
    child.kill('SIGTERM');
    await once(child, 'exit');
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
