// Figure 11: a busy participant — a sandbox child answering a seeded share of its requests with Canton's
// transient errors (SANDBOX_BUSY: 503 TransientServerFailure and 409 ContentionOnSharedResources, each with
// Canton's own retryInfo "1 second"; sandbox/busy.ts) — and the whole suite on the harness's defaults: every test
// must get a quiet run's verdict, and the figure is what asking again costs. Side by side in the same run: the
// quiet sandbox (the verdicts to match and the time to compare with), 5% and 20% of answers busy.
import { join } from 'node:path';
import { cleanEnv, startChild } from '../lib/child';
import { measured, table, type Section } from '../lib/report';
import { runCommand } from '../lib/run';
import { s } from '../lib/stats';
import type { Workdir } from '../lib/workdir';
import { count, differing, differingCell, readMatrix, verdictsCell } from '../lib/verdicts';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { tallyTotal } from '../../core/transient-tally';

interface Outcome {
  busy: string;
  wallMs: number;
  code: number;
  retried: number;
  verdicts: Record<string, string>;
}

/** The whole suite against a sandbox child with `busy` of its answers transient (0: quiet). */
async function suite(work: Workdir, busy: string): Promise<Outcome> {
  const sandbox = await startChild('bench/servers/sandbox.ts', {
    env: { SANDBOX_CONTROL: 'true', SANDBOX_BUSY: busy, SANDBOX_BUSY_SEED: '1' },
  });
  const reports = join(work.dir, `bench-busy-${busy}`);
  try {
    const run = await runCommand(process.execPath, playwrightCommand('test'), {
      cwd: work.dir,
      env: cleanEnv({ LEDGER_BASE_URL: sandbox.url, LEDGER_REPORTS_DIR: reports }),
      log: join(work.dir, `bench-busy-${busy}.log`),
      timeoutMs: 30 * 60_000,
    });
    const matrix = readMatrix(reports);
    return {
      busy,
      wallMs: run.wallMs,
      code: run.code,
      retried: tallyTotal(matrix.transientRetried ?? {}),
      verdicts: matrix.verdicts,
    };
  } finally {
    await sandbox.stop();
  }
}

const pct = (busy: string): string => `${Math.round(Number(busy) * 100)}%`;

export async function busyParticipant(work: Workdir): Promise<Section> {
  return measured('11. The suite against a busy participant (5% and 20% of answers transient)', async () => {
    const runs: Outcome[] = [];
    for (const busy of ['0', '0.05', '0.2']) runs.push(await suite(work, busy));
    const [quiet, ...busy] = runs as [Outcome, ...Outcome[]];
    const rows = runs.map((o) => {
      return [
        o === quiet ? 'none (quiet)' : pct(o.busy),
        `**${s(o.wallMs)}**`,
        o === quiet ? '—' : `+${s(o.wallMs - quiet.wallMs)} (×${(o.wallMs / quiet.wallMs).toFixed(2)})`,
        String(o.retried),
        verdictsCell(o.verdicts, o.code),
        o === quiet ? '—' : differingCell(differing(o.verdicts, quiet.verdicts)),
      ];
    });
    return {
      summary: busy.map(
        (o) =>
          `participant answering ${pct(o.busy)} of requests busy: ${o.retried} answers retried, ${count(o.verdicts, 'inconclusive')} inconclusive, ${differing(o.verdicts, quiet.verdicts).length} verdicts unlike the quiet run, ${s(o.wallMs)} against ${s(quiet.wallMs)} quiet`,
      ),
      body: [
        '`playwright test` (the project’s config, its default workers) in a private copy of the project, LEDGER_BASE_URL = a sandbox child (SANDBOX_CONTROL=true) with SANDBOX_BUSY at the share shown (seed 1): that share of its requests to /v2/… is answered 503 INDEX_DB_SQL_TRANSIENT_ERROR or 409 PARTICIPANT_BACKPRESSURE with Canton’s retryInfo "1 second" instead of being served. The harness waits what each answer asks before it sends the request again (core/retry.ts; docs/canton-behaviour.md, "What the harness retries"), so the cost is about one second per retried answer, spread over the workers.',
        '',
        ...table(
          ['busy answers', 'wall', 'cost', 'answers retried', 'verdicts', 'tests unlike the quiet run'],
          rows,
        ),
      ],
    };
  });
}
