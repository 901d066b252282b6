// Playwright global setup of the conformance run: resolves the target — LEDGER_BASE_URL, or the in-process
// sandbox (the one `npm run conformance` started beside Playwright, or one built here:
// scripts/run/embedded-sandbox.ts), handed to the workers through LEDGER_RESOLVED_BASE_URL — reads its
// /v2/version once, prints the run-information block and leaves reports/target.json for the reporters.
// Against a real participant it first asks for the identity settings left unset and runs the preflight checks
// (scripts/preflight/checks.ts): a check that fails stops the run with one line (exit 2, or 4: target gone).
// The harness (fixtures/, tests/) never imports the sandbox; only runner-side scripts do, and only when
// needed.
import { mkdirSync, writeFileSync } from 'node:fs';
import type { FullConfig } from '@playwright/test';
import { resolve } from 'node:path';
import {
  DISCOVERED_ENV,
  displayUrl,
  MEASURED_TIMEOUT_SCALE_ENV,
  settings,
  type Settings,
} from '../../core/settings';
import { announceClearCredentials } from '../../core/cleartext';
import { capabilitiesOf, RESOLVED_BASE_URL_ENV } from '../../core/target-info';
import { interfaceDocTemplate } from '../../core/interface-doc';
import { UNREACHABLE_ENV } from '../../core/target-lost';
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
import { chooseTimeoutScale, timeoutScaleLine, workersLine, type AnswerTimes } from './pace';
import { selectionWrites } from '../../rules/selection';
import { embeddedSandbox, startSandbox, type EmbeddedSandbox } from './embedded-sandbox';
import { vettingSize } from './vetting-size';
import { expectationsInfo, expectationsLine } from './expectations-info';
import { compareWithProblem } from '../history/baseline';
import { plainErrorSnippets } from '../playwright/plain-snippets';
import { EXIT } from '../../core/exit-codes';
import { reportsDir } from '../../core/reports-dir';
import { PATHS } from '../../core/api-paths';

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

