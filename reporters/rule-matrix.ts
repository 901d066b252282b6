// The rule matrix: every catalogued rule with its verdict, level and tests, written to
// reports/conformance.{json,md} and printed as a short table at the end of every run.
import { mkdirSync, writeFileSync } from 'node:fs';
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
import { redactWithUrls, registerSecretSettings } from '../core/redact';
import { recordReporters } from '../core/report-outputs';
import {
  EXCUSED_BY,
  EXPECTATION,
  EXPECTATION_EXPIRED,
  RERUN_ANNOTATION,
  TRANSIENT_RETRIED,
  withoutInconclusive,
} from '../core/verdict-marks';
import { classify, TARGET_GONE } from './classify';
import { excuseOf, expectationsStatus, type ExpectationsInfo } from './expectations-status';
import { diffFingerprints, fingerprintOf, type Fingerprint } from './fingerprint';
import { renderMarkdown, renderSummary } from './matrix-render';
import { readJsonFile } from './json-file';
import { descriptionOfRun, type DescriptionReport } from './openapi-drift';
import { baselineOf, diffRuns, keepRun, snapshotOf, targetHistoryDir } from './run-history';
import { judgeSeries, writeLastNights, type LastNights } from './last-nights';
import { layerOfKey, ruleRows, totals, type RuleRow, type TestRecord, type TestVerdict } from './verdicts';
import { reportsDir } from '../core/reports-dir';
import { compareWithSetting } from '../core/settings';
import { tallyOf, type TransientTally } from '../core/transient-tally';

export interface MatrixOptions {
  outputDir?: string;
  /** Where the target fixture leaves what /v2/version answered (target URL, version, features). */
  targetFile?: string;
  /** Kept across runs, like Allure's history: each target's folder under it holds its previous run. */
  historyDir?: string;
}

export interface TargetInfo {
  baseUrl?: string;
  version?: string;
  participantId?: string;
  runId?: string;
  expectations?: ExpectationsInfo;
  features?: unknown;
  /** Set by the global setup when the target gave no answer at all. */
  unreachable?: string;
  /** Set by the global setup when credentials went over plain http (core/cleartext.ts's words). */
  cleartext?: string;
  /** The run's settings that change its timing, kept with each judged run of the series. */
  workers?: number;
  timeoutScale?: number;
  /** Transient answers the checks before the tests asked again (core/transient-tally.ts). */
  transientRetried?: TransientTally;
}

/** One test's verdict, keyed by Playwright's test id (the Allure results carry it as a label). */
export interface TestVerdictRecord extends TestRecord {
  id: string;
  project: string;
  /** The expectations entries that named the test (`<layer>#<n>`). */
  expectations: string[];
  /** The key of the entry that excuses it, when one does. */
  excusedKey?: string;
  /** The command that reruns exactly this test, when it did not pass as expected. */
  rerun?: string;
  /** Each transient answer its requests were sent again after (`<operation>: <answer>`). */
  retried: string[];
}

/** Test verdicts that make a run fail, whatever Playwright's own status says. */
const NOT_PASSING: ReadonlySet<TestVerdict> = new Set([
  'fail',
  'unexpected-pass',
  'harness-defect',
  'setup',
  'inconclusive',
]);

export default class RuleMatrixReporter implements Reporter {
  private readonly records = new Map<string, TestVerdictRecord>();
  private rootDir = process.cwd();
  private readonly outputDir: string;
  private readonly targetFile: string;
  private readonly historyDir: string;

  constructor(options: MatrixOptions = {}) {
    this.outputDir = options.outputDir ?? reportsDir();
    this.targetFile = options.targetFile ?? join(this.outputDir, 'target.json');
    this.historyDir = options.historyDir ?? join(this.outputDir, 'history');
  }

  onBegin(config: FullConfig, _suite: Suite): void {
    this.rootDir = config.rootDir;
    // Where this run's reporters write, for the secret gate (core/report-outputs.ts).
    recordReporters(this.outputDir, config.reporter);
  }

