// The causes of the gaps, reasoned from the figures of this run (and the CPU profile of the sandbox). A
// paragraph appears only for a target that was missed; the numbers in it are this run's.
import type { Facts } from './report';
import { fmt, ms, s } from './stats';

const us = (rps: number): number => 1e6 / rps;
/** "120 µs more" / "15 µs less": the sandbox's time per request beyond the floor's. */
const beyond = (rps: number, floor: number): string => {
  const d = us(rps) - us(floor);
  return `${fmt(Math.abs(d))} µs ${d >= 0 ? 'more' : 'less'} per request than the floor`;
};

/** Whether the suite of figure 5 was bound by the machine's cores or by waiting, from the CPU both sides used. */
function coresSentence(su: NonNullable<Facts['suite']>): string {
  const used = `the harness (${fmt(su.cpuSeconds, 1)} CPU s) and the sandbox child (${fmt(su.sandboxCpuSeconds, 1)} CPU s) kept ${fmt(su.coresBusy, 2)} of the ${su.cores} cores busy over the whole run, start included`;
  return su.coresBusy >= 0.75 * su.cores
    ? ` The cores are the bound more than waits: ${used}, so a test that waits mostly hands its core to the others, and what shortens the run is CPU the harness no longer spends.`
    : ` The cores were not the bound: ${used}; waits and the serial start are.`;
}

