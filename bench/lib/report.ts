// One figure of the bench: a markdown section with its table, the load around it and notes (gaps, causes).
import type { ProfileSummary } from './cpuprofile';
import { load, loadNote, type Load } from './machine';

export type Operation = 'version' | 'list' | 'submit';

/** The measured numbers the causes section reasons from (filled by the parts that ran). */
export interface Facts {
  throughput?: Partial<Record<Operation, { rps: number; floor: number; target?: number; met?: boolean }>>;
  profile?: Partial<Record<Operation, ProfileSummary & { rps: number }>>;
  /** sandbox/reply.ts sendJson given the version route's Buffer: JSON.stringify(body) vs the Buffer check, µs. */
  bufferStringify?: { bytes: number; stringifyUs: number; isBufferUs: number };
  pages?: { ratio: number; firstMs: number; lastMs: number; met: boolean };
  walk?: { ms: number; floorMs: number; requests: number; met: boolean };
  memory?: { ratio: number; met: boolean };
  suite?: {
    wallMs: number;
    replayMs: number;
    startMs: number;
    requestMs: number;
    tailMs: number;
    testsSeconds: number;
    busyMs: number;
    idleOver100: [number, number];
    idleMid: [number, number];
    idleUnder10: [number, number];
    requests: number;
    workers: number;
    cpuSeconds: number;
    /** The sandbox child's CPU over the same run. */
    sandboxCpuSeconds: number;
    cores: number;
    /** (harness + sandbox CPU) / wall: how many of the cores the run kept busy. */
    coresBusy: number;
    cpuPerRequestMs: number;
    /** The target (CPU_PER_REQUEST_TARGET_MS in parts/suite.ts). */
    cpuTargetMs: number;
    cpuMet: boolean;
    /** The run before, which filled the transform cache for the copy's paths. */
    firstWallMs: number;
    firstCpuSeconds: number;
    met: boolean;
  };
  latency?: {
    latencyMs: number;
    wallMs: number;
    floorMs: number;
    workers: number;
    bound: number;
    met: boolean;
  };
  /** Figure 8: the delayed suite on the harness's defaults against the same suite without the delay. */
  slow?: {
    delayMs: number;
    wallMs: number;
    inconclusive: number;
    /** Titles of the tests whose verdict differs from the run without the delay. */
    differing: string[];
    met: boolean;
  };
  /** Figure 9: the runs with a target (2,000 entries churning at 100 ms; 10,000 quiet at 40 ms). */
  scale?: { entries: number; latencyMs: number; churn: number; met: boolean }[];
  conformance?: {
    coldMs: number;
    coldReportedMs: number;
    warmMs: number;
    coldCpuSeconds: number;
    warmCpuSeconds: number;
    twoWorkersMs?: number;
    /** `playwright --version` (median wall): the CLI's own start, a floor the runner pays before the config. */
    playwrightStartMs?: number;
    /** Its CPU seconds (median): what each Playwright process pays to load before doing anything. */
    playwrightStartCpuSeconds?: number;
    workers: number;
    met: boolean;
  };
}

export interface Section {
  title: string;
  body: string[];
  /** One-line verdicts for the summary at the top of RESULTS.md. */
  summary: string[];
}

/** Runs `measure` between two load readings and appends the load line to its section. */
export async function measured(
  title: string,
  measure: () => Promise<Omit<Section, 'title'>>,
): Promise<Section> {
  const before: Load = load();
  const t = Date.now();
  process.stdout.write(`bench: ${title} …\n`);
  const part = await measure();
  const after = load();
  process.stdout.write(`bench: ${title} done in ${((Date.now() - t) / 1000).toFixed(1)} s\n`);
  return {
    title,
    body: [
      ...part.body,
      '',
      `_Machine: ${loadNote(before, after)}; took ${((Date.now() - t) / 1000).toFixed(1)} s._`,
    ],
    summary: part.summary,
  };
}

export function table(header: string[], rows: string[][]): string[] {
  return [
    `| ${header.join(' | ')} |`,
    `| ${header.map(() => '---').join(' | ')} |`,
    ...rows.map((r) => `| ${r.join(' | ')} |`),
  ];
}
