// Where the sandbox spends a request: the same load as figure 1 against a sandbox child started with
// `node --cpu-prof`, the profile summarised (self time by area and function, inclusive time of the sandbox's
// own functions). Profiles are kept in bench/profiles/ (not committed) for Chrome DevTools / speedscope.
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, startChild } from '../lib/child';
import { loadConfig } from '../../sandbox/config';
import { versionResponse } from '../../sandbox/routes/version';
import { CATEGORIES, summarise, type Share } from '../lib/cpuprofile';
import { devToken, PATHS, submitBodies } from '../lib/ledger';
import { table, type Facts, type Operation } from '../lib/report';
import { fmt } from '../lib/stats';
import { cannon } from './throughput';

/**
 * What `JSON.stringify(body)` costs when body is the version route's pre-serialised Buffer (Buffer#toJSON turns
 * it into an array of its bytes), next to the `Buffer.isBuffer` check that decides it is not needed.
 */
function bufferStringify(): { bytes: number; stringifyUs: number; isBufferUs: number } {
  const body = Buffer.from(JSON.stringify(versionResponse(loadConfig({}))));
  const per = (f: () => unknown, n: number): number => {
    const t = process.hrtime.bigint();
    for (let i = 0; i < n; i++) f();
    return Number(process.hrtime.bigint() - t) / n / 1000;
  };
  const runs = [0, 1, 2].map(() => ({
    stringifyUs: per(() => JSON.stringify(body), 5_000),
    isBufferUs: per(() => Buffer.isBuffer(body), 5_000),
  }));
  runs.sort((a, b) => a.stringifyUs - b.stringifyUs);
  return { bytes: body.length, ...runs[1]! };
}

export const PROFILE_DIR = resolve(ROOT, 'bench', 'profiles');

const shares = (list: Share[]): string => list.map((x) => `${x.name} ${fmt(x.percent, 1)} %`).join('<br>');

export async function profileOps(seconds: number, connections: number, facts: Facts): Promise<string[]> {
  mkdirSync(PROFILE_DIR, { recursive: true });
  const token = await devToken();
  const auth = { authorization: `Bearer ${token}` };
  const bodies = submitBodies(`bench-prof-${Date.now().toString(36)}`);
  let seq = 0;
  const ops: { name: Operation; load: Parameters<typeof cannon>[1] }[] = [
    { name: 'version', load: { method: 'GET' as const, path: PATHS.version } },
    { name: 'list', load: { method: 'POST' as const, path: PATHS.list, headers: auth, body: '{}' } },
    {
      name: 'submit',
      load: { method: 'POST' as const, path: PATHS.submit, headers: auth, bodyFor: () => bodies(++seq) },
    },
  ];
  const rows: string[][] = [];
  for (const op of ops) {
    // One profile per thread (tsx's loader runs on a worker thread): the main thread's is the largest.
    const dir = resolve(PROFILE_DIR, op.name);
    rmSync(dir, { recursive: true, force: true });
    const child = await startChild('bench/servers/sandbox.ts', {
      nodeArgs: ['--cpu-prof', '--cpu-prof-dir', dir],
    });
    const clock = async (): Promise<number> => (await child.ask<{ us: number }>({ type: 'hrtime' })).us;
    const measure = async (): Promise<{ rps: number; window: { from: number; to: number } }> => {
      await cannon(child.url, op.load, { connections, duration: 1 });
      const from = await clock();
      const { rps } = await cannon(child.url, op.load, { connections, duration: seconds });
      return { rps, window: { from, to: await clock() } };
    };
    let measured: Awaited<ReturnType<typeof measure>>;
    try {
      measured = await measure();
    } finally {
      await child.stop();
    }
    const { rps, window } = measured;
    const file = readdirSync(dir)
      .map((f) => resolve(dir, f))
      .sort((a, b) => statSync(b).size - statSync(a).size)[0];
    if (!file) throw new Error(`no profile written in ${dir}`);
    const p = summarise(file, 8, window);
    facts.profile = { ...facts.profile, [op.name]: { ...p, rps } };
    rows.push([
      `${op.name} (${fmt(rps)} req/s under the profiler)`,
      shares(p.selfByArea),
      shares(p.inclusiveSandbox),
      shares(p.selfByFunction),
    ]);
  }
  const names = ops.map((o) => o.name);
  const bs = (facts.bufferStringify = bufferStringify());
  const toJson = Object.entries(facts.profile?.version?.selfOf ?? {})
    .filter(([k]) => k.startsWith('toJSON node:buffer'))
    .reduce((n, [, v]) => n + v, 0);
  const categoryRows = CATEGORIES.map((c) => [
    c,
    ...names.map((n) => `${fmt(facts.profile?.[n]?.byCategory[c] ?? NaN, 1)} %`),
  ]);
  return [
    `Each operation for ${seconds} s (after a 1 s warm-up) against a sandbox child run with \`node --cpu-prof\`; shares are of the busy (non-idle) samples of the sandbox's main thread during the measured seconds only (start-up and warm-up left out, the window marked with the child's monotonic clock). Inclusive times of route handlers contain the response write. Profiles: \`bench/profiles/<operation>/\` (the largest file is the main thread; open in Chrome DevTools or speedscope).`,
    '',
    ...table(['self time of the sandbox process by kind', ...names], categoryRows),
    '',
    ...table(
      ['operation', 'self time by area', 'inclusive time, sandbox functions', 'self time, top functions'],
      rows,
    ),
    '',
    `\`sendJson\` (sandbox/reply.ts) sends the version route's body — ${fmt(bs.bytes)} bytes, serialised once at start — as the Buffer it is. What stringifying it again would cost, measured here in the bench process (median of 3 × 5,000): \`JSON.stringify\` of that Buffer **${fmt(bs.stringifyUs, 1)} µs** vs \`Buffer.isBuffer\` ${fmt(bs.isBufferUs, 3)} µs; in the version profile \`Buffer#toJSON\` has ${fmt(toJson, 1)} % self time (0 % means no request pays it).`,
  ];
}
