// The child of ./preflight-batch.ts: runs `npm run preflight`'s main once per case given as JSON in its argument,
// each with the environment it started with plus the case's settings (as a process of its own would have it),
// and prints every case's exit code, stdout and stderr as JSON. process.exit during a case (a wrong setting ends
// the command at once) ends that case with its code; an uncaught error, with 1 and the error on stderr.
import { main } from '../../scripts/preflight/preflight';
import { caughtOutput } from './caught-output';
import type { ChildOutcome } from './child-run';

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

async function one(base: NodeJS.ProcessEnv, settings: Record<string, string>): Promise<ChildOutcome> {
  for (const k of Object.keys(process.env)) delete process.env[k];
  Object.assign(process.env, base, settings);
  const exit = process.exit.bind(process);
  process.exit = (code?: number | string | null) => {
    throw new Exit(Number(code ?? 0));
  };
  try {
    const ran = await caughtOutput(main);
    const { stdout, stderr } = ran;
    if (ran.ok) return { status: ran.value, stdout, stderr };
    if (ran.error instanceof Exit) return { status: ran.error.code, stdout, stderr };
    return { status: 1, stdout, stderr: `${stderr}${(ran.error as Error).stack ?? String(ran.error)}\n` };
  } finally {
    process.exit = exit;
  }
}

async function batch(): Promise<void> {
  const cases = JSON.parse(process.argv[2]!) as Record<string, string>[];
  // As `node --require tsx/cjs scripts/preflight/preflight.ts` has them: no argument.
  process.argv = [process.argv[0]!, require.resolve('../../scripts/preflight/preflight')];
  const base = { ...process.env };
  const outcomes: ChildOutcome[] = [];
  for (const settings of cases) outcomes.push(await one(base, settings));
  process.stdout.write(JSON.stringify(outcomes));
  process.exit(0);
}

void batch();
