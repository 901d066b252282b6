// Planted files linted under the project's own rules (oxlint.config.mjs), for the self-tests that show a rule
// fire: the files are written under a folder of their own with a config that re-exports the project's, so its
// per-folder rules (`core/**`, `**/*.cjs`…) match the planted paths as they would the real ones.
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OXLINT_CONFIG } from '../../scripts/dev/lint-tools';
import { ROOT, runCommand } from '../support/child-run';
import { withTempDir } from '../support/temp-dir';

export interface Finding {
  /** The planted file's path, as given. */
  file: string;
  line: number;
  /** `eslint(no-debugger)`, `typescript(await-thenable)`, `house(layer-calls)`… */
  code: string;
  /** The rule's message and, where the config gives one (no-restricted-imports' group message), its help. */
  message: string;
}

interface Diagnostic {
  code: string;
  message: string;
  help?: string;
  filename: string;
  labels: { span: { line: number } }[];
}

/**
 * oxlint over `files` (path → text), `--type-aware` with a tsconfig beside them when `typed`; its findings and
 * exit code. One oxlint run for them all.
 */
export async function lintPlanted(
  files: Record<string, string>,
  { typed = false }: { typed?: boolean } = {},
): Promise<{ findings: Finding[]; status: number | null; output: string }> {
  return withTempDir('planted-lint-', async (dir) => {
    writeFileSync(
      join(dir, 'oxlint.config.mjs'),
      `export { default } from ${JSON.stringify(OXLINT_CONFIG)};\n`,
    );
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(dirname(join(dir, file)), { recursive: true });
      writeFileSync(join(dir, file), text);
    }
    if (typed) writeFileSync(join(dir, 'tsconfig.json'), JSON.stringify(PLANTED_TSCONFIG));
    const oxlint = join(ROOT, 'node_modules/oxlint/bin/oxlint');
    const args = [oxlint, ...(typed ? ['--type-aware'] : []), '-c', 'oxlint.config.mjs', '-f', 'json', '.'];
    // Its type-aware half is found from the working folder, this one outside the project: named here.
    const env = { ...process.env, OXLINT_TSGOLINT_PATH: join(ROOT, 'node_modules/.bin/tsgolint') };
    const run = await runCommand(process.execPath, args, env, { cwd: dir });
    let diagnostics: Diagnostic[];
    try {
      diagnostics = (JSON.parse(run.stdout) as { diagnostics: Diagnostic[] }).diagnostics;
    } catch {
      throw new Error(`oxlint gave no JSON report (exit ${run.status}):\n${run.stdout}${run.stderr}`);
    }
    const findings = diagnostics.map((d) => ({
      file: d.filename,
      line: d.labels[0]?.span.line ?? 0,
      code: d.code,
      message: d.help ? `${d.message} ${d.help}` : d.message,
    }));
    return { findings, status: run.status, output: `${run.stdout}${run.stderr}` };
  });
}

/** Strict, as the project's own tsconfig; the planted files only. */
const PLANTED_TSCONFIG = {
  compilerOptions: {
    strict: true,
    target: 'ES2022',
    module: 'commonjs',
    lib: ['ES2022', 'DOM'],
    types: [],
    noEmit: true,
    skipLibCheck: true,
  },
  include: ['**/*.ts'],
};
