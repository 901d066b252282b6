// Figures 2 and 3 on a 10⁵-entry listing (10 synchronizers × 10 000 participants): the cost of the first vs
// the last page (many alternating repetitions, medians), and a full walk with pages of the max size — each
// next to the bare fastify floor answering the same number of sequential requests with pages of the same size.
import { performance } from 'node:perf_hooks';
import { Client } from 'undici';
import { startChild, type Child } from '../lib/child';
import { devToken, PATHS } from '../lib/ledger';
import { measured, table, type Section } from '../lib/report';
import { fmt, median, ms, quantile, s, verdict } from '../lib/stats';

export interface PagingOptions {
  walks: number;
  repetitions: number;
}

interface Page {
  status: number;
  entries: number;
  bytes: number;
  nextPageToken: string;
}

async function fetchPage(client: Client, auth: string, path: string, body: object): Promise<Page> {
  const res = await client.request({
    method: 'POST',
    path,
    headers: { 'content-type': 'application/json', authorization: auth },
    body: JSON.stringify(body),
  });
  const text = await res.body.text();
  const json = JSON.parse(text) as { vettedPackages?: unknown[]; nextPageToken?: string };
  return {
    status: res.statusCode,
    entries: json.vettedPackages?.length ?? 0,
    bytes: Buffer.byteLength(text),
    nextPageToken: json.nextPageToken ?? '',
  };
}

interface Walk {
  ms: number;
  requests: number;
  entries: number;
  bytes: number;
  /** The token that fetches the last non-empty page. */
  lastToken: string;
  middleToken: string;
}

/** Follows nextPageToken from the first page until an empty page or an empty token, as a client does. */
async function walk(client: Client, auth: string, pageSize: number): Promise<Walk> {
  const tokens: string[] = [];
  let token = '';
  let entries = 0;
  let bytes = 0;
  let requests = 0;
  const t = performance.now();
  for (;;) {
    const page = await fetchPage(
      client,
      auth,
      PATHS.list,
      token ? { pageSize, pageToken: token } : { pageSize },
    );
    requests += 1;
    if (page.status !== 200) throw new Error(`page ${requests} answered HTTP ${page.status}`);
    bytes += page.bytes;
    if (page.entries === 0) break;
    tokens.push(token);
    entries += page.entries;
    if (!page.nextPageToken) break;
    token = page.nextPageToken;
  }
  return {
    ms: performance.now() - t,
    requests,
    entries,
    bytes,
    lastToken: tokens[tokens.length - 1] ?? '',
    middleToken: tokens[Math.floor(tokens.length / 2)] ?? '',
  };
}

async function timed(f: () => Promise<unknown>): Promise<number> {
  const t = performance.now();
  await f();
  return performance.now() - t;
}

