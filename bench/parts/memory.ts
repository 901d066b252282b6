// Figure 4: the sandbox's heap after 10⁵ submissions vs after 10⁴, in one child run with --expose-gc (heap
// used after a full GC). The stores are capped at 10⁴ (SANDBOX_MAX_CONTRACTS, SANDBOX_MAX_DEDUP_ENTRIES), so
// from 10⁴ submissions on they are full and evict: a bounded sandbox's heap stays flat from there.
import { startChild } from '../lib/child';
import { devToken, PATHS, submitBodies } from '../lib/ledger';
import { measured, table, type Section } from '../lib/report';
import { fmt, mib, s, verdict } from '../lib/stats';
import { cannon } from './throughput';

export interface MemoryOptions {
  /** Submissions at the two checkpoints (10⁴ and 10⁵ in the full run). */
  small: number;
  large: number;
  connections: number;
}

const DEFAULT_CAPS = { contracts: 100_000, dedup: 250_000 };

export async function memory(opts: MemoryOptions): Promise<Section> {
  const title = `4. Sandbox heap after ${fmt(opts.large)} vs after ${fmt(opts.small)} submissions`;
  return measured(title, async () => {
    const cap = opts.small;
    const child = await startChild('bench/servers/sandbox.ts', {
      nodeArgs: ['--expose-gc'],
      env: { SANDBOX_MAX_CONTRACTS: String(cap), SANDBOX_MAX_DEDUP_ENTRIES: String(cap) },
    });
    try {
      const auth = { authorization: `Bearer ${await devToken()}` };
      const bodies = submitBodies(`bench-mem-${Date.now().toString(36)}`);
      let seq = 0;
      const load = {
        method: 'POST' as const,
        path: PATHS.submit,
        headers: auth,
        bodyFor: () => bodies(++seq),
      };
      const heap = async () => (await child.ask<{ memory: NodeJS.MemoryUsage }>({ type: 'gc' })).memory;
      const m0 = await heap();
      const t1 = Date.now();
      const r1 = await cannon(child.url, load, { connections: opts.connections, amount: opts.small });
      const d1 = Date.now() - t1;
      const m1 = await heap();
      const t2 = Date.now();
      const r2 = await cannon(child.url, load, {
        connections: opts.connections,
        amount: opts.large - opts.small,
      });
      const d2 = Date.now() - t2;
      const m2 = await heap();
      const accepted = (r: typeof r1): string => r.statuses;
      const ratio = m2.heapUsed / m1.heapUsed;
      const valid = r1.non2xx === 0 && r2.non2xx === 0 && r1.errors === 0 && r2.errors === 0;
      const met = valid && ratio <= 1.2;
      const perSubmission = (m1.heapUsed - m0.heapUsed) / opts.small;
      const projected = m0.heapUsed + perSubmission * Math.max(DEFAULT_CAPS.contracts, DEFAULT_CAPS.dedup);
      const row = (name: string, m: NodeJS.MemoryUsage, extra: string): string[] => [
        name,
        `**${mib(m.heapUsed)}**`,
        mib(m.heapTotal),
        mib(m.external),
        mib(m.rss),
        extra,
      ];
      return {
        summary: [
          `heap after ${fmt(opts.large)} submissions ${mib(m2.heapUsed)} vs after ${fmt(opts.small)} ${mib(m1.heapUsed)} (×${fmt(ratio, 2)}) — target bounded, ≤ 1.2× ${verdict(met)}`,
        ],
        body: [
          `One sandbox child (\`node --expose-gc\`), stores capped at ${fmt(cap)} contracts and ${fmt(cap)} deduplication entries; the harness's default submission (create an Asset and transfer it: one active contract and one deduplication entry each), unique commandIds, ${opts.connections} connections; heap read after two full GCs.`,
          '',
          ...table(
            ['after', 'heap used', 'heap total', 'external', 'rss', 'submissions'],
            [
              row('start', m0, '—'),
              row(`${fmt(opts.small)} submissions`, m1, `${accepted(r1)} in ${s(d1, 1)}`),
              row(`${fmt(opts.large)} submissions`, m2, `${accepted(r2)} more in ${s(d2, 1)}`),
            ],
          ),
          '',
          `**×${fmt(ratio, 2)}** heap used from ${fmt(opts.small)} to ${fmt(opts.large)} submissions — target: bounded (≤ 1.2× once the stores are full): ${verdict(met)}.`,
          `Growth while the stores fill: ${fmt(perSubmission)} bytes per submission (one contract + one deduplication entry); at the default caps (${fmt(DEFAULT_CAPS.contracts)} contracts, ${fmt(DEFAULT_CAPS.dedup)} deduplication entries) the heap is therefore bounded by about ${mib(projected, 0)} (an over-estimate: a deduplication entry alone is smaller than a submission's share).`,
        ],
      };
    } finally {
      await child.stop();
    }
  });
}
