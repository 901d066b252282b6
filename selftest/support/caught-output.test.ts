// support/caught-output.ts: what a body writes is caught, not printed, with its value or what it threw, and the
// process's own writers are back afterwards either way.
import { expect, test } from './test';
import { caughtOutput } from './caught-output';

test('a body’s output is caught with its value, or with what it threw, and the writers are restored', async () => {
  const { stdout, stderr } = process;
  // oxlint-disable-next-line typescript/unbound-method -- compared, never called
  const writers = () => [stdout.write, stderr.write];
  const before = writers();
  const ran = await caughtOutput(async () => {
    stdout.write('out ');
    await Promise.resolve();
    stderr.write('err');
    return 42;
  });
  expect(ran).toEqual({ stdout: 'out ', stderr: 'err', ok: true, value: 42 });
  expect(writers()).toEqual(before);

  const boom = new Error('boom');
  const threw = await caughtOutput(() => {
    stderr.write('before the throw');
    throw boom;
  });
  expect(threw).toEqual({ stdout: '', stderr: 'before the throw', ok: false, error: boom });
  expect(writers()).toEqual(before);
});
