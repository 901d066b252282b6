// The hand-over of the in-process sandbox from `npm run conformance` to the global setup
// (scripts/run/embedded-sandbox.ts): the global setup waits for the published file, answers with the sandbox
// that serves, and stops with the reason when it could not start.
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { EMBEDDED_SANDBOX_ENV, embeddedSandbox, publishSandbox } from '../../scripts/run/embedded-sandbox';

let dir: string;
test.beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'embedded-'));
  process.env[EMBEDDED_SANDBOX_ENV] = join(dir, 'sandbox.json');
});
test.afterEach(() => {
  delete process.env[EMBEDDED_SANDBOX_ENV];
  rmSync(dir, { recursive: true, force: true });
});

test('the global setup waits for the sandbox published later, and gets the one that serves', async () => {
  const waiting = embeddedSandbox();
  const published = await publishSandbox(process.env[EMBEDDED_SANDBOX_ENV]!);
  try {
    const seen = await waiting;
    expect(seen?.url).toBe(published?.url);
    expect(seen?.mode).toBe('canton');
    const res = await fetch(`${seen!.url}/v2/version`);
    expect(res.status).toBe(200);
  } finally {
    await published?.close();
  }
});

test('a sandbox that could not start stops the run with its reason', async () => {
  writeFileSync(process.env[EMBEDDED_SANDBOX_ENV]!, JSON.stringify({ error: 'SANDBOX_X is not valid' }));
  await expect(embeddedSandbox()).rejects.toThrow(
    'the in-process sandbox did not start: SANDBOX_X is not valid',
  );
});
