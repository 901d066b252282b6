// The rule matrix: every catalogued rule with its verdict, level and tests, written to
// reports/conformance.{json,md} and printed as a short table at the end of every run.
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, relative } from 'node:path';
import type {
  FullConfig,
  FullResult,
  Reporter,
  Suite,
  TestCase,
  TestResult,
} from '@playwright/test/reporter';
import { RULES, ruleIdOfTitle } from '../rules/catalogue';
import { classify, TARGET_GONE } from './classify';
import { diffFingerprints, fingerprintOf, type Fingerprint } from './fingerprint';
import { renderMarkdown, renderSummary } from './matrix-render';
import { ruleRows, totals, type TestRecord, type TestVerdict } from './verdicts';

export interface MatrixOptions {
  outputDir?: string;
  /** Where the target fixture leaves what /v2/version answered (target URL, version, features). */
  targetFile?: string;
  /** Kept across runs, like Allure's history, so a capability change is visible. */
  fingerprintHistory?: string;
}

export interface TargetInfo {
  baseUrl?: string;
  version?: string;
  features?: unknown;
  /** Set by the global setup when the target gave no answer at all. */
  unreachable?: string;
}

/** One test's verdict, keyed by Playwright's test id (the Allure results carry it as a label). */
export interface TestVerdictRecord extends TestRecord {
  id: string;
  project: string;
}

/** Test verdicts that make a run fail, whatever Playwright's own status says. */
const NOT_PASSING: ReadonlySet<TestVerdict> = new Set([
  'fail',
  'unexpected-pass',
  'harness-defect',
  'inconclusive',
]);

export default class RuleMatrixReporter implements Reporter {
  private readonly records = new Map<string, TestVerdictRecord>();
  private rootDir = process.cwd();
  private readonly outputDir: string;
  private readonly targetFile: string;
  private readonly fingerprintHistory: string;

  constructor(options: MatrixOptions = {}) {
    // LEDGER_REPORTS_DIR: the mutation runner gives every child run its own folder.
    this.outputDir = options.outputDir ?? (process.env.LEDGER_REPORTS_DIR || 'reports');
    this.targetFile = options.targetFile ?? join(this.outputDir, 'target.json');
    this.fingerprintHistory =
      options.fingerprintHistory ?? join(this.outputDir, 'history', 'fingerprint.json');
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.rootDir = config.rootDir;
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    // Retries report the same test again: the last result is the verdict.
    const { verdict, reason } = classify(test, result);
    this.records.set(test.id, {
      id: test.id,
      project: test.parent.project()?.name ?? '',
      ruleId: ruleIdOfTitle(test.title),
      title: test.title,
      file: relative(this.rootDir, test.location.file),
      verdict,
      reason,
      durationMs: result.duration,
    });
  }

  async onEnd(result: FullResult): Promise<{ status: FullResult['status'] } | undefined> {
    const records = [...this.records.values()];
    // Playwright counts an expected failure as passed even when it ended inconclusive (the target died during
    // a known deviation's test): the run must still not look green, so the exit code follows the verdicts.
    const status =
      result.status === 'passed' && records.some((r) => NOT_PASSING.has(r.verdict))
        ? 'failed'
        : result.status;
    const rows = ruleRows(RULES, records);
    const target = readJson<TargetInfo>(this.targetFile);
    // A target that never answered has no capabilities to compare: its run changes neither the fingerprint nor
    // its history (the next run is compared with the last run that reached the target).
    const fingerprint: Fingerprint | undefined =
      target && !target.unreachable
        ? fingerprintOf({ version: target.version, features: target.features })
        : undefined;
    const previous = readJson<Fingerprint>(this.fingerprintHistory);
    const changes = fingerprint ? diffFingerprints(previous, fingerprint) : [];
    const uncatalogued = records.filter((r) => !r.ruleId || !RULES.some((rule) => rule.id === r.ruleId));
    const gone = records.find((r) => r.reason !== undefined && TARGET_GONE.test(r.reason));
    const report = {
      generatedAt: new Date().toISOString(),
      status,
      // Why the run could not judge the target (down from the start, or lost during the run), if so.
      targetLost: target?.unreachable
        ? `target unreachable: ${target.unreachable}`
        : gone?.reason?.replace(/^\[inconclusive\] /, ''),
      target: target ? { baseUrl: target.baseUrl, version: target.version } : undefined,
      fingerprint,
      fingerprintChanges: changes,
      totals: totals(rows),
      rules: rows,
      uncatalogued: uncatalogued.map((r) => r.title),
      // Every test's verdict: the Allure report's `verdict` labels and categories are set from these.
      tests: records.map(({ id, project, ruleId, title, file, verdict, reason }) => ({
        id,
        project,
        ruleId,
        title,
        file,
        verdict,
        reason,
      })),
    };
    mkdirSync(this.outputDir, { recursive: true });
    writeFileSync(join(this.outputDir, 'conformance.json'), JSON.stringify(report, null, 2) + '\n');
    writeFileSync(join(this.outputDir, 'conformance.md'), renderMarkdown(report));
    if (fingerprint) {
      mkdirSync(dirname(this.fingerprintHistory), { recursive: true });
      writeFileSync(this.fingerprintHistory, JSON.stringify(fingerprint, null, 2) + '\n');
    }
    process.stdout.write(renderSummary(report));
    return status === result.status ? undefined : { status };
  }

  printsToStdio(): boolean {
    return false;
  }
}

function readJson<T>(path: string): T | undefined {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as T;
  } catch {
    return undefined;
  }
}
