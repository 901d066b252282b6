// What a command run in this process (its main, a reporter's end, the secret gate) writes, caught instead of
// printed: for the self-tests that run a command's code in process where the process boundary is not the point.
export interface CaughtOutput {
  stdout: string;
  stderr: string;
}

/**
 * `body` run with this process's stdout and stderr caught until it settles, then restored: what it wrote, with
 * its value or what it threw (the output written before a throw is kept too).
 */
export async function caughtOutput<T>(
  body: () => T | Promise<T>,
): Promise<CaughtOutput & ({ ok: true; value: T } | { ok: false; error: unknown })> {
  const caught: CaughtOutput = { stdout: '', stderr: '' };
  const { stdout, stderr } = process;
  // The writers themselves, put back as they were (the worker's own, which Playwright may have replaced).
  // oxlint-disable-next-line typescript/unbound-method -- put back on the same stream, called as its method
  const write = { stdout: stdout.write, stderr: stderr.write };
  stdout.write = (chunk: string | Uint8Array) => ((caught.stdout += String(chunk)), true);
  stderr.write = (chunk: string | Uint8Array) => ((caught.stderr += String(chunk)), true);
  try {
    const value = await body();
    return { ...caught, ok: true, value };
  } catch (error) {
    return { ...caught, ok: false, error };
  } finally {
    stdout.write = write.stdout;
    stderr.write = write.stderr;
  }
}
