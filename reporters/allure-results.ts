// What the report build adds to allure-playwright's results before Allure reads them:
// - every test's verdict, as the rule matrix judged it (it sees every step and error; Allure does not), as the
//   label `verdict` in VERDICT_WORDS' words, which allurerc.ts's categories match on. Inconclusive runs and
//   harness defects become Allure's "broken", so "failed" in the report means non-conformance and nothing else;
// - the environment block (environment.properties): what the global setup learned from the target, which is
//   only known once the run has started, plus the harness version and the capability changes.
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FingerprintChange } from './fingerprint';
import { flatten } from './fingerprint';
import { CHANGE_KINDS, changeCount, type Changes } from './run-history';
import { CHANGE_HEADINGS, sinceWords } from './matrix-render';
import { VERDICT_WORDS, type TestVerdict } from './verdicts';
import { verdictText } from './verdict-words';
import type { Excuse } from './expectations-status';
import { errorDetail, hintsSaidAs } from './reason';

import { TEST_ID_LABEL } from '../core/verdict-marks';

export const VERDICT_LABEL = 'verdict';

interface Label {
  name: string;
  value?: string;
}

export interface AllureResultFile {
  name?: string;
  status?: string;
  labels?: Label[];
  description?: string;
  links?: { name?: string; url: string; type?: string }[];
  statusDetails?: {
    message?: string;
    trace?: string;
    /** Allure 3: a failure accepted as known (shown as "Accepted", counted apart from the failures). */
    known?: boolean;
    /** Allure 3: a failure muted (shown as "Muted", counted apart from the failures). */
    muted?: boolean;
  };
}

export interface VerdictOfTest {
  id: string;
  ruleId?: string;
  verdict: TestVerdict;
  reason?: string;
  /** The expectations layer whose entry applies to the test: `canton`, or a team's file (a waiver). */
  excusedBy?: string;
  /** That entry's reason, owner, ticket and end date. */
  excuse?: Excuse;
  /** A FAIL's re-check at the end of the run (LEDGER_RECHECK), and whether its rule is intermittent. */
  recheck?: 'passed' | 'failed';
  intermittent?: boolean;
}

/** Allure's status for a verdict: "failed" is kept for non-conformance (and a baseline that no longer holds). */
export function allureStatusOf(
  verdict: TestVerdict | 'not-run',
  current: string | undefined,
): string | undefined {
  if (verdict === 'inconclusive' || verdict === 'harness-defect' || verdict === 'setup') return 'broken';
  if (verdict === 'not-run') return 'skipped';
  return current;
}

/** Allure's status of a known deviation or a waived failure: neither passed nor failed, counted on its own. */
export const EXCUSED_STATUS = 'unknown';

/**
 * A known deviation is neither a pass nor a failure of the target. Allure has no status of our own to give it;
 * "unknown" is the one it counts apart on the overview, beside passed and failed (a failure marked known or muted
 * would still count as failed there). The categories (allurerc.ts) tell Canton's baseline from a team's
 * waiver, and the environment block names both with their counts. The message is the matrix's reason, whole.
 */
function excuse(result: AllureResultFile, test: VerdictOfTest): void {
  result.status = EXCUSED_STATUS;
  if (test.reason) result.statusDetails = { ...result.statusDetails, message: test.reason };
  showExcuse(result, test);
}

/** How an excuse opens its test's description: whose it is, then owner, ticket and end date. */
export function excuseHeading(e: Excuse): string {
  const whose = e.layer === 'canton' ? "**Known deviation** (Canton's baseline)" : `**Waived** by ${e.layer}`;
  const facts = [
    `owner ${e.owner ?? 'not named'}`,
    `ticket ${e.ticket ?? 'not named'}`,
    `until ${e.until ?? 'no end date'}`,
  ];
  return `${whose} — ${facts.join(' · ')}`;
}

/**
 * Allure shows no message for its status "unknown": the excuse is shown where every test page shows text — first
 * in the description (whose, owner, ticket, end date, the reason) — with the owner as Allure's `owner` label and
 * a ticket that is an address as a link. Idempotent.
 */
