// Figure 7: the suite against a participant far away — a sandbox child behind bench/servers/latency.ts, which
// holds every answer 40 ms — with 4, 8 and 16 workers, each set with LEDGER_WORKERS (whatever this machine's
// default). The participant's floor for N workers is the chain of answers they wait for: requests × latency / N.
// A run bounded by the participant stays near that floor; what is above it is the harness (its start and tail,
// and its CPU per request, figure 5). The default for a remote target (core/settings.ts, chooseWorkers) is
// checked against this figure: the fastest count up to its cap is the one the summary states.
import { join } from 'node:path';
import { cleanEnv, SANDBOX_ADMIN, startChild } from '../lib/child';
import { measured, table, type Section } from '../lib/report';
import { playwrightSummary, runCommand } from '../lib/run';
import { fmt, ms, s, verdict } from '../lib/stats';
import type { Workdir } from '../lib/workdir';
import { playwrightCommand } from '../../scripts/run/playwright-cli';
import { REMOTE_WORKERS_CAP } from '../../core/settings';

export async function latency(
  work: Workdir,
  opts: { latencyMs: number; workers: number[] },
): Promise<Section> {
  return measured(
    `7. The suite against a participant ${opts.latencyMs} ms away (workers ${opts.workers.join(', ')})`,
    async () => {
      const sandbox = await startChild('bench/servers/sandbox.ts', { env: { SANDBOX_CONTROL: 'true' } });
      const proxy = await startChild('bench/servers/latency.ts', {
        env: { BENCH_UPSTREAM: sandbox.url, BENCH_LATENCY_MS: String(opts.latencyMs) },
      });
      const rows: string[][] = [];
      let best: { workers: number; wallMs: number; floorMs: number; met: boolean } | undefined;
      try {
        for (const workers of opts.workers) {
          const run = await runCommand(process.execPath, playwrightCommand('test'), {
            cwd: work.dir,
            env: cleanEnv({ ...SANDBOX_ADMIN, LEDGER_BASE_URL: proxy.url, LEDGER_WORKERS: String(workers) }),
            log: join(work.dir, `bench-latency-${workers}.log`),
          });
          const { requests } = await proxy.ask<{ requests: number }>({ type: 'count' });
          const pw = playwrightSummary(run.output);
          const floorMs = (requests * opts.latencyMs) / workers;
          const met = run.code === 0 && run.wallMs <= 2 * floorMs + 3000;
          if (workers <= REMOTE_WORKERS_CAP && (!best || run.wallMs < best.wallMs))
            best = { workers, wallMs: run.wallMs, floorMs, met };
          rows.push([
            `${workers}`,
            `**${s(run.wallMs)}**`,
            s(floorMs),
            `×${fmt(run.wallMs / floorMs, 2)}`,
            `${fmt(run.cpuSeconds, 2)} s (${ms((run.cpuSeconds * 1000) / requests)} per request)`,
            fmt(requests),
            `${pw.passed} passed, ${pw.failed} failed, ${pw.skipped} skipped${run.code ? ` (exit ${run.code})` : ''}`,
            verdict(met),
          ]);
        }
      } finally {
        await proxy.stop();
        await sandbox.stop();
      }
      return {
        summary: best
          ? [
              `participant ${opts.latencyMs} ms away, fastest with at most ${REMOTE_WORKERS_CAP} workers: ${best.workers} workers, ${s(best.wallMs)} vs its floor ${s(best.floorMs)} — target ≤ 2 × floor + 3 s ${verdict(best.met)}`,
            ]
          : [],
        body: [
          `\`LEDGER_WORKERS=N playwright test\` in a private copy of the project, LEDGER_BASE_URL = a proxy that holds every answer of a sandbox child (SANDBOX_CONTROL=true) ${opts.latencyMs} ms. Floor = requests × ${opts.latencyMs} ms / N: each worker waiting on its answers one after the other, nothing else. CPU: the runner and its workers (not the sandbox or the proxy).`,
          '',
          ...table(
            [
              'workers',
              'wall',
              'participant floor',
              'wall / floor',
              'harness CPU',
              'requests',
              'verdicts',
              '≤ 2 × floor + 3 s',
            ],
            rows,
          ),
          '',
          `A remote participant is waited on, not computed: a worker spends most of a request idle, so more workers than cores keep the participant the bound until the harness CPU (per request, times requests, over the cores) or the participant itself saturates. Hence the default for a remote target: twice the cores, at most ${REMOTE_WORKERS_CAP} (core/settings.ts; docs/running.md, "Workers").`,
        ],
      };
    },
  );
}
