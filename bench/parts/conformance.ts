// Figure 6: `npm run conformance` as a user runs it — in-process sandbox, every reporter, the Allure HTML
// built, the secret gate — cold (a fresh TMPDIR, so the tsx and Playwright transform caches are empty: a first
// run after a clone) and warm (the same TMPDIR again, caches filled by that cold run), `runs` pairs of them
// interleaved so a busy spell of the shared machine hits both alike; the targets are on the medians (
// median of five, /usr/bin/time), each run with its CPU seconds (the whole process tree), and, to show what the
// config leaves on the table, warm with --workers=2.
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { cleanEnv } from '../lib/child';
import { cores } from '../lib/machine';
import { measured, table, type Section } from '../lib/report';
import { playwrightSummary, runCommand, type RunResult } from '../lib/run';
import { fmt, median, s, verdict } from '../lib/stats';
import type { Workdir } from '../lib/workdir';

export async function conformance(
  work: Workdir,
  opts: { workersWhatIf: boolean; runs: number },
): Promise<Section> {
  return measured('6. `npm run conformance` cold, report included', async () => {
    const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
    const runs: { name: string; kind: 'cold' | 'warm' | 'what-if'; r: RunResult }[] = [];
    const tmps: string[] = [];
    try {
      const go = async (name: string, kind: 'cold' | 'warm' | 'what-if', tmp: string, extra: string[]) => {
        rmSync(join(work.dir, 'reports', 'allure'), { recursive: true, force: true });
        const r = await runCommand(npm, ['run', 'conformance', ...extra], {
          cwd: work.dir,
          env: cleanEnv({ TMPDIR: tmp }),
          log: join(work.dir, `bench-conformance-${runs.length}.log`),
        });
        if (!existsSync(join(work.dir, 'reports', 'allure', 'index.html'))) r.code = r.code || 99;
        runs.push({ name, kind, r });
      };
      for (let i = 1; i <= opts.runs; i++) {
        const tmp = mkdtempSync(join(tmpdir(), 'bench-cold-tmp-'));
        tmps.push(tmp);
        await go(
          `**cold ${i}** (empty TMPDIR: no tsx / Playwright transform cache, no compiled schemas)`,
          'cold',
          tmp,
          [],
        );
        await go(`warm ${i} (the caches cold ${i} filled)`, 'warm', tmp, []);
      }
      if (opts.workersWhatIf)
        await go('warm, `-- --workers=2` (what-if: one worker per core)', 'what-if', tmps[0]!, [
          '--',
          '--workers=2',
        ]);
    } finally {
      for (const tmp of tmps) rmSync(tmp, { recursive: true, force: true });
    }
    // A floor for the fixed part: Playwright's CLI loading and exiting (`--version`), which the runner pays
    // before it reads the config, as each worker pays Playwright's bundles again.
    const cli = require.resolve('@playwright/test/cli');
    const pwStart: RunResult[] = [];
    for (let i = 0; i < 5; i++)
      pwStart.push(
        await runCommand(process.execPath, [cli, '--version'], {
          cwd: work.dir,
          env: cleanEnv({}),
          log: join(work.dir, 'bench-playwright-version.log'),
        }),
      );
    const pwStartMs = median(pwStart.map((r) => r.wallMs));
    const pwStartCpu = median(pwStart.map((r) => r.cpuSeconds));
    const coldRuns = runs.filter((x) => x.kind === 'cold').map((x) => x.r);
    const warm = runs.filter((x) => x.kind === 'warm').map((x) => x.r);
    const coldMs = median(coldRuns.map((r) => r.wallMs));
    const coldCpu = median(coldRuns.map((r) => r.cpuSeconds));
    const warmMs = median(warm.map((r) => r.wallMs));
    const warmCpu = median(warm.map((r) => r.cpuSeconds));
    const coldMet = coldRuns.every((r) => r.code === 0) && coldMs <= 12_000;
    const warmMet = warm.every((r) => r.code === 0) && warmMs <= 10_000;
    const rows = runs.map(({ name, r }) => {
      const pw = playwrightSummary(r.output);
      return [
        name,
        `**${s(r.wallMs)}**`,
        `${fmt(r.cpuSeconds, 2)} s`,
        s(pw.reportedMs),
        s(r.wallMs - pw.reportedMs),
        `${pw.workers}`,
        `${pw.passed} passed, ${pw.failed} failed, ${pw.skipped} skipped${r.code ? ` (exit ${r.code})` : ''}`,
      ];
    });
    return {
      summary: [
        `\`npm run conformance\` cold (median of ${coldRuns.length}): ${s(coldMs)} (${fmt(coldCpu, 1)} CPU s) — target ≤ 12 s ${verdict(coldMet)}; warm (median of ${warm.length}): ${s(warmMs)} (${fmt(warmCpu, 1)} CPU s) — target ≤ 10 s ${verdict(warmMet)}`,
      ],
      body: [
        `In a private copy of the project, nothing set (the in-process sandbox), the Allure HTML built (reports/allure/index.html checked). This machine has ${cores()} cores.`,
        '',
        ...table(
          [
            'run',
            'wall',
            'CPU (user + sys, whole tree)',
            'Playwright reports',
            'rest (npm, tsx, settings, Allure HTML, secret gate)',
            'workers',
            'verdicts',
          ],
          rows,
        ),
        '',
        `Floor of the fixed part, in this run: Playwright's CLI alone (\`playwright --version\`: Node, Playwright's bundles, exit) takes ${s(pwStartMs)} (${fmt(pwStartCpu, 2)} CPU s, median of ${pwStart.length}) — the runner pays it before reading the config, and each worker pays most of it again (its own load of the same bundles).`,
        '',
        `Medians: cold ${s(coldMs)} (${fmt(coldCpu, 1)} CPU s), warm ${s(warmMs)} (${fmt(warmCpu, 1)} CPU s). Targets on 2 cores: cold ≤ 12 s ${verdict(coldMet)}, warm ≤ 10 s ${verdict(warmMet)} (medians of ${opts.runs}).`,
      ],
    };
  });
}