  onTestEnd(test: TestCase, result: TestResult): void {
    const { verdict, reason } = classify(test, result);
    const first = this.records.get(test.id);
    // A re-check (LEDGER_RECHECK: Playwright's isolated retry at the end of the run) never turns a FAIL into a
    // pass: the first verdict stays, with what the re-check saw. Other verdicts are not re-checked.
    if (first !== undefined && result.retry > 0) {
      if (first.verdict === 'fail' && (verdict === 'pass' || verdict === 'fail'))
        this.records.set(test.id, { ...first, recheck: verdict === 'pass' ? 'passed' : 'failed' });
      return;
    }
    const layer = (type: string) => {
      const key = test.annotations.find((a) => a.type === type)?.description;
      return key === undefined ? undefined : layerOfKey(key);
    };
    const [excusedBy, expiredIn] = [layer(EXCUSED_BY), layer(EXPECTATION_EXPIRED)];
    const excusedKey = test.annotations.find((a) => a.type === EXCUSED_BY)?.description;
    this.records.set(test.id, {
      ...(excusedBy ? { excusedBy, excusedKey } : {}),
      ...(expiredIn ? { expiredIn } : {}),
      id: test.id,
      project: test.parent.project()?.name ?? '',
      ruleId: ruleIdOfTitle(test.title),
      title: test.title,
      file: relative(this.rootDir, test.location.file),
      verdict,
      reason,
      durationMs: result.duration,
      expectations: test.annotations.filter((a) => a.type === EXPECTATION).map((a) => a.description ?? ''),
      rerun: test.annotations.find((a) => a.type === RERUN_ANNOTATION)?.description,
      retried: test.annotations.filter((a) => a.type === TRANSIENT_RETRIED).map((a) => a.description ?? ''),
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
    const target = readJsonFile<TargetInfo>(this.targetFile);
    const generatedAt = new Date().toISOString();
    // A target that never answered has no capabilities to compare and no verdicts to keep: its run changes
    // neither its fingerprint nor its history (the next run is compared with the last run that reached it).
    const reached = target !== undefined && !target.unreachable;
    const runTarget = {
      baseUrl: target?.baseUrl,
      participantId: target?.participantId,
      version: target?.version,
    };
    const fingerprintFile = join(targetHistoryDir(this.historyDir, runTarget), 'fingerprint.json');
    const fingerprint: Fingerprint | undefined = reached
      ? fingerprintOf({ version: target.version, features: target.features })
      : undefined;
    const fingerprintChanges = fingerprint
      ? diffFingerprints(readJsonFile<Fingerprint>(fingerprintFile), fingerprint)
      : [];
    const history = {
      historyDir: this.historyDir,
      compareWith: compareWithSetting(),
    };
    const baseline = baselineOf(history, runTarget);
    const series = judgeSeries(targetHistoryDir(this.historyDir, runTarget), rows, {
      generatedAt,
      runId: target?.runId,
      version: target?.version,
      workers: target?.workers,
      timeoutScale: target?.timeoutScale,
    });
    const changes = series.apply(diffRuns(baseline.snapshot, rows, baseline.since));
    const report = matrixReport({
      generatedAt,
      status,
      target,
      runTarget,
      records,
      rows,
      changes,
      fingerprint,
      fingerprintChanges,
      lastNights: series.pictures,
      // The participant's own API description, compared; never a verdict.
      description: descriptionOfRun(this.outputDir, this.historyDir, runTarget, reached),
    });
    this.write(report);
    if (reached && fingerprint) {
      mkdirSync(dirname(fingerprintFile), { recursive: true });
      writeFileSync(fingerprintFile, JSON.stringify(fingerprint, null, 2) + '\n');
      // A collapse is kept in the series (its pictures show it) but is no baseline for the next run.
      if (!changes.collapsed)
        keepRun(history, snapshotOf(generatedAt, target.runId, runTarget, rows), baseline.last);
      series.keep();
    }
    writeLastNights(this.outputDir, report);
    process.stdout.write(renderSummary(report));
    return status === result.status ? undefined : { status };
  }

  /** conformance.json and conformance.md, masked as they are written. */
  private write(report: ReturnType<typeof matrixReport>): void {
    mkdirSync(this.outputDir, { recursive: true });
    // Masked as it is written: every secret setting's value (core/secrets.ts), URL credentials, JWTs.
    registerSecretSettings();
    writeFileSync(
      join(this.outputDir, 'conformance.json'),
      redactWithUrls(JSON.stringify(report, null, 2)) + '\n',
    );
    writeFileSync(join(this.outputDir, 'conformance.md'), redactWithUrls(renderMarkdown(report)));
  }

  printsToStdio(): boolean {
    return false;
  }
}

/** Whether a rule is intermittent tonight (a test's row in the JSON carries it beside its re-check). */
const intermittentOf = (rows: readonly RuleRow[], ruleId: string | undefined): boolean =>
  rows.some((r) => r.id === ruleId && r.intermittent === true);

/** What the run's report is made of. */
interface RunFacts {
  generatedAt: string;
  status: FullResult['status'];
  target: TargetInfo | undefined;
  runTarget: { baseUrl?: string; participantId?: string; version?: string };
  records: TestVerdictRecord[];
  rows: ReturnType<typeof ruleRows>;
  changes: ReturnType<typeof diffRuns>;
  fingerprint: Fingerprint | undefined;
  fingerprintChanges: ReturnType<typeof diffFingerprints>;
  lastNights: LastNights;
  description: DescriptionReport | undefined;
}

/** The report: verdicts per rule and per test, what changed, the expectations' state. */
function matrixReport(run: RunFacts) {
  const { generatedAt, status, target, runTarget, records, rows, changes, fingerprint, fingerprintChanges } =
    run;
  const uncatalogued = records.filter((r) => !r.ruleId || !RULES.some((rule) => rule.id === r.ruleId));
  const gone = records.find((r) => r.reason !== undefined && TARGET_GONE.test(r.reason));
  // Only a rule a test judged can show an entry stale: a test that ended before it reached the participant
  // (the participant lost, a harness defect) never met the entries naming it.
  const judged = records.filter(
    (r) => r.verdict !== 'inconclusive' && r.verdict !== 'harness-defect' && r.verdict !== 'setup',
  );
  const expectations = expectationsStatus(
    target?.expectations,
    new Set(records.flatMap((r) => r.expectations)),
    new Set(judged.map((r) => r.ruleId).filter((id): id is string => id !== undefined)),
  );
  return {
    generatedAt,
    status,
    runId: target?.runId,
    // Why the run could not judge the target (down from the start, or lost during the run), if so.
    targetLost: target?.unreachable
      ? `target unreachable: ${target.unreachable}`
      : gone?.reason && withoutInconclusive(gone.reason),
    target: target ? runTarget : undefined,
    ...(target?.cleartext ? { cleartext: target.cleartext } : {}),
    // What changed since the baseline run of this target: what a nightly's reader looks at first.
    changes,
    fingerprint,
    fingerprintChanges,
    description: run.description,
    totals: totals(rows),
    rules: rows,
    // Each rule's verdicts over this target's judged runs, tonight's last: the pictures of the last nights.
    lastNights: run.lastNights,
    expectations: {
      layers: target?.expectations?.layers ?? [],
      expired: expectations.expired,
      stale: expectations.stale,
    },
    uncatalogued: uncatalogued.map((r) => r.title),
    // Transient answers asked again, per operation: before the tests and in them (core/retry.ts).
    transientRetried: tallyOf(
      records.flatMap((r) => r.retried),
      target?.transientRetried,
    ),
    // Every test's verdict: the Allure report's `verdict` labels and categories are set from these.
    tests: records.map(
      ({ id, project, ruleId, title, file, verdict, reason, rerun, excusedBy, excusedKey, recheck }) => ({
        id,
        project,
        ruleId,
        title,
        file,
        verdict,
        reason,
        ...(rerun ? { rerun } : {}),
        ...(excusedBy ? { excusedBy } : {}),
        ...excuseOf(verdict, excusedKey, target?.expectations),
        ...(recheck ? { recheck } : {}),
        ...(intermittentOf(rows, ruleId) ? { intermittent: true } : {}),
      }),
    ),
  };
}
