// Playwright global setup of the conformance run: resolves the target — LEDGER_BASE_URL, or the in-process
// sandbox (the one `npm run conformance` started beside Playwright, or one built here:
// scripts/run/embedded-sandbox.ts), handed to the workers through the run context (core/run-context.ts) — reads its
// /v2/version once, prints the run-information block and leaves reports/target.json for the reporters.
// Against a real participant it first asks for the identity settings left unset and runs the preflight checks
// (scripts/preflight/checks.ts): a check that fails stops the run with one line (exit 2, or 4: target gone).
// The harness (fixtures/, tests/) never imports the sandbox; only runner-side scripts do, and only when
// needed.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { resolve } from 'node:path';
import { displayUrl, settings, type Settings } from '../../core/settings';
import { announceClearCredentials } from '../../core/cleartext';
import { capabilitiesOf } from '../../core/target-info';
import { handOff } from '../../core/run-context';
import {
  checkIdentities,
  preflight,
  PreflightError,
  probeControlRoute,
  readVersion,
  skipForecast,
  staticTokenLife,
  timeAnswers,
  type IdentityValue,
  type VersionRead,
} from '../preflight/checks';
import {
  chooseTimeoutScale,
  timeoutScaleLine,
  workersLine,
  type AnswerTimes,
  type TimeoutScaleChoice,
} from './pace';
import { selectionWrites } from '../../core/selection';
import { embeddedSandbox, startSandbox, type EmbeddedSandbox } from './embedded-sandbox';
import { vettingSize } from './vetting-size';
import { forecastTopology } from '../preflight/topology-forecast';
import type { Skip } from '../../core/rule-needs';
import { blockedReason, handOffBlocked, type Blocked } from '../../core/blocked';
import { expectationsInfo, expectationsLine } from './expectations-info';
import { compareWithProblem } from '../history/baseline';
import { plainErrorSnippets } from '../../plumbing/plain-snippets';
import { EXIT } from '../../core/exit-codes';
import { reportsDir } from '../../core/reports-dir';
import { PATHS } from '../../core/api-paths';
import { readDescription, type DescriptionRead } from '../../core/openapi-read';
import { redactWithUrls } from '../../core/redact';
import {
  describeDrift,
  descriptionFile,
  descriptionInfoLine,
  previousDescription,
} from '../../reporters/openapi-drift';
import type { ControlRoute } from '../../core/control-route';
import { SETUP_RETRIED } from '../preflight/client';
import { tallyTotal, tallyWords } from '../../core/transient-tally';

const REPORTS = reportsDir();

/** The run-information label of an identity setting (short: the block's labels are 14 columns). */
const IDENTITY_LABEL: Record<IdentityValue['setting'], string> = {
  LEDGER_PARTICIPANT_ID: 'participant',
  LEDGER_USER: 'user',
  LEDGER_ACT_AS: 'act as',
  LEDGER_READ_AS: 'read as',
  LEDGER_UNAUTHORIZED_PARTY: 'unauthorized',
  LEDGER_SYNCHRONIZER_ID: 'synchronizer',
  LEDGER_COMMAND_TEMPLATE: 'template',
};
/** A selection that writes nothing: what it sends instead of commands that could commit. */
const READ_ONLY_LINE: [string, string] = [
  'read-only',
  'every submission is inert (led by an exercise of a contract that cannot exist)',
];

const identityLabel = (setting: IdentityValue['setting']): string => IDENTITY_LABEL[setting];

export function authLine(s: Settings): string {
  const form =
    s.auth.kind === 'none' || s.auth.kind === 'static' || s.auth.kind === 'oauth2'
      ? ''
      : `, ${s.token.form} form`;
  const life = staticTokenLife(s);
  return `${s.auth.kind}${form}, user ${s.userExplicit || form ? s.user : '(from the token)'}${life ? `; ${life}` : ''}`;
}

/** What the global setup learned of the target before the run-information block. */
interface Resolved {
  s: Settings;
  baseUrl: string;
  sandbox: EmbeddedSandbox | undefined;
  version: VersionRead;
  identity: IdentityValue[] | undefined;
  times: AnswerTimes | undefined;
  /** What the participant's listing lacks that the submitting rules need (core/blocked.ts). */
  blocked?: Blocked;
}

