// `npm run bench [-- --only <parts>] [--quick] [--out <file>]`: the harness's benchmarks, every figure
// measured side by side with its floor in the same run, written to bench/RESULTS.md (see bench/README.md).
import { spawnSync } from 'node:child_process';
import { writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT } from './lib/child';
import { load, loadNote, machine, OTHERS_BUSY_CORES } from './lib/machine';
import { table, type Section } from './lib/report';
import { projectCopy, type Workdir } from './lib/workdir';
import { conformance } from './parts/conformance';
import { latency } from './parts/latency';
import { memory } from './parts/memory';
import { paging } from './parts/paging';
import { slow } from './parts/slow';
import { scale } from './parts/scale';
import { history } from './parts/history';
import { suite } from './parts/suite';
import { throughput } from './parts/throughput';
import { busyParticipant } from './parts/busy';

const PARTS = [
  'throughput',
  'paging',
  'memory',
  'suite',
  'conformance',
  'latency',
  'slow',
  'scale',
  'history',
  'busy',
] as const;
type Part = (typeof PARTS)[number];
const GROUPS: Record<string, Part[]> = {
  sandbox: ['throughput', 'paging', 'memory'],
  harness: ['suite', 'conformance', 'latency', 'history'],
};

interface Options {
  parts: Part[];
  quick: boolean;
  out: string;
  workersWhatIf: boolean;
  latencyWorkers: number[];
  slowDelayMs: number;
  slowControl: boolean;
}

function usage(message?: string): never {
  if (message) console.error(`bench: ${message}`);
  // Asked for (--help): the usage on stdout, exit 0; after a wrong argument, on stderr with exit 2.
  (message ? console.error : console.log)(
    [
      'usage: npm run bench [-- --only <part,…>] [--quick] [--out <file>] [--no-workers-what-if]',
      '         [--latency-workers 4,8,16] [--slow-delay <ms>] [--no-slow-control]',
      `  parts: ${PARTS.join(', ')}; groups: ${Object.entries(GROUPS)
        .map(([g, p]) => `${g} (${p.join(', ')})`)
        .join(', ')}`,
      '  --quick  short measurements (a few seconds per figure; 10³/10⁴ submissions for memory) to try the bench',
      '  --out    where to write (default bench/RESULTS.md for a full run, bench/RESULTS.partial.md otherwise)',
      '  --latency-workers  the worker counts of figure 7; --slow-delay  the answer delay of figure 8 (1000)',
      '  --no-slow-control  figure 8 without its run at LEDGER_TIMEOUT_SCALE=1',
      '  scale (figure 9): 6/600/2,000/10,000 entries × 0/40/100 ms × quiet/1 change a second (--quick: 6 and 2,000, 100 ms)',
    ].join('\n'),
  );
  process.exit(message ? 2 : 0);
}

function parseArgs(argv: string[]): Options {
  let parts: Part[] = [...PARTS];
  let quick = false;
  let out: string | undefined;
  let workersWhatIf = true;
  let latencyWorkers: number[] | undefined;
  let slowDelayMs = 1000;
  let slowControl = true;
  const positive = (flag: string, raw: string): number => {
    const n = Number(raw);
    if (!/^\d+$/.test(raw) || n < 1) usage(`${flag} takes positive integers, got "${raw}"`);
    return n;
  };
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = (argv[i] ?? '').split(/=(.*)/s, 2);
    const value = (): string => inline ?? argv[++i] ?? usage(`${flag} needs a value`);
    if (flag === '--only') {
      parts = value()
        .split(',')
        .flatMap((p) => GROUPS[p.trim()] ?? [p.trim() as Part]);
      for (const p of parts) if (!PARTS.includes(p)) usage(`unknown part "${p}"`);
    } else if (flag === '--quick') quick = true;
    else if (flag === '--out') out = value();
    else if (flag === '--no-workers-what-if') workersWhatIf = false;
    else if (flag === '--latency-workers')
      latencyWorkers = value()
        .split(',')
        .map((w) => positive(flag, w.trim()));
    else if (flag === '--slow-delay') slowDelayMs = positive(flag, value());
    else if (flag === '--no-slow-control') slowControl = false;
    else if (flag === '--help' || flag === '-h') usage();
    else usage(`unknown argument "${argv[i]}"`);
  }
  const full = parts.length === PARTS.length && !quick;
  return {
    parts,
    quick,
    workersWhatIf,
    latencyWorkers: latencyWorkers ?? (quick ? [4] : [4, 8, 16]),
    slowDelayMs,
    slowControl: slowControl && !quick,
    out: resolve(ROOT, out ?? (full ? 'bench/RESULTS.md' : 'bench/RESULTS.partial.md')),
  };
}

