// A value handed from one process to others through a JSON file: written whole and renamed into place, so a
// reader never sees half of it, and awaited by watching its folder. `npm run conformance` hands its
// in-process sandbox to the global setup this way (scripts/run/embedded-sandbox.ts); the self-tests share
// their child runs so (selftest/support/once-across-workers.ts).
import { existsSync, renameSync, watch, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';

export function publishJson(file: string, value: unknown): void {
  writeFileSync(`${file}.tmp`, JSON.stringify(value));
  renameSync(`${file}.tmp`, file);
}

/**
 * Resolves once `file` exists. `gone`, asked every `everyMs`, tells a writer that died (nothing to watch for
 * then) by returning the error to reject with.
 */
export function awaitFile(file: string, gone?: () => Error | undefined, everyMs = 5_000): Promise<void> {
  return new Promise((done, fail) => {
    // Watch first, then look: a file renamed into place in between is seen by the look.
    const watcher = watch(dirname(file));
    const timer = gone ? setInterval(check, everyMs) : undefined;
    function finish(error?: Error): void {
      watcher.close();
      clearInterval(timer);
      if (error) fail(error);
      else done();
    }
    function check(): void {
      if (existsSync(file)) return finish();
      const error = gone?.();
      if (error) finish(error);
    }
    watcher.on('change', check);
    watcher.on('error', (e) => finish(e));
    check();
  });
}