/** The target: LEDGER_BASE_URL, or the in-process sandbox (`npm run conformance`'s, or one started here). */
async function resolveTarget(
  s: Settings,
): Promise<{ baseUrl: string; sandbox: EmbeddedSandbox | undefined }> {
  if (s.baseUrl !== undefined) return { baseUrl: s.baseUrl, sandbox: undefined };
  const sandbox = (await embeddedSandbox()) ?? (await startSandbox());
  handOff({ resolvedBaseUrl: sandbox.url });
  return { baseUrl: sandbox.url, sandbox };
}

/**
 * A real participant: ask for the identity settings left unset, hand them to the workers (they re-read their
 * settings from process.env), and run the preflight checks, so a run that nothing could pass stops here with
 * one line instead of a page of red tests. Unless LEDGER_TIMEOUT_SCALE is set, how long the participant takes to
 * answer sets the timeouts.
 */
async function checkParticipant(
  given: Settings,
  baseUrl: string,
): Promise<Pick<Resolved, 's' | 'version' | 'identity' | 'times' | 'blocked'>> {
  let s = given;
  const checked = await preflight(s, baseUrl);
  let identity: IdentityValue[] | undefined;
  if (checked.resolution) {
    Object.assign(process.env, checked.resolution.env);
    // A failed test's rerun command names the settings given, not these: a rerun asks for them again.
    handOff({ discovered: Object.keys(checked.resolution.env).join(',') });
    identity = checked.resolution.identity;
    s = checked.resolution.settings;
  }
  const blocked = checked.missing && { line: checked.missing.message, answered: checked.missing.answered };
  handOffBlocked(blocked);
  const times =
    !s.timeoutScaleExplicit && !checked.version.unreachable
      ? await timeAnswers(
          s,
          baseUrl,
          blocked
            ? "the participant's listing lacks the template's package: no submission to time"
            : selectionWrites() || 'the selection creates nothing, all its rules @readonly',
        )
      : undefined;
  return { s, version: checked.version, identity, times, blocked };
}

/** The in-process sandbox: its version, and the identity settings that override its development defaults. */
async function checkSandbox(s: Settings, baseUrl: string): Promise<VersionRead> {
  const version = await readVersion(baseUrl, s);
  await checkIdentities(s, baseUrl);
  return version;
}

/** The checks before any test; a failed one ends the process with its one line and exit code. */
async function checkTarget(given: Settings): Promise<Resolved> {
  const { baseUrl, sandbox } = await resolveTarget(given);
  try {
    if (sandbox)
      return {
        s: given,
        baseUrl,
        sandbox,
        version: await checkSandbox(given, baseUrl),
        identity: undefined,
        times: undefined,
      };
    return { baseUrl, sandbox, ...(await checkParticipant(given, baseUrl)) };
  } catch (e) {
    if (!(e instanceof PreflightError)) throw e;
    process.stderr.write(`ledger-conformance: ${e.message}\n`);
    // A target that stopped answering leaves its trace: a shard's merge then names it instead of a missing shard.
    if (e.exitCode === EXIT.targetDown)
      writeTarget({
        baseUrl: displayUrl(baseUrl),
        startedAt: new Date().toISOString(),
        unreachable: e.message,
      });
    process.exit(e.exitCode);
  }
}

/** The timeout scale the workers use: handed to them, as they read their settings from their environment. */
function chooseAndHandPace(r: Resolved): TimeoutScaleChoice {
  const pace = chooseTimeoutScale(
    r.s,
    r.times,
    r.sandbox ? 'the in-process sandbox: nothing to measure' : 'the target did not answer',
  );
  handOff({ measuredTimeoutScale: pace.measured ? String(pace.scale) : undefined });
  return pace;
}

/** What the run-information block and target.json say, gathered once. */
interface RunInfo {
  caps: ReturnType<typeof capabilitiesOf>;
  controlRoute: ControlRoute;
  pace: TimeoutScaleChoice;
  vetting: Awaited<ReturnType<typeof vettingSize>> | undefined;
  expectations: ReturnType<typeof expectationsInfo>;
  /** The participant's own API description (GET /docs/openapi): read beside the run, never judged. */
  description: DescriptionRead;
  /** The skips the listing's topology makes (scripts/preflight/topology-forecast.ts). */
  topology: Skip[];
}