export function causes(f: Facts): string[] {
  const out: string[] = [];
  const t = f.throughput;
  const p = f.profile;
  const cat = (op: 'version' | 'list' | 'submit', c: string): string => {
    const v = Object.entries(p?.[op]?.byCategory ?? {}).find(([k]) => k.startsWith(c))?.[1];
    return v === undefined ? '?' : `${fmt(v, 0)} %`;
  };

  if (t?.version && t.version.met === false) {
    const v = t.version;
    const sendJsonSelf = Object.entries(p?.version?.selfOf ?? {})
      .filter(([k]) => k.startsWith('sendJson ') || k.startsWith('toJSON node:buffer'))
      .reduce((n, [, x]) => n + x, 0);
    out.push(
      `- **version < 10k req/s.** The bare fastify \`GET /hello\` on the same machine in the same run reached ${fmt(v.floor)} req/s` +
        (v.floor < 10_000
          ? ` — the floor itself is below the target, so 10k is out of reach here at this load whatever the sandbox does (the load generator shares the 2 cores with the server and with the other engineers' processes).`
          : '.') +
        ` The sandbox reaches ${fmt((100 * v.rps) / v.floor)} % of the floor (${beyond(v.rps, v.floor)}). Profile: socket writes ${cat('version', 'socket')}, other Node internals ${cat('version', 'other Node')}, fastify ${cat('version', 'fastify')}, sandbox code ${cat('version', 'sandbox')}.` +
        (sendJsonSelf > 1 && f.bufferStringify
          ? ` The sandbox's share is almost all \`sendJson\` (sandbox/reply.ts, ${fmt(sendJsonSelf, 0)} % self time): the route hands it a Buffer serialised once at start, but \`sendJson\` evaluates \`JSON.stringify(body)\` before its \`Buffer.isBuffer\` check — Buffer#toJSON turns the ${fmt(f.bufferStringify.bytes)}-byte body into \`{"type":"Buffer","data":[…]}\`, one number per byte, which is then discarded: ${fmt(f.bufferStringify.stringifyUs, 0)} µs per request measured in this run (of the ${fmt(us(v.rps), 0)} µs a request takes at this rate). Fix (for the sandbox's owners): test \`Buffer.isBuffer(body)\` first and stringify only non-strings that are not Buffers.`
          : '') +
        ` What remains is the HTTP stack the floor pays too and the app-wide hooks every route of the sandbox passes through.`,
    );
  }
  if (t?.submit && t.submit.met === false) {
    const v = t.submit;
    const auth = p?.submit?.byCategory['token verification (jose, WebCrypto)'];
    const ceiling = auth !== undefined ? v.rps / (1 - auth / 100) : NaN;
    out.push(
      `- **submit < 3k/s.** The floor with the same bodies and token header (fastify parsing the JSON, answering a small document) reached ${fmt(v.floor)} req/s; the sandbox ${fmt(v.rps)}, i.e. ${beyond(v.rps, v.floor)}: the sandbox's own work per submission.` +
        (v.floor < 3000
          ? ' The floor itself is below 3k here, so part of the gap is the machine (2 cores shared by the load generator, the server and other engineers).'
          : '') +
        ` Profile of the submit path (self time of the sandbox process): token verification ${cat('submit', 'token')}, sandbox code ${cat('submit', 'sandbox')}, socket writes ${cat('submit', 'socket')}, other Node internals ${cat('submit', 'other Node')}, fastify/ajv ${cat('submit', 'fastify')}, GC ${cat('submit', 'garbage')}.` +
        ` Token verification is already cheap (\`sandbox/auth.ts\` imports the HS256 key once and remembers verified tokens until \`exp\`); without its share the same run would allow about ${fmt(ceiling)} req/s. The rest is the per-request JSON work of the route (decode, json-layer, interpretation, rendering the tree) and the HTTP stack.`,
    );
  }
  if (f.pages && !f.pages.met) {
    out.push(
      `- **last/first page ${fmt(f.pages.ratio, 2)} > 1.5** (${ms(f.pages.lastMs)} vs ${ms(f.pages.firstMs)}): the listing does not seek by key — see the profile of \`sandbox/vetting/list.ts\`.`,
    );
  }
  if (f.walk && !f.walk.met) {
    out.push(
      `- **walk ${s(f.walk.ms)} > 3 s**: the floor moving the same bytes in the same ${fmt(f.walk.requests)} requests took ${s(f.walk.floorMs)}, so ${s(f.walk.ms - f.walk.floorMs)} are the sandbox's (${ms((f.walk.ms - f.walk.floorMs) / f.walk.requests, 3)} per page).`,
    );
  }
  if (f.memory && !f.memory.met)
    out.push(
      `- **memory grew ×${fmt(f.memory.ratio, 2)}** from 10⁴ to 10⁵ submissions with full stores: something besides the capped stores keeps per-submission state.`,
    );
  const su = f.suite;
  if (su && !su.met) {
    const harness = su.requestMs - su.busyMs;
    out.push(
      `- **suite ${s(su.wallMs)} > 2 × replay + 3 s = ${s(2 * su.replayMs + 3000)}.** The sandbox is not the cause: it is busy ${s(su.busyMs)} of the suite (the replay of the same ${fmt(su.requests)} requests takes ${s(su.replayMs)}). ` +
        `The time is the harness's: start ${s(su.startMs)} (target ≤ 3 s: Node, Playwright, the config with its settings validation, the global setup, then ${su.workers} worker process${su.workers === 1 ? '' : 'es'}, each loading Playwright's bundles as the runner did, every spec and fixture (from the transform cache the runner filled) and its worker fixtures before a test sends its first request), and ${s(harness)} of the request phase with no request open — ${su.idleOver100[0] > 0 ? `${fmt(su.idleOver100[0])} gaps > 100 ms (${s(su.idleOver100[1])}: deliberate waits of tests, e.g. SUB-DEDUP-EXPIRY waiting for a deduplication period to expire, and slow steps between requests — the longest are listed under figure 5), ` : 'no gap > 100 ms, '}${fmt(su.idleMid[0])} gaps of 10–100 ms (${s(su.idleMid[1])}) and ${fmt(su.idleUnder10[0])} gaps ≤ 10 ms (${s(su.idleUnder10[1])}): per-test fixtures (seeded faker, token minting, request context), schema checks, evidence and steps, and Playwright's per-test bookkeeping and reporters. JUnit counts ${fmt(su.testsSeconds, 1)} s inside tests for a request phase of ${s(su.requestMs)}: ${s(su.requestMs - su.testsSeconds * 1000)} pass between tests (hooks, worker-scoped fixtures, test dispatch from the main process).` +
        (su.workers === 1
          ? ' With one worker, none of it overlaps.'
          : ` With ${su.workers} workers tests overlap, so the time inside tests can exceed the request phase.`) +
        coresSentence(su),
    );
  }
  if (su && !su.cpuMet) {
    const load = f.conformance?.playwrightStartCpuSeconds;
    const processes = su.workers + 1;
    out.push(
      `- **harness CPU ${ms(su.cpuPerRequestMs)} per request > ${ms(su.cpuTargetMs, 0)}** (${fmt(su.cpuSeconds, 2)} CPU s for ${fmt(su.requests)} requests, figure 5).` +
        (load !== undefined
          ? ` Loading Playwright alone costs ${fmt(load, 2)} CPU s per process in this run (figure 6's floor), and the run has ${processes} (the runner and ${su.workers} worker${su.workers === 1 ? '' : 's'}): ${fmt(load * processes, 1)} CPU s, ${ms((load * processes * 1000) / su.requests)} per request, before the config, the listing, the global setup or any test.`
          : '') +
        ` The rest is per test more than per request: Playwright's fixtures, hooks, steps, the matcher objects of every expect and the messages to the runner, the reporters, and garbage collection; the harness's own code (client, schemas, evidence, redaction) is a small share of a worker's profile.`,
    );
  }
  const c = f.conformance;
  if (c && !c.met) {
    out.push(
      `- **\`npm run conformance\` cold ${s(c.coldMs)} (target ≤ 12 s), warm ${s(c.warmMs)} (target ≤ 10 s), ${fmt(c.coldCpuSeconds, 1)} / ${fmt(c.warmCpuSeconds, 1)} CPU s.** Playwright itself reports ${s(c.coldReportedMs)} of the cold run; the rest (${s(c.coldMs - c.coldReportedMs)}) is npm, tsx, settings validation, the Allure build and the secret gate.` +
        (c.playwrightStartMs !== undefined
          ? ` Playwright's CLI alone (\`--version\`) takes ${s(c.playwrightStartMs)} in this run: the runner pays it before it reads the config, and each worker loads the same bundles again before its first test.`
          : '') +
        ` Playwright runs ${c.workers} worker${c.workers === 1 ? '' : 's'}` +
        (c.twoWorkersMs !== undefined ? ` (with \`--workers=2\`: ${s(c.twoWorkersMs)})` : '') +
        `. Cold costs ${s(c.coldMs - c.warmMs)} more than warm: Playwright's runner transpiles every spec, fixture and reporter with Babel (about 60 files) while it lists the tests, before any worker can start, and tsx compiles the runner-side scripts and the sandbox. Inside the workers the CPU is mostly Playwright's per-test machinery${su && !su.cpuMet ? ' (see the harness CPU above)' : ' (fixtures, hooks, steps, the matcher objects of every expect, messages to the runner) and garbage collection'}; leaving out the stack capture of the boxed request steps saved no measurable CPU. Others' work beside it (a figure flagged busy) stretches every figure of this section.`,
    );
  }
  const l = f.latency;
  if (l && !l.met) {
    out.push(
      `- **against a participant ${l.latencyMs} ms away, ${s(l.wallMs)} > ${fmt(l.bound, 1)} × the participant's floor ${s(l.floorMs)}** with ${l.workers} workers: the floor is the serial chain of answers each worker waits for; what is above it is the harness's start, its tail and its CPU per request (figure 5) on a shared machine.`,
    );
  }
  const sl = f.slow;
  if (sl && !sl.met) {
    out.push(
      `- **against a participant answering in ${s(sl.delayMs)}, ${sl.inconclusive} inconclusive and ${sl.differing.length} verdicts unlike the run without the delay** (${sl.differing.map((t) => t.split(' ')[0]).join(', ') || 'none'}): the measured timeout scale (figure 8's table) was too small for the tests that wait longest, or a test's outcome depends on the answer time.`,
    );
  }
  return out;
}
