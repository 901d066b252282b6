// Figure 1: sandbox throughput per operation under autocannon on loopback, each next to the bare fastify
// floor measured just before it in the same run. The sandbox and the floor each run in their own child
// process; autocannon runs in the bench process.
import autocannon from 'autocannon';
import { startChild } from '../lib/child';
import { devToken, PATHS, submitBodies } from '../lib/ledger';
import { measured, table, type Operation, type Section } from '../lib/report';
import { fmt, verdict } from '../lib/stats';

export interface ThroughputOptions {
  durationSeconds: number;
  connections: number;
}

interface Load {
  method: 'GET' | 'POST';
  path: string;
  headers?: Record<string, string>;
  body?: string;
  /** A fresh body per request (unique commandIds across every run that shares the generator). */
  bodyFor?: () => string;
}

export interface CannonResult {
  rps: number;
  total: number;
  p50: number;
  p99: number;
  non2xx: number;
  errors: number;
  statuses: string;
}

export async function cannon(
  url: string,
  l: Load,
  opts: { duration?: number; amount?: number; connections: number },
): Promise<CannonResult> {
  const r = await autocannon({
    url,
    connections: opts.connections,
    ...(opts.amount !== undefined ? { amount: opts.amount } : { duration: opts.duration ?? 1 }),
    requests: [
      {
        method: l.method,
        path: l.path,
        headers: { ...(l.body || l.bodyFor ? { 'content-type': 'application/json' } : {}), ...l.headers },
        ...(l.body !== undefined ? { body: l.body } : {}),
        ...(l.bodyFor ? { setupRequest: (req: autocannon.Request) => ({ ...req, body: l.bodyFor!() }) } : {}),
      },
    ],
  });
  const statuses = Object.entries(r.statusCodeStats ?? {})
    .map(([code, v]) => `${code}×${v.count ?? 0}`)
    .join(' ');
  return {
    rps: r.requests.total / Math.max(r.duration, 1e-9),
    total: r.requests.total,
    p50: r.latency.p50,
    p99: r.latency.p99,
    non2xx: r.non2xx,
    errors: r.errors + r.timeouts,
    statuses,
  };
}

export async function throughput(opts: ThroughputOptions): Promise<Section> {
  return measured(
    '1. Sandbox throughput per operation vs a bare fastify (autocannon, loopback)',
    async () => {
      const [sandbox, floor] = await Promise.all([
        startChild('bench/servers/sandbox.ts'),
        startChild('bench/servers/floor.ts'),
      ]);
      try {
        const token = await devToken();
        const auth = { authorization: `Bearer ${token}` };
        const runId = `bench-${Date.now().toString(36)}`;
        const listBody = JSON.stringify({});
        const bodies = submitBodies(runId);
        let seq = 0;
        const nextSubmit = (): string => bodies(++seq);
        const ops: {
          key: Operation;
          name: string;
          target?: number;
          op: Load;
          floor: Load;
          floorName: string;
        }[] = [
          {
            key: 'version',
            name: 'version `GET /v2/version`',
            target: 10_000,
            op: { method: 'GET', path: PATHS.version },
            floor: { method: 'GET', path: '/hello' },
            floorName: '`GET /hello`',
          },
          {
            key: 'list',
            name: 'list `POST /v2/package-vetting/list` (default topology, first page)',
            op: { method: 'POST', path: PATHS.list, headers: auth, body: listBody },
            floor: { method: 'POST', path: '/hello', body: listBody },
            floorName: '`POST /hello` (JSON body parsed)',
          },
          {
            key: 'submit',
            name: 'submit `POST /v2/commands/submit-and-wait-for-transaction-tree` (unique commandIds)',
            target: 3_000,
            op: { method: 'POST', path: PATHS.submit, headers: auth, bodyFor: nextSubmit },
            floor: { method: 'POST', path: '/hello', headers: auth, bodyFor: nextSubmit },
            floorName: '`POST /hello` with the same bodies',
          },
        ];
        const rows: string[][] = [];
        const summary: string[] = [];
        const c = { connections: opts.connections };
        for (const o of ops) {
          // A short warm-up of each side (JIT, connections), then the measured runs, the floor first.
          await cannon(floor.url, o.floor, { ...c, duration: 1 });
          const f = await cannon(floor.url, o.floor, { ...c, duration: opts.durationSeconds });
          await cannon(sandbox.url, o.op, { ...c, duration: 1 });
          const r = await cannon(sandbox.url, o.op, { ...c, duration: opts.durationSeconds });
          const valid = r.non2xx === 0 && r.errors === 0;
          const met = o.target === undefined ? undefined : valid && r.rps >= o.target;
          rows.push([
            o.name,
            `**${fmt(r.rps)}**`,
            `${fmt(f.rps)} (${o.floorName})`,
            `${fmt((100 * r.rps) / f.rps)} %`,
            `${r.p50} / ${r.p99} ms`,
            `${f.p50} / ${f.p99} ms`,
            `${r.statuses}${r.errors ? ` errors×${r.errors}` : ''}`,
            o.target === undefined ? '—' : `≥ ${fmt(o.target)}: ${verdict(met === true)}`,
          ]);
          summary.push(
            `${o.key}: ${fmt(r.rps)} req/s vs floor ${fmt(f.rps)}${o.target === undefined ? '' : ` — target ≥ ${fmt(o.target)} ${verdict(met === true)}`}`,
          );
        }
        return {
          summary,
          body: [
            `${opts.connections} connections, ${opts.durationSeconds} s per measurement after a 1 s warm-up, the floor measured just before each operation.`,
            '',
            ...table(
              [
                'operation',
                'sandbox req/s',
                'floor req/s',
                'sandbox/floor',
                'sandbox p50/p99',
                'floor p50/p99',
                'sandbox statuses',
                'target',
              ],
              rows,
            ),
          ],
        };
      } finally {
        await Promise.all([sandbox.stop(), floor.stop()]);
      }
    },
  );
}
