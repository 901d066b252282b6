// `npm run mutation [-- --faults a,b] [--full | --by-rule] [--workers N] [--out DIR] [--extra FILE]`: proves every
// check can fail (./run-mutation.ts runs it); exits with its code, or 2 with one line for a wrong argument.
import { answerHelp } from '../../core/cli-help';
import { EXIT } from '../../core/exit-codes';
import { runMutation } from './run-mutation';

const HELP = `Usage: npm run mutation [-- --faults a,b] [--full | --by-rule] [--workers N] [--out DIR] [--extra FILE]
Proves every check can fail: a clean sandbox and one sandbox per fault, the suite run against each; writes
reports/mutation.{json,md} (or --out DIR). Exits non-zero unless the clean sandbox is green, every conformance
fault is killed by a rule it declares and every transport fault stays inconclusive.
  --faults a,b   only these faults (sandbox/faults/)      --full     every spec against every fault
  --by-rule      only the declared rules' tests           --workers  Playwright workers (default: all cores)
  --extra FILE   faults of a team's own, from FILE`;

answerHelp(HELP);
runMutation(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (e: unknown) => {
    process.stderr.write(`mutation: ${e instanceof Error ? e.message : String(e)}\n`);
    process.exit(EXIT.badSetting);
  },
);
