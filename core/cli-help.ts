// `--help` (or `-h`) for the harness's `npm run` scripts: the script's usage on stdout and nothing else done
// (no setting read, no file touched, no participant asked), exit 0. Each entry point keeps its usage beside the
// code that reads its arguments and calls this first.
import { EXIT } from './exit-codes';

export function answerHelp(usage: string, argv: readonly string[] = process.argv.slice(2)): void {
  if (!argv.some((a) => a === '--help' || a === '-h')) return;
  process.stdout.write(`${usage.trim()}\n`);
  process.exit(EXIT.ok);
}
