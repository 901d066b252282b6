// Reads a V8 .cpuprofile (node --cpu-prof) and names where the time went: self time per function and per
// area (a sandbox file, a package, Node's internals, GC), and inclusive time of the sandbox's own functions.
import { readFileSync } from 'node:fs';
import { ROOT } from './child';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  startTime: number;
  endTime: number;
  nodes: ProfileNode[];
  samples: number[];
  timeDeltas: number[];
}

export interface Share {
  name: string;
  /** Percent of the busy (non-idle) samples. */
  percent: number;
}

export interface ProfileSummary {
  busyMs: number;
  /** Self time by what it is for (token verification, socket writes, …), in percent of busy time. */
  byCategory: Record<Category, number>;
  idlePercent: number;
  selfByFunction: Share[];
  /** Every function's self time (percent of busy), by the same names as selfByFunction. */
  selfOf: Record<string, number>;
  selfByArea: Share[];
  inclusiveSandbox: Share[];
}

function shortUrl(url: string): string {
  const u = url.replace(/^file:\/\//, '');
  const nm = u.lastIndexOf('/node_modules/');
  if (nm >= 0) return u.slice(nm + '/node_modules/'.length);
  return u.startsWith(ROOT + '/') ? u.slice(ROOT.length + 1) : u;
}

function area(node: ProfileNode): string {
  const { url, functionName } = node.callFrame;
  if (!url) return functionName.startsWith('(') ? functionName : '(native/builtin)';
  if (url.startsWith('node:')) return 'node internals (http, streams, net)';
  const u = shortUrl(url);
  if (url.includes('/node_modules/')) {
    const parts = u.split('/');
    return `package ${parts[0]?.startsWith('@') ? `${parts[0]}/${parts[1] ?? ''}` : (parts[0] ?? u)}`;
  }
  return u;
}

export const CATEGORIES = [
  'token verification (jose, WebCrypto)',
  'socket writes (writev)',
  'other Node internals (http parser, streams, timers, microtasks)',
  'fastify, ajv, find-my-way, other packages',
  'sandbox code (routes, ledger, vetting, JSON building)',
  'garbage collection',
  'other (V8 builtins such as JSON.stringify/parse, program)',
] as const;
export type Category = (typeof CATEGORIES)[number];

function category(node: ProfileNode): Category {
  const { url, functionName } = node.callFrame;
  if (url.includes('/node_modules/jose/') || url.includes('internal/crypto')) return CATEGORIES[0];
  if (functionName === 'writev' || functionName === 'writeBuffer' || functionName === 'writeUtf8String')
    return CATEGORIES[1];
  if (url.startsWith('node:')) return CATEGORIES[2];
  if (url.includes('/node_modules/')) return CATEGORIES[3];
  if (url.includes('/sandbox/')) return CATEGORIES[4];
  if (functionName === '(garbage collector)') return CATEGORIES[5];
  return CATEGORIES[6];
}

/** Function and file; the line only for files tsx did not transpile (its output has other line numbers). */
function key(n: ProfileNode): string {
  const { functionName, url, lineNumber } = n.callFrame;
  const where = !url ? '' : url.endsWith('.ts') ? shortUrl(url) : `${shortUrl(url)}:${lineNumber + 1}`;
  return `${functionName || '(anonymous)'} ${where}`.trim();
}

function top(map: Map<string, number>, total: number, count: number): Share[] {
  return [...map.entries()]
    .sort((a, b) => b[1] - a[1])
    .slice(0, count)
    .map(([name, t]) => ({ name, percent: (100 * t) / total }));
}

/**
 * `window` (µs on the monotonic clock V8 and process.hrtime share) keeps only the samples of the measured
 * load, leaving out start-up (module loading) and warm-up.
 */
export function summarise(file: string, count = 12, window?: { from: number; to: number }): ProfileSummary {
  const p = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  if (window && (window.from < p.startTime || window.to > p.endTime)) {
    throw new Error(
      `profile window ${window.from}–${window.to} µs lies outside the profile ${p.startTime}–${p.endTime}`,
    );
  }
  const byId = new Map(p.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of p.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const selfFn = new Map<string, number>();
  const selfArea = new Map<string, number>();
  const incl = new Map<string, number>();
  const cat = new Map<Category, number>();
  let busy = 0;
  let idle = 0;
  let at = p.startTime;
  p.samples.forEach((id, i) => {
    const dt = p.timeDeltas[i] ?? 0;
    at += dt;
    if (window && (at < window.from || at > window.to)) return;
    const node = byId.get(id);
    if (!node) return;
    if (node.callFrame.functionName === '(idle)') {
      idle += dt;
      return;
    }
    busy += dt;
    selfFn.set(key(node), (selfFn.get(key(node)) ?? 0) + dt);
    selfArea.set(area(node), (selfArea.get(area(node)) ?? 0) + dt);
    cat.set(category(node), (cat.get(category(node)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let cur: number | undefined = id; cur !== undefined; cur = parent.get(cur)) {
      const n = byId.get(cur);
      if (!n || !n.callFrame.url.includes('/sandbox/')) continue;
      const k = key(n);
      if (seen.has(k)) continue;
      seen.add(k);
      incl.set(k, (incl.get(k) ?? 0) + dt);
    }
  });
  return {
    busyMs: busy / 1000,
    byCategory: Object.fromEntries(
      CATEGORIES.map((c) => [c, (100 * (cat.get(c) ?? 0)) / Math.max(busy, 1)]),
    ) as Record<Category, number>,
    idlePercent: (100 * idle) / Math.max(busy + idle, 1),
    selfByFunction: top(selfFn, busy, count),
    selfOf: Object.fromEntries([...selfFn.entries()].map(([k, v]) => [k, (100 * v) / Math.max(busy, 1)])),
    selfByArea: top(selfArea, busy, count),
    inclusiveSandbox: top(incl, busy, count),
  };
}