async function gatherInfo(r: Resolved): Promise<RunInfo> {
  const { s, baseUrl } = r;
  const { document, unreachable } = r.version;
  const controlRoute = unreachable
    ? 'absent'
    : await probeControlRoute(s, baseUrl).catch((): ControlRoute => 'absent');
  const pace = chooseAndHandPace(r);
  const caps = capabilitiesOf(document);
  const vetting = unreachable
    ? undefined
    : await vettingSize(s, baseUrl, caps.limits.maxVettedPackagesPageSize);
  const expectations = expectationsInfo(s.expectations, caps.version, undefined, s.fileDirs);
  const description: DescriptionRead = unreachable
    ? { state: 'unreadable', line: 'not read (the target cannot be reached)' }
    : await readDescription(s, baseUrl);
  const topology = unreachable
    ? []
    : await forecastTopology(s, baseUrl, caps.limits.maxVettedPackagesPageSize);
  return { caps, controlRoute, pace, vetting, expectations, description, topology };
}

/** The run-information block's lines. */
function infoLines(r: Resolved, info: RunInfo, config: FullConfig | undefined): [string, string][] {
  const { s, baseUrl, sandbox, identity } = r;
  const { problem, unreachable } = r.version;
  const { caps } = info;
  const target = sandbox ? `in-process sandbox ${baseUrl} (mode ${sandbox.mode})` : displayUrl(baseUrl);
  return [
    ['target', target],
    ['version', caps.version ?? `unknown (GET ${PATHS.version}: ${problem ?? 'no version string'})`],
    ['auth', authLine(s)],
    ...(info.vetting ? [['vetting', info.vetting.line] as [string, string]] : []),
    ['seed', s.seed === undefined ? 'per test, from its title (set LEDGER_SEED to fix it)' : String(s.seed)],
    ['timeout scale', timeoutScaleLine(info.pace)],
    ['expectations', expectationsLine(info.expectations)],
    ['description', descriptionLineOf(r, info.description)],
    ['workers', workersLine(config?.workers, s)],
    ['run id', s.runId ?? '(none: ids use "local")'],
    // Answers Canton marks transient, asked again before the tests (core/retry.ts): told, never hidden.
    ...(tallyTotal(SETUP_RETRIED) > 0 ? [['retried', tallyWords(SETUP_RETRIED)] as [string, string]] : []),
    // The promise a production run is made under (core/inert.ts); the fixtures stop any submission that breaks it.
    ...(selectionWrites() ? [] : [READ_ONLY_LINE]),
    // Each identity value and where it came from: a setting, the development default, or the participant.
    ...(identity ?? []).map((v): [string, string] => [identityLabel(v.setting), `${v.value} (${v.source})`]),
    ...(r.blocked
      ? [['blocked', `the rules that submit: ${blockedReason(r.blocked)}`] as [string, string]]
      : []),
    ...(unreachable ? [] : [...skipForecast(s, caps.version, info.controlRoute), ...info.topology]).map(
      (k): [string, string] => ['will skip', `${k.rules}: ${k.reason}`],
    ),
  ];
}

/** The description's line: its differences from the document and since the target's previous run. */
function descriptionLineOf(r: Resolved, read: DescriptionRead): string {
  const target = { baseUrl: shownUrlOf(r), participantId: r.s.participantId };
  return descriptionInfoLine(describeDrift(read, previousDescription(resolve(REPORTS, 'history'), target)));
}

const shownUrlOf = (r: Resolved): string => (r.sandbox ? 'in-process sandbox' : displayUrl(r.baseUrl));

function printInfo(lines: [string, string][]): void {
  process.stdout.write(
    ['', 'ledger-conformance run', ...lines.map(([k, v]) => `  ${k.padEnd(14)}${v}`), ''].join('\n') + '\n',
  );
}