function showExcuse(result: AllureResultFile, test: VerdictOfTest): void {
  const e = test.excuse;
  if (e === undefined) return;
  const heading = excuseHeading(e);
  if (!result.description?.startsWith(heading)) {
    const block = `${heading}\n\n${test.reason ?? e.reason}`;
    result.description = result.description ? `${block}\n\n${result.description}` : block;
  }
  // Before the verdict label, which every build puts last: a second build writes the same file.
  if (e.owner && !result.labels?.some((l) => l.name === 'owner')) {
    const labels = result.labels ?? [];
    const verdictAt = labels.findIndex((l) => l.name === VERDICT_LABEL);
    labels.splice(verdictAt < 0 ? labels.length : verdictAt, 0, { name: 'owner', value: e.owner });
    result.labels = labels;
  }
  if (e.ticket && URL.canParse(e.ticket) && !result.links?.some((l) => l.url === e.ticket))
    result.links = [...(result.links ?? []), { name: e.ticket, url: e.ticket, type: 'issue' }];
}

/**
 * The environment block's keys. Allure's overview cuts a key after a dozen characters or so ("features.experi…"),
 * so each is short, and what varies (a feature's path, a kind of change) is in its value, which shows whole.
 */
export const ENV_KEYS = {
  changesSince: 'Changes since',
  changes: 'Changes',
  deviations: 'Deviations',
  waived: 'Waived',
  target: 'Target',
  faults: 'Faults',
  plainHttp: 'Plain http',
  version: 'API version',
  capabilities: 'Capabilities',
  capabilityChanges: 'Cap. changes',
  runId: 'Run id',
  seed: 'Seed',
  timeoutScale: 'Timeout scale',
  auth: 'Auth',
  harness: 'Harness',
} as const;

/** Canton's known deviations and the team's waivers of a run, each rule once: the environment block's lines. */
export function excusedEntries(tests: readonly VerdictOfTest[]): [string, string][] {
  const rules = (waiver: boolean) => [
    ...new Set(
      tests
        .filter((t) => t.verdict === 'known-deviation')
        .filter((t) => (t.excusedBy !== undefined && t.excusedBy !== 'canton') === waiver)
        .map((t) => t.ruleId ?? t.id),
    ),
  ];
  const entry = (name: string, words: string, list: string[]): [string, string][] =>
    list.length === 0
      ? []
      : [[name, `${list.length} ${words} (Allure status ${EXCUSED_STATUS}): ${list.join(', ')}`]];
  return [
    ...entry(ENV_KEYS.deviations, "of Canton's baseline", rules(false)),
    ...entry(ENV_KEYS.waived, 'by a team', rules(true)),
  ];
}

/** The tag of a test whose rule is intermittent by the written rule (reporters/intermittent.ts). */
export const INTERMITTENT_TAG = 'intermittent';

/**
 * What the target's history says of a test, beside its verdict: an intermittent rule's tests carry the tag
 * `intermittent` and a failure's message opens with it; a FAIL that passed on re-check stays failed in every
 * attempt Allure shows (Playwright's retry passed it), with the re-check named. Idempotent.
 */
function nameTheHistory(result: AllureResultFile, test: VerdictOfTest): void {
  const words = test.verdict === 'fail' ? verdictText('fail', test) : undefined;
  if (test.recheck !== undefined && test.verdict === 'fail') result.status = 'failed';
  if (
    test.intermittent === true &&
    !result.labels?.some((l) => l.name === 'tag' && l.value === INTERMITTENT_TAG)
  )
    result.labels = [...(result.labels ?? []), { name: 'tag', value: INTERMITTENT_TAG }];
  if (words === undefined || words === 'FAIL') return;
  const message = result.statusDetails?.message ?? test.reason ?? '';
  if (!message.startsWith(words))
    result.statusDetails = { ...result.statusDetails, message: `${words}: ${message}` };
}

/**
 * A FAIL's message in the rule's words: the matrix's reason first (what the check expected and what came back),
 * then Playwright's detail without its matcher hint; the trace keeps its frames, the hint said as the reason.
 * Idempotent.
 */
function inRuleWords(result: AllureResultFile, test: VerdictOfTest): void {
  const details = result.statusDetails;
  const reason = test.reason;
  if (reason === undefined || details?.message === undefined || details.message.startsWith(reason)) return;
  const detail = errorDetail(details.message, reason);
  result.statusDetails = {
    ...details,
    message: detail.trim() === '' ? reason : `${reason}\n\n${detail}`,
    ...(details.trace === undefined ? {} : { trace: hintsSaidAs(details.trace, reason) }),
  };
}

