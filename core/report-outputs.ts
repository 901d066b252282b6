// Where a run's reporters write, for the secret gate: the rule matrix records the reporters the run was
// configured with (their output options only) in reports/reporter-outputs.json when the run begins, and the
// gate reads that record — so it learns a reporter a team added to playwright.config.ts without loading the
// config (whose top level validates settings and may end the process).
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import type { ReporterDescription } from '@playwright/test';

type Env = Record<string, string | undefined>;

const ROOT = resolve(__dirname, '..');

/** Reporter options naming where a reporter writes (html outputFolder, json/junit outputFile, blob outputDir…). */
const OUTPUT_OPTIONS = ['outputFolder', 'outputFile', 'outputDir', 'resultsDir'];
/** Playwright's variables for reporter outputs (PLAYWRIGHT_HTML_OUTPUT_DIR, PLAYWRIGHT_JSON_OUTPUT_FILE…). */
const OUTPUT_ENV = /^PLAYWRIGHT_(\w+_OUTPUT_(DIR|FILE)|HTML_REPORT)$/;

export const REPORTER_OUTPUTS_FILE = 'reporter-outputs.json';

const outputOptions = (options: unknown): Record<string, string> =>
  Object.fromEntries(
    OUTPUT_OPTIONS.map((k) => [k, (options as Record<string, unknown> | undefined)?.[k]]).filter(
      (e): e is [string, string] => typeof e[1] === 'string' && e[1] !== '',
    ),
  );

/** Where the reporters and the PLAYWRIGHT_*_OUTPUT_* variables write (files or folders), from the project. */
export function reporterOutputs(reporters: readonly ReporterDescription[], env: Env = process.env): string[] {
  const fromConfig = reporters.flatMap(([, options]) => Object.values(outputOptions(options)));
  const fromEnv = Object.entries(env)
    .filter(([k, v]) => OUTPUT_ENV.test(k) && v)
    .map(([, v]) => v!);
  return [...fromConfig, ...fromEnv].map((p) => resolve(ROOT, p));
}

/** Records the run's reporters, their output options only (no other option can reach the record). */
export function recordReporters(reportsDir: string, reporters: readonly ReporterDescription[]): void {
  mkdirSync(reportsDir, { recursive: true });
  const record = reporters.map(([name, options]) => [name, outputOptions(options)]);
  writeFileSync(join(reportsDir, REPORTER_OUTPUTS_FILE), JSON.stringify(record, null, 2) + '\n');
}

/** The reporters the last run recorded in `reportsDir`; none when it recorded nothing. */
export function recordedReporters(reportsDir: string): ReporterDescription[] {
  const file = join(reportsDir, REPORTER_OUTPUTS_FILE);
  if (!existsSync(file)) return [];
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as ReporterDescription[];
  } catch {
    return [];
  }
}