export async function paging(opts: PagingOptions): Promise<Section[]> {
  const sandbox: Child = await startChild('bench/servers/sandbox.ts', {
    env: { SANDBOX_SYNCHRONIZERS: '10', SANDBOX_PARTICIPANTS: '10000' },
  });
  let floor: Child | undefined;
  let floorClient: Client | undefined;
  const client = new Client(sandbox.url);
  try {
    const auth = `Bearer ${await devToken()}`;
    const version = (await (await fetch(`${sandbox.url}${PATHS.version}`)).json()) as {
      features: { packageFeature: { maxVettedPackagesPageSize: number } };
    };
    const pageSize = version.features.packageFeature.maxVettedPackagesPageSize;

    // Figure 3 first: the walks also yield the tokens of the middle and the last page.
    const walks: Walk[] = [];
    const floorWalks: number[] = [];
    const walkSection = await measured('3. Full walk of the 10⁵-entry listing vs the floor', async () => {
      walks.push(await walk(client, auth, pageSize)); // warm-up walk, also sizes the floor's page
      const w0 = walks[0]!;
      floor = await startChild('bench/servers/floor.ts', {
        env: { BENCH_FLOOR_PAGE_BYTES: String(Math.round(w0.bytes / w0.requests)) },
      });
      floorClient = new Client(floor.url);
      const fc = floorClient;
      const floorWalk = async (): Promise<number> =>
        timed(async () => {
          for (let i = 0; i < w0.requests; i++)
            await fetchPage(fc, auth, '/page', { pageSize, pageToken: w0.lastToken });
        });
      await floorWalk(); // warm-up
      for (let i = 0; i < opts.walks; i++) {
        floorWalks.push(await floorWalk());
        walks.push(await walk(client, auth, pageSize));
      }
      const measuredWalks = walks.slice(1);
      const w = median(measuredWalks.map((x) => x.ms));
      const f = median(floorWalks);
      const met = w <= 3000 && measuredWalks.every((x) => x.entries === w0.entries);
      return {
        summary: [
          `full walk of ${fmt(w0.entries)} entries: ${s(w)} vs floor ${s(f)} — target ≤ 3 s ${verdict(met)}`,
        ],
        body: [
          `Pages of the max size (${pageSize}, from /v2/version), one keep-alive connection, each response parsed for its nextPageToken; ${opts.walks} measured walks after a warm-up walk, alternating with the floor (the same number of sequential POSTs to a bare fastify answering a fixed page of the same average size, ${fmt(w0.bytes / w0.requests)} bytes, also parsed).`,
          '',
          ...table(
            ['walk', 'entries', 'requests', 'bytes', 'median', 'all walks', 'target'],
            [
              [
                'sandbox',
                fmt(w0.entries),
                fmt(w0.requests),
                `${fmt(w0.bytes / 2 ** 20, 1)} MiB`,
                `**${s(w)}**`,
                measuredWalks.map((x) => s(x.ms)).join(', '),
                `≤ 3 s: ${verdict(met)}`,
              ],
              [
                'floor (bare fastify)',
                '—',
                fmt(w0.requests),
                `${fmt(w0.bytes / 2 ** 20, 1)} MiB`,
                s(f),
                floorWalks.map((x) => s(x)).join(', '),
                '—',
              ],
              ['sandbox − floor, per request', '', '', '', ms((w - f) / w0.requests, 3), '', ''],
            ],
          ),
        ],
      };
    });

    const pageSection = await measured('2. First vs last page of the 10⁵-entry listing', async () => {
      const w0 = walks[walks.length - 1]!;
      const cases = [
        { name: 'first page (no token)', body: { pageSize } },
        { name: 'middle page', body: { pageSize, pageToken: w0.middleToken } },
        { name: 'last page (its token from the walk)', body: { pageSize, pageToken: w0.lastToken } },
        {
          name: 'floor: bare fastify, a page of the same size',
          body: { pageSize, pageToken: w0.lastToken },
          floor: true,
        },
      ];
      const times: number[][] = cases.map(() => []);
      const entries: number[] = cases.map(() => 0);
      for (let r = 0; r < opts.repetitions; r++) {
        // Alternating (and rotating the order) so drift of the shared machine hits every case alike.
        for (let k = 0; k < cases.length; k++) {
          const i = (k + r) % cases.length;
          const c = cases[i]!;
          const cl = c.floor ? floorClient! : client;
          const t = performance.now();
          const page = await fetchPage(cl, auth, c.floor ? '/page' : PATHS.list, c.body);
          times[i]!.push(performance.now() - t);
          entries[i] = page.entries;
        }
      }
      const med = times.map((t) => median(t));
      const ratio = med[2]! / med[0]!;
      const met = ratio <= 1.5;
      return {
        summary: [
          `last/first page cost: ${fmt(ratio, 2)} (${ms(med[2]!)} vs ${ms(med[0]!)}) — target ≤ 1.5 ${verdict(met)}`,
        ],
        body: [
          `${fmt(w0.entries)} entries, pages of ${pageSize}; ${opts.repetitions} repetitions of each page, interleaved, client-side time of request + full response + JSON parse, one keep-alive connection.`,
          '',
          ...table(
            ['page', 'entries', 'median', 'p10', 'p90'],
            cases.map((c, i) => [
              c.name,
              c.floor ? '—' : fmt(entries[i]!),
              `**${ms(med[i]!, 3)}**`,
              ms(quantile(times[i]!, 0.1), 3),
              ms(quantile(times[i]!, 0.9), 3),
            ]),
          ),
          '',
          `**last/first = ${fmt(ratio, 2)}** (middle/first ${fmt(med[1]! / med[0]!, 2)}) — target ≤ 1.5: ${verdict(met)}.`,
        ],
      };
    });
    return [pageSection, walkSection];
  } finally {
    await Promise.all([client.close(), floorClient?.close()]);
    await Promise.all([sandbox.stop(), floor?.stop()]);
  }
}