/** A result the matrix never judged: its Allure status says what little is known. */
function verdictOfStatus(status: string | undefined): TestVerdict | 'not-run' {
  if (status === 'passed') return 'pass';
  if (status === 'failed') return 'fail';
  if (status === 'broken') return 'inconclusive';
  return 'not-run';
}

/**
 * Labels each `*-result.json` in `dir` with its test's verdict (idempotent). A result the matrix has no verdict
 * for — a test Playwright never started (no test id), or a matrix from another run — keeps its status and is
 * labelled from it; those are returned as `unjudged` so the build can say so.
 */
export function annotateResults(
  dir: string,
  tests: readonly VerdictOfTest[],
): { annotated: number; unjudged: string[] } {
  const byId = new Map(tests.map((t) => [t.id, t.verdict]));
  const byTest = new Map(tests.map((t) => [t.id, t]));
  let annotated = 0;
  const unjudged: string[] = [];
  for (const name of readdirSync(dir).filter((f) => f.endsWith('-result.json'))) {
    const path = join(dir, name);
    const result = JSON.parse(readFileSync(path, 'utf8')) as AllureResultFile;
    const labels = result.labels ?? [];
    const id = labels.find((l) => l.name === TEST_ID_LABEL)?.value;
    const judged = id !== undefined ? byId.get(id) : undefined;
    const verdict = judged ?? verdictOfStatus(result.status);
    if (judged === undefined && verdict !== 'not-run') unjudged.push(result.name ?? name);
    result.labels = [
      ...labels.filter((l) => l.name !== VERDICT_LABEL),
      { name: VERDICT_LABEL, value: VERDICT_WORDS[verdict].allure },
    ];
    if (judged !== undefined) result.status = allureStatusOf(judged, result.status);
    const test = id !== undefined ? byTest.get(id) : undefined;
    if (test?.verdict === 'known-deviation') excuse(result, test);
    if (test?.verdict === 'fail') inRuleWords(result, test);
    if (test !== undefined) nameTheHistory(result, test);
    writeFileSync(path, JSON.stringify(result));
    annotated++;
  }
  return { annotated, unjudged };
}

/**
 * allure-playwright reports an error in a fixture as a "global error" of the run — including the skip of a
 * test its baseline skips (`testInfo.skip` throws inside the fixture). A skip is no error: those are dropped.
 */
export function dropSkipGlobals(dir: string): number {
  let dropped = 0;
  for (const name of readdirSync(dir).filter((f) => f.endsWith('-globals.json'))) {
    const path = join(dir, name);
    const globals = JSON.parse(readFileSync(path, 'utf8')) as { errors?: { message?: string }[] };
    const errors = globals.errors ?? [];
    const kept = errors.filter(
      (e) => !/^(?:Before Hooks failed: )?Error: Test is skipped:/.test(e.message ?? ''),
    );
    dropped += errors.length - kept.length;
    if (kept.length !== errors.length) writeFileSync(path, JSON.stringify({ ...globals, errors: kept }));
  }
  return dropped;
}

/** What the global setup wrote (reports/target.json). */
export interface TargetFile {
  baseUrl?: string;
  participantId?: string;
  version?: string;
  features?: unknown;
  runId?: string;
  seed?: string | number;
  timeoutScale?: number;
  auth?: string;
  sandbox?: { url: string; mode: string; faults: string[] };
  /** Credentials went over plain http (core/cleartext.ts's words), when they did. */
  cleartext?: string;
}