export default async function globalSetup(config?: FullConfig): Promise<(() => Promise<void>) | undefined> {
  // In the runner: with no terminal to show them (CI, a log file, the bench) the colours Playwright puts on every
  // error snippet are dropped anyway, yet each one tokenises the whole spec file (and first loads Babel for it).
  if (!process.stdout.isTTY && !process.env.FORCE_COLOR) plainErrorSnippets();
  let s: Settings = settings();
  interfaceDocTemplate(); // a wrong LEDGER_INTERFACE_DOC_URL stops the run before any test
  announceClearCredentials(s); // before the preflight sends the first of them
  let baseUrl = s.baseUrl;
  let sandbox: EmbeddedSandbox | undefined;
  if (baseUrl === undefined) {
    sandbox = (await embeddedSandbox()) ?? (await startSandbox());
    baseUrl = sandbox.url;
    process.env[RESOLVED_BASE_URL_ENV] = baseUrl;
  }
  let version: VersionRead;
  let identity: IdentityValue[] | undefined;
  let times: AnswerTimes | undefined;
  try {
    if (sandbox) {
      version = await readVersion(baseUrl, s);
      // The identity settings may override the development defaults: a wrong one stops the run here too.
      await checkIdentities(s, baseUrl);
    } else {
      // A real participant: ask for the identity settings left unset, hand them to the workers (they re-read
      // their settings from process.env, as LEDGER_RESOLVED_BASE_URL), and run the preflight checks, so a run
      // that nothing could pass stops here with one line instead of a page of red tests.
      const checked = await preflight(s, baseUrl);
      version = checked.version;
      if (checked.resolution) {
        Object.assign(process.env, checked.resolution.env);
        // A failed test's rerun command names the settings given, not these: a rerun asks for them again.
        process.env[DISCOVERED_ENV] = Object.keys(checked.resolution.env).join(',');
        identity = checked.resolution.identity;
        s = checked.resolution.settings;
      }
      // Unless LEDGER_TIMEOUT_SCALE is set, how long the participant takes to answer sets the timeouts.
      if (!s.timeoutScaleExplicit && !version.unreachable)
        times = await timeAnswers(
          s,
          baseUrl,
          selectionWrites() || 'the selection creates nothing, all its rules @readonly',
        );
    }
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
  const { document, problem, unreachable } = version;
  const controlRoute = !unreachable && (await probeControlRoute(s, baseUrl).catch(() => false));
  const pace = chooseTimeoutScale(
    s,
    times,
    sandbox ? 'the in-process sandbox: nothing to measure' : 'the target did not answer',
  );
  // The workers read their settings from the environment they start with (playwright.config.ts' timeouts too).
  if (pace.measured) process.env[MEASURED_TIMEOUT_SCALE_ENV] = String(pace.scale);
  else delete process.env[MEASURED_TIMEOUT_SCALE_ENV];
  const caps = capabilitiesOf(document);
  const vetting = unreachable
    ? undefined
    : await vettingSize(s, baseUrl, caps.limits.maxVettedPackagesPageSize);
  const target = sandbox ? `in-process sandbox ${baseUrl} (mode ${sandbox.mode})` : displayUrl(baseUrl);
  const expectations = expectationsInfo(s.expectations, caps.version, undefined, s.fileDirs);
  const lines: [string, string][] = [
    ['target', target],
    ['version', caps.version ?? `unknown (GET ${PATHS.version}: ${problem ?? 'no version string'})`],
    ['auth', authLine(s)],
    ...(vetting ? [['vetting', vetting.line] as [string, string]] : []),
    ['seed', s.seed === undefined ? 'per test, from its title (set LEDGER_SEED to fix it)' : String(s.seed)],
    ['timeout scale', timeoutScaleLine(pace)],
    ['expectations', expectationsLine(expectations)],
    ['workers', workersLine(config?.workers, s)],
    ['run id', s.runId ?? '(none: ids use "local")'],
    // The promise a production run is made under (core/inert.ts); the fixtures stop any submission that breaks it.
    ...(selectionWrites() ? [] : [READ_ONLY_LINE]),
    // Each identity value and where it came from: a setting, the development default, or the participant.
    ...(identity ?? []).map((v): [string, string] => [identityLabel(v.setting), `${v.value} (${v.source})`]),
    ...(unreachable ? [] : skipForecast(s, caps.version, controlRoute)).map((k): [string, string] => [
      'will skip',
      `${k.rules}: ${k.reason}`,
    ]),
  ];
  process.stdout.write(
    ['', 'ledger-conformance run', ...lines.map(([k, v]) => `  ${k.padEnd(14)}${v}`), ''].join('\n') + '\n',
  );
  if (unreachable) {
    // No test can say anything: each ends at set-up as inconclusive (core/target-lost.ts), in seconds, and
    // the reports are still written; `npm run conformance` exits with its own code for a target that is down.
    process.env[UNREACHABLE_ENV] = unreachable.cause;
    process.stderr.write(
      `ledger-conformance: the target LEDGER_BASE_URL=${displayUrl(baseUrl)} cannot be reached: ${unreachable.cause}; ` +
        `${unreachable.check}. No test is run: every rule is inconclusive.\n`,
    );
  }
  const shownUrl = sandbox ? 'in-process sandbox' : displayUrl(baseUrl);
  // A named baseline that this target does not have: say so now, not after the run.
  const missing = compareWithProblem(resolve(REPORTS, 'history'), {
    baseUrl: shownUrl,
    participantId: s.participantId,
  });
  if (missing !== undefined) {
    process.stderr.write(`ledger-conformance: ${missing}\n`);
    process.exit(EXIT.badSetting);
  }
  const info = {
    baseUrl: shownUrl,
    participantId: s.participantId,
    version: caps.version,
    features: (document as { features?: unknown } | undefined)?.features,
    runId: s.runId,
    seed: s.seed ?? 'per test',
    timeoutScale: pace.scale,
    timeoutScaleSource: pace.source,
    vettingEntries: vetting?.entries,
    auth: s.auth.kind,
    startedAt: new Date().toISOString(),
    // Read by the rule matrix: an unreachable run is no capability change and leaves the fingerprint alone.
    unreachable: unreachable?.cause,
    // For the report's environment block: a deliberately broken sandbox must be visible there.
    sandbox: sandbox ? { url: sandbox.url, mode: sandbox.mode, faults: sandbox.faults } : undefined,
    // Against a real participant: every identity value and its source (a setting, or discovered via …).
    identity:
      identity && Object.fromEntries(identity.map((v) => [v.setting, { value: v.value, source: v.source }])),
    // The expectations layers and entries, for the report's expired and stale lists.
    expectations,
  };
  writeTarget(info);
  return sandbox ? () => sandbox.close() : undefined;
}

function writeTarget(info: { baseUrl: string; startedAt: string; unreachable?: string }): void {
  mkdirSync(REPORTS, { recursive: true });
  writeFileSync(resolve(REPORTS, 'target.json'), JSON.stringify(info, null, 2) + '\n');
}