/**
 * No test can say anything: each ends at set-up as inconclusive (core/target-lost.ts), in seconds, and the
 * reports are still written; `npm run conformance` exits with its own code for a target that is down.
 */
function announceUnreachable(r: Resolved): void {
  const { unreachable } = r.version;
  if (!unreachable) return;
  handOff({ unreachable: unreachable.cause });
  process.stderr.write(
    `ledger-conformance: the target LEDGER_BASE_URL=${displayUrl(r.baseUrl)} cannot be reached: ${unreachable.cause}; ` +
      `${unreachable.check}. No rule can be judged: each test ends at its start, inconclusive, and the report says so.\n`,
  );
}

/** A named baseline that this target does not have: say so now, not after the run. */
function checkBaseline(shownUrl: string, s: Settings): void {
  const missing = compareWithProblem(resolve(REPORTS, 'history'), {
    baseUrl: shownUrl,
    participantId: s.participantId,
  });
  if (missing === undefined) return;
  process.stderr.write(`ledger-conformance: ${missing}\n`);
  process.exit(EXIT.badSetting);
}

/** reports/target.json: what the reporters know of the target. */
function targetInfo(r: Resolved, info: RunInfo, shownUrl: string, config: FullConfig | undefined) {
  const { s, sandbox, identity } = r;
  return {
    baseUrl: shownUrl,
    participantId: s.participantId,
    version: info.caps.version,
    features: (r.version.document as { features?: unknown } | undefined)?.features,
    runId: s.runId,
    seed: s.seed ?? 'per test',
    timeoutScale: info.pace.scale,
    timeoutScaleSource: info.pace.source,
    // Kept with each judged run of the target's series: a rule flipping with them flips with the timing.
    workers: config?.workers ?? s.workers,
    vettingEntries: info.vetting?.entries,
    auth: s.auth.kind,
    startedAt: new Date().toISOString(),
    // Read by the rule matrix: an unreachable run is no capability change and leaves the fingerprint alone.
    unreachable: r.version.unreachable?.cause,
    // For the report's environment block: a deliberately broken sandbox must be visible there.
    sandbox: sandbox ? { url: sandbox.url, mode: sandbox.mode, faults: sandbox.faults } : undefined,
    // Against a real participant: every identity value and its source (a setting, or discovered via …).
    identity:
      identity && Object.fromEntries(identity.map((v) => [v.setting, { value: v.value, source: v.source }])),
    // What the participant's listing lacks that the submitting rules need: `npm run conformance`'s exit code.
    blocked: r.blocked,
    // The expectations layers and entries, for the report's expired and stale lists.
    expectations: info.expectations,
    // Transient answers the checks before the tests asked again, added to the tests' own by the rule matrix.
    transientRetried: SETUP_RETRIED,
  };
}

export default async function globalSetup(config?: FullConfig): Promise<(() => Promise<void>) | undefined> {
  // In the runner: with no terminal to show them (CI, a log file, the bench) the colours Playwright puts on every
  // error snippet are dropped anyway, yet each one tokenises the whole spec file (and first loads Babel for it).
  if (!process.stdout.isTTY && !process.env.FORCE_COLOR) plainErrorSnippets();
  const given = settings(); // every setting validated, LEDGER_INTERFACE_DOC_URL included
  // Before the preflight sends the first of them; recorded in target.json for the report a reviewer reads later.
  const cleartext = announceClearCredentials(given);
  const r = await checkTarget(given);
  const info = await gatherInfo(r);
  printInfo(infoLines(r, info, config));
  announceUnreachable(r);
  const shownUrl = shownUrlOf(r);
  checkBaseline(shownUrl, r.s);
  writeTarget({ ...targetInfo(r, info, shownUrl, config), ...(cleartext ? { cleartext } : {}) });
  // Masked as it is written, as every report: the description is the participant's text.
  writeFileSync(descriptionFile(REPORTS), redactWithUrls(JSON.stringify(info.description)) + '\n');
  const sandbox = r.sandbox;
  return sandbox ? () => sandbox.close() : undefined;
}

function writeTarget(info: { baseUrl: string; startedAt: string; unreachable?: string }): void {
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(resolve(REPORTS, 'target.json'), JSON.stringify(info, null, 2) + '\n');
}