/** The environment block, in display order. Never a credential: the URL is shown without user info. */
export function environmentEntries(
  target: TargetFile | undefined,
  changes: readonly FingerprintChange[] | undefined,
  harnessVersion: string,
  verdictChanges?: Changes,
  tests: readonly VerdictOfTest[] = [],
): [string, string][] {
  const entries: [string, string][] = [];
  const t = target ?? {};
  // First, where a reviewer looks first: what changed since the baseline run of this target, then what was
  // excused (the overview counts it as "unknown": these lines say what that is).
  if (verdictChanges !== undefined) entries.push(...changesEntries(verdictChanges));
  entries.push(...excusedEntries(tests));
  entries.push([
    ENV_KEYS.target,
    t.sandbox
      ? `in-process sandbox ${t.sandbox.url} (mode ${t.sandbox.mode})`
      : (t.baseUrl ?? 'unknown (no reports/target.json)'),
  ]);
  if (t.sandbox && t.sandbox.faults.length > 0)
    entries.push([ENV_KEYS.faults, `the sandbox is deliberately broken: ${t.sandbox.faults.join(', ')}`]);
  // Credentials that went over plain http (core/cleartext.ts): said in the report, not only on the console.
  if (t.cleartext) entries.push([ENV_KEYS.plainHttp, t.cleartext]);
  entries.push([ENV_KEYS.version, t.version ?? 'unknown']);
  // The capability fingerprint: every feature and limit, by its dotted path under `features`.
  const features = Object.entries(flatten(t.features ?? {}));
  entries.push([
    ENV_KEYS.capabilities,
    features.length === 0
      ? 'unknown'
      : features.map(([path, value]) => `${path}=${String(value)}`).join('; '),
  ]);
  entries.push([
    ENV_KEYS.capabilityChanges,
    changes === undefined
      ? 'unknown'
      : changes.length === 0
        ? 'none since the previous run'
        : changes
            .map((c) => `${c.path}: ${JSON.stringify(c.before)} → ${JSON.stringify(c.after)}`)
            .join('; '),
  ]);
  entries.push([ENV_KEYS.runId, t.runId ?? 'unknown']);
  entries.push([ENV_KEYS.seed, t.seed === undefined ? 'unknown' : String(t.seed)]);
  entries.push([ENV_KEYS.timeoutScale, t.timeoutScale === undefined ? 'unknown' : String(t.timeoutScale)]);
  entries.push([ENV_KEYS.auth, t.auth ?? 'unknown']);
  entries.push([ENV_KEYS.harness, harnessVersion]);
  return entries;
}

/** The changes as environment entries: the baseline and its count, then each kind with its rules in one value. */
function changesEntries(c: Changes): [string, string][] {
  if (c.judgedNothing) return [[ENV_KEYS.changesSince, 'nothing to compare: this run judged no rule']];
  if (c.since === null) return [[ENV_KEYS.changesSince, 'no earlier run of this target to compare with']];
  const head: [string, string] = [
    ENV_KEYS.changesSince,
    `${sinceWords(c.since)}: ${changeCount(c) === 0 ? 'no verdict changed' : `${changeCount(c)} rules changed`}`,
  ];
  const kinds = CHANGE_KINDS.filter((k) => c[k].length > 0).map(
    (k) => `${CHANGE_HEADINGS[k].replace(/ \(.*$/, '')}: ${c[k].map((x) => x.rule).join(', ')}`,
  );
  return kinds.length === 0 ? [head] : [head, [ENV_KEYS.changes, kinds.join('; ')]];
}

/** Java properties escaping (Allure reads environment.properties): keys escape spaces and separators. */
function escapeProperty(text: string, key: boolean): string {
  let out = '';
  for (const ch of text) {
    const code = ch.codePointAt(0)!;
    if (ch === '\\') out += '\\\\';
    else if (ch === '\n') out += '\\n';
    else if (ch === '\r') out += '\\r';
    else if (ch === '\t') out += '\\t';
    else if (key && (ch === ' ' || ch === '=' || ch === ':' || ch === '#' || ch === '!')) out += `\\${ch}`;
    else if (code > 0x7e || code < 0x20) {
      // UTF-16 code units, as \uXXXX.
      for (const unit of ch.split('').map((c) => c.charCodeAt(0)))
        out += `\\u${unit.toString(16).padStart(4, '0')}`;
    } else out += ch;
  }
  return out;
}

export function renderProperties(entries: readonly [string, string][]): string {
  return entries.map(([k, v]) => `${escapeProperty(k, true)}=${escapeProperty(v, false)}`).join('\n') + '\n';
}

/** Replaces allure-playwright's environment.properties (written from the config, before the target was known). */
export function writeEnvironment(dir: string, entries: readonly [string, string][]): void {
  writeFileSync(join(dir, 'environment.properties'), renderProperties(entries));
}

export { readJsonFile } from './json-file';
