// Figure 9: the whole suite against participants of growing size — the default topology (6 entries) and one
// synchronizer of 600, 2,000 and 10,000 entries — each answering at once, in 40 ms and in 100 ms (a proxy holding
// every answer, bench/servers/latency.ts), quiet and with one vetting change a second
// (SANDBOX_VETTING_CHANGES_PER_SECOND=1). Side by side in one run: time, requests and verdicts of each, and their
// ratio to the default topology's run at the same latency and churn. The targets (docs/vetting-live.md): at
// 2,000 entries, 100 ms, churning: 0 inconclusive, the default topology's verdicts, time and requests ≤ 2×; at
// 10,000 entries, quiet, 40 ms: 0 inconclusive, requests ≤ 2×.
import { join } from 'node:path';
import { cleanEnv, SANDBOX_ADMIN, startChild } from '../lib/child';
import { measured, table, type Section } from '../lib/report';
import { runCommand } from '../lib/run';
import { fmt, s, verdict } from '../lib/stats';
import type { Workdir } from '../lib/workdir';
import { count, differing, readMatrix, verdictsCell } from '../lib/verdicts';
import { playwrightCommand } from '../../scripts/run/playwright-cli';

interface Topology {
  entries: number;
  env: Record<string, string>;
}

interface Outcome {
  topology: Topology;
  latencyMs: number;
  churn: number;
  wallMs: number;
  code: number;
  requests: number;
  vettingLine: string;
  verdicts: Record<string, string>;
}

const TOPOLOGIES: Topology[] = [
  { entries: 6, env: {} },
  ...[600, 2_000, 10_000].map((n) => ({
    entries: n,
    env: { SANDBOX_SYNCHRONIZERS: '1', SANDBOX_PARTICIPANTS: String(n) },
  })),
];

async function run(work: Workdir, topology: Topology, latencyMs: number, churn: number): Promise<Outcome> {
  const name = `scale-${topology.entries}-${latencyMs}ms-${churn}`;
  const sandbox = await startChild('bench/servers/sandbox.ts', {
    env: {
      SANDBOX_CONTROL: 'true',
      SANDBOX_VETTING_CHANGES_PER_SECOND: String(churn),
      ...topology.env,
    },
  });
  const proxy = await startChild('bench/servers/latency.ts', {
    env: { BENCH_UPSTREAM: sandbox.url, BENCH_LATENCY_MS: String(latencyMs) },
  });
  try {
    const reports = join(work.dir, `bench-${name}`);
    const result = await runCommand(process.execPath, playwrightCommand('test'), {
      cwd: work.dir,
      env: cleanEnv({ ...SANDBOX_ADMIN, LEDGER_BASE_URL: proxy.url, LEDGER_REPORTS_DIR: reports }),
      log: join(work.dir, `bench-${name}.log`),
      timeoutMs: 30 * 60_000,
    });
    const { requests } = await proxy.ask<{ requests: number }>({ type: 'count' });
    return {
      topology,
      latencyMs,
      churn,
      wallMs: result.wallMs,
      code: result.code,
      requests,
      vettingLine: /^\s+vetting\s+(.*)$/m.exec(result.output)?.[1] ?? '—',
      verdicts: readMatrix(reports).verdicts,
    };
  } finally {
    await proxy.stop();
    await sandbox.stop();
  }
}

/** Each test whose verdict differs from the reference run's: its rule id, the reference's verdict → this one's. */
const changes = (o: Outcome, reference: Outcome): string[] =>
  differing(o.verdicts, reference.verdicts).map(
    (t) => `${t.split(' ')[0]} ${reference.verdicts[t] ?? '—'}→${o.verdicts[t] ?? '—'}`,
  );

