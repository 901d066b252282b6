// Figure 8: a slow participant — a sandbox child behind bench/servers/latency.ts holding every answer `delayMs`
// (1 s: a real synchronizer's submit-and-wait can take that) — and the whole suite on the harness's defaults (no
// LEDGER_TIMEOUT_SCALE, no LEDGER_WORKERS): the timeout scale the global setup measures must give every test
// its verdict, the same verdict as without the delay. Side by side in the same run: the suite behind a proxy
// adding nothing (the verdicts to match) and, unless left out, the delayed suite with LEDGER_TIMEOUT_SCALE=1
// (the timeouts as they were before the harness measured them).
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { cleanEnv, SANDBOX_ADMIN, startChild, type Child } from '../lib/child';
import { measured, table, type Section } from '../lib/report';
import { runCommand } from '../lib/run';
import { fmt, s, verdict } from '../lib/stats';
import type { Workdir } from '../lib/workdir';
import { count, differing, differingCell, readMatrix, verdictsCell } from '../lib/verdicts';
import { playwrightCommand } from '../../scripts/run/playwright-cli';

interface Outcome {
  name: string;
  setting: string;
  wallMs: number;
  code: number;
  requests: number;
  scaleLine: string;
  verdicts: Record<string, string>;
}

/** The suite once through `proxy`, its reports in their own folder: verdicts per test, the scale it chose. */
async function suite(
  work: Workdir,
  proxy: Child,
  name: string,
  env: Record<string, string>,
): Promise<Outcome> {
  const reports = join(work.dir, `bench-slow-${name}`);
  const run = await runCommand(process.execPath, playwrightCommand('test'), {
    cwd: work.dir,
    env: cleanEnv({ ...SANDBOX_ADMIN, LEDGER_BASE_URL: proxy.url, LEDGER_REPORTS_DIR: reports, ...env }),
    log: join(work.dir, `bench-slow-${name}.log`),
    // Never cut short: a run that waits out its timeouts is what the control shows.
    timeoutMs: 30 * 60_000,
  });
  const { requests } = await proxy.ask<{ requests: number }>({ type: 'count' });
  const target = JSON.parse(readFileSync(join(reports, 'target.json'), 'utf8')) as {
    timeoutScale: number;
    timeoutScaleSource?: string;
  };
  return {
    name,
    setting: env.LEDGER_TIMEOUT_SCALE ?? 'unset',
    wallMs: run.wallMs,
    code: run.code,
    requests,
    scaleLine: `${target.timeoutScale}${target.timeoutScaleSource ? ` (${target.timeoutScaleSource})` : ''}`,
    verdicts: readMatrix(reports).verdicts,
  };
}

export async function slow(work: Workdir, opts: { delayMs: number; control: boolean }): Promise<Section> {
  return measured(
    `8. The suite against a slow participant (every answer held ${s(opts.delayMs, 1)})`,
    async () => {
      const sandbox = await startChild('bench/servers/sandbox.ts', { env: { SANDBOX_CONTROL: 'true' } });
      const near = await startChild('bench/servers/latency.ts', {
        env: { BENCH_UPSTREAM: sandbox.url, BENCH_LATENCY_MS: '0' },
      });
      const far = await startChild('bench/servers/latency.ts', {
        env: { BENCH_UPSTREAM: sandbox.url, BENCH_LATENCY_MS: String(opts.delayMs) },
      });
      const runs: Outcome[] = [];
      try {
        runs.push(await suite(work, near, 'no-delay', {}));
        runs.push(await suite(work, far, 'delayed', {}));
        if (opts.control) runs.push(await suite(work, far, 'delayed-scale-1', { LEDGER_TIMEOUT_SCALE: '1' }));
      } finally {
        await far.stop();
        await near.stop();
        await sandbox.stop();
      }
      const [reference, delayed] = runs as [Outcome, Outcome];
      const judged = (o: Outcome): { differ: string[]; met: boolean } => {
        const differ = differing(o.verdicts, reference.verdicts);
        return { differ, met: count(o.verdicts, 'inconclusive') === 0 && differ.length === 0 };
      };
      const result = judged(delayed);
      const rows = runs.map((o) => {
        const { differ } = judged(o);
        const delay = o === reference ? 0 : opts.delayMs;
        return [
          o === reference ? 'none' : s(delay),
          o.setting,
          o.scaleLine,
          `**${s(o.wallMs)}**`,
          fmt(o.requests),
          verdictsCell(o.verdicts, o.code),
          o === reference ? '—' : differingCell(differ),
          o === delayed ? verdict(result.met) : '—',
        ];
      });
      return {
        summary: [
          `participant answering in ${s(opts.delayMs, 1)}, no timeout setting: ${count(delayed.verdicts, 'inconclusive')} inconclusive, ${result.differ.length} verdicts unlike the run without the delay, in ${s(delayed.wallMs)} — target 0 and 0 ${verdict(result.met)}`,
        ],
        body: [
          `\`playwright test\` (the project's config, its default workers) in a private copy of the project, LEDGER_BASE_URL = a proxy in front of one sandbox child (SANDBOX_CONTROL=true) that holds every answer the delay shown before it sends it on. Each run's verdicts are the rule matrix's (reports/conformance.json), compared test by test with the run without the delay; the timeout scale is the one its run-information block printed (reports/target.json).`,
          '',
          ...table(
            [
              'delay',
              'LEDGER_TIMEOUT_SCALE',
              'timeout scale of the run',
              'wall',
              'requests',
              'verdicts',
              'tests unlike the run without the delay',
              '0 inconclusive, same verdicts',
            ],
            rows,
          ),
          '',
          'Unless LEDGER_TIMEOUT_SCALE is set, the global setup times a version read and one submission and scales the test, request and expect timeouts to the slower (scripts/run/pace.ts; docs/running.md, "Timeouts").' +
            (opts.control
              ? ' The run with LEDGER_TIMEOUT_SCALE=1 shows what the timeouts as they were make of the same participant: the tests that wait on the most answers one after the other run out of their time.'
              : ''),
        ],
      };
    },
  );
}
