// Many `node --require tsx/cjs <script> --help` in ONE process (selftest/project/npm-scripts-help.test.ts): each
// script is started as node starts a main script (Module.runMain, with process.argv as node sets it), one after
// the other, and what it wrote to stdout and stderr until its first process.exit, and that exit's code, are
// printed as JSON by script. A script that has not exited once it is loaded (its --help answered after I/O, or
// not at all) gets status null, and the scripts after it are not started: it may be doing its real work.
// A child of its own per script would load the modules they share again each time.
import Module from 'node:module';
import { resolve } from 'node:path';
import type { ChildOutcome } from './child-run';

class Exit extends Error {}

const outcomes: Record<string, ChildOutcome> = {};
/** The script being started; what it writes or exits with after its first exit is no longer its output. */
let current: { outcome: ChildOutcome; ended: boolean } | undefined;

const { stdout, stderr } = process;
const write = stdout.write.bind(stdout);
const exit = process.exit.bind(process);
const capture = (key: 'stdout' | 'stderr') => (chunk: string | Uint8Array) => {
  if (current && !current.ended) current.outcome[key] += String(chunk);
  return true;
};
stdout.write = capture('stdout');
stderr.write = capture('stderr');
process.exit = (code?: number | string | null) => {
  if (current && !current.ended) {
    current.outcome.status = Number(code ?? 0);
    current.ended = true;
  }
  throw new Exit();
};
// An async main's rejection by the Exit above (or its catch calling exit again): the script had ended.
process.on('unhandledRejection', (e) => {
  if (!(e instanceof Exit)) throw e;
});

for (const script of process.argv.slice(2)) {
  current = { outcome: { status: null, stdout: '', stderr: '' }, ended: false };
  outcomes[script] = current.outcome;
  process.argv = [process.argv[0]!, resolve(script), '--help'];
  // A script an earlier one imported (spec/extract.ts, read by the preflight) must run again as the main module.
  delete require.cache[resolve(script)];
  try {
    Module.runMain();
  } catch (e) {
    if (!(e instanceof Exit)) {
      current.outcome.status = 1;
      current.outcome.stderr += `${(e as Error).stack ?? String(e)}\n`;
      current.ended = true;
    }
  }
  if (!current.ended) break;
}
current = undefined;
// After the scripts' pending callbacks (a catch that exits again), which no longer count.
setImmediate(() => {
  write(JSON.stringify(outcomes));
  exit(0);
});