export async function scale(
  work: Workdir,
  opts: { entries: number[]; latencies: number[]; churns: number[] },
): Promise<Section> {
  return measured('9. Scale: the suite against large and live participants', async () => {
    const runs: Outcome[] = [];
    for (const latencyMs of opts.latencies)
      for (const churn of opts.churns)
        for (const topology of TOPOLOGIES.filter((t) => opts.entries.includes(t.entries)))
          runs.push(await run(work, topology, latencyMs, churn));
    // The reference of each run: the quiet default topology at the same latency.
    const reference = (o: Outcome): Outcome | undefined =>
      runs.find((r) => r.topology.entries === 6 && r.latencyMs === o.latencyMs && r.churn === 0);
    const ratios = (o: Outcome) => {
      const ref = reference(o);
      return ref ? { time: o.wallMs / ref.wallMs, requests: o.requests / ref.requests, ref } : undefined;
    };
    // A rule that skips at this size when quiet too skips for what the topology lacks (a second synchronizer),
    // not for its size or its churn.
    const quietTwin = (o: Outcome): Outcome | undefined =>
      runs.find((r) => r.topology === o.topology && r.latencyMs === o.latencyMs && r.churn === 0);
    const unexplained = (o: Outcome, ref: Outcome): string[] =>
      changes(o, ref).filter((d) => {
        const [rule] = d.split(' ');
        const title = Object.keys(o.verdicts).find((t) => t.split(' ')[0] === rule);
        const twin = quietTwin(o);
        return !(title && o.verdicts[title] === 'skip' && twin?.verdicts[title] === 'skip');
      });
    const target = (o: Outcome): { met: boolean; what: string } | undefined => {
      const r = ratios(o);
      if (!r) return undefined;
      const same = unexplained(o, r.ref).length === 0;
      const clean = o.code === 0 && count(o.verdicts, 'inconclusive') === 0;
      if (o.topology.entries === 2_000 && o.latencyMs === 100 && o.churn > 0)
        return {
          met: clean && same && r.time <= 2 && r.requests <= 2,
          what: 'time, requests ≤ 2×, same verdicts',
        };
      if (o.topology.entries === 10_000 && o.latencyMs === 40 && o.churn === 0)
        return { met: clean && r.requests <= 2, what: 'requests ≤ 2×' };
      return undefined;
    };
    const rows = runs.map((o) => {
      const r = ratios(o);
      const t = target(o);
      const diff = r ? changes(o, r.ref) : [];
      return [
        fmt(o.topology.entries),
        `${o.latencyMs} ms`,
        o.churn > 0 ? `${o.churn}/s` : 'quiet',
        s(o.wallMs, 1),
        fmt(o.requests),
        r ? `${fmt(r.time, 2)}× / ${fmt(r.requests, 2)}×` : '—',
        verdictsCell(o.verdicts, o.code),
        diff.length === 0 ? 'none' : diff.join(', '),
        o.vettingLine,
        t ? `${t.what}: ${verdict(t.met)}` : '—',
      ];
    });
    const judged = runs.flatMap((o) => (target(o) ? [{ o, t: target(o)! }] : []));
    return {
      summary: judged.map(
        ({ o, t }) =>
          `scale: ${fmt(o.topology.entries)} entries, ${o.latencyMs} ms, ${o.churn > 0 ? `${o.churn} change/s` : 'quiet'}: ${s(o.wallMs, 1)}, ${fmt(o.requests)} requests (${fmt(ratios(o)!.time, 2)}× / ${fmt(ratios(o)!.requests, 2)}× the default topology), ${count(o.verdicts, 'inconclusive')} inconclusive — ${t.what} ${verdict(t.met)}`,
      ),
      body: [
        '`playwright test` (the whole suite, the harness defaults) in a private copy of the project; LEDGER_BASE_URL = a proxy holding every answer the latency shown, in front of one sandbox child (SANDBOX_CONTROL=true) of the size shown (6: the default topology, two synchronizers; otherwise one synchronizer of that many participants) and the churn shown (SANDBOX_VETTING_CHANGES_PER_SECOND). Requests are counted at the proxy; verdicts are the rule matrix (reports/conformance.json), compared test by test with the quiet default topology at the same latency, as are time and requests (ratio: time / requests). The `vetting` column is the run-information line (the size the run found).',
        '',
        ...table(
          [
            'entries',
            'latency',
            'churn',
            'wall',
            'requests',
            '× default (time / requests)',
            'verdicts',
            'verdicts unlike the quiet default',
            'run information',
            'target',
          ],
          rows,
        ),
      ],
    };
  });
}