async function main(): Promise<void> {
  const o = parseArgs(process.argv.slice(2));
  const has = (p: Part): boolean => o.parts.includes(p);
  const sections: Section[] = [];
  const started = Date.now();
  const startLoad = load();
  const info = machine();
  let work: Workdir | undefined;
  try {
    if (has('throughput'))
      sections.push(await throughput({ durationSeconds: o.quick ? 1 : 3, connections: 10 }));
    if (has('paging'))
      sections.push(...(await paging({ walks: o.quick ? 1 : 5, repetitions: o.quick ? 50 : 300 })));
    if (has('memory'))
      sections.push(
        await memory({ small: o.quick ? 1_000 : 10_000, large: o.quick ? 10_000 : 100_000, connections: 10 }),
      );
    if (has('suite') || has('conformance') || has('latency') || has('slow') || has('scale') || has('busy'))
      work = projectCopy();
    if (has('suite') && work) sections.push(await suite(work));
    if (has('conformance') && work)
      sections.push(
        await conformance(work, { workersWhatIf: o.workersWhatIf && !o.quick, runs: o.quick ? 1 : 5 }),
      );
    if (has('latency') && work)
      sections.push(await latency(work, { latencyMs: 40, workers: o.latencyWorkers }));
    if (has('slow') && work)
      sections.push(await slow(work, { delayMs: o.slowDelayMs, control: o.slowControl }));
    if (has('scale') && work)
      sections.push(
        await scale(
          work,
          o.quick
            ? { entries: [6, 2_000], latencies: [100], churns: [0, 1] }
            : { entries: [6, 600, 2_000, 10_000], latencies: [0, 40, 100], churns: [0, 1] },
        ),
      );
    if (has('history')) sections.push(await history({ repetitions: o.quick ? 5 : 30 }));
    if (has('busy') && work) sections.push(await busyParticipant(work));
  } finally {
    work?.remove();
  }
  const order = (x: Section): number => Number(/^(\d+(?:\.\d+)?)/.exec(x.title)?.[1] ?? 99);
  sections.sort((a, b) => order(a) - order(b));
  const endLoad = load();
  const lines = [
    '# Bench results',
    '',
    `Written by \`npm run bench${o.parts.length === PARTS.length ? '' : ` -- --only ${o.parts.join(',')}`}${o.quick ? ' --quick' : ''}\` on ${new Date().toISOString()} in ${((Date.now() - started) / 1000).toFixed(0)} s. Every figure is measured side by side with its floor in this run; nothing is compared with a stored number. How to run and read it: [README.md](README.md).`,
    '',
    '## Machine',
    '',
    ...table(
      ['', ''],
      [
        ...Object.entries(info).map(([k, v]) => [k, v]),
        ['load average over the whole run', loadNote(startLoad, endLoad)],
      ],
    ),
    '',
    `The machine is shared with other engineers; each figure states the 1-minute load average before and after it, how many cores' worth of CPU others used meanwhile (from /proc: the machine's busy time less the bench's own processes'), and a speed probe per core (CPU ms of a fixed piece of JSON work in a fresh Node process pinned to the core: it moves with the host itself, e.g. another VM busy on the same physical core, which /proc cannot see). The load average counts the bench's own runs too (a suite run alone keeps it near 2), so the flag follows others' share: above ${OTHERS_BUSY_CORES} of a core, others' work took cores from the figure, which is then pessimistic for the sandbox and for its floor alike, and the side-by-side ratios are more trustworthy than the absolute numbers.`,
    '',
    '## Targets',
    '',
    ...sections.flatMap((x) => x.summary.map((line) => `- ${line}`)),
    '',
    ...sections.flatMap((x) => [`## ${x.title}`, '', ...x.body, '']),
  ];
  // Formatted as the project's `oxfmt --check .` expects (its .oxfmtrc.json), so a fresh RESULTS.md never fails
  // the lint.
  writeFileSync(o.out, lines.join('\n'));
  const format = spawnSync(process.execPath, [resolve(ROOT, 'node_modules/oxfmt/bin/oxfmt'), o.out], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (format.status !== 0) {
    process.stderr.write(
      `bench: ${o.out} is left unformatted (npm run format): ${format.stderr || format.stdout}\n`,
    );
  }
  const targets = sections.flatMap((x) => x.summary.map((line) => `  ${line.replaceAll('**', '')}`));
  process.stdout.write(`\n${targets.join('\n')}\n\nbench: wrote ${o.out}\n`);
}

main().catch((e: unknown) => {
  console.error('bench:', e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
