// `npm run preflight`: the checks a conformance run makes before its first command, on their own — target
// reachable, its version, the token accepted, the identity settings (given, or asked of the participant),
// the user's rights covering the parties, the command template's package vetted on the synchronizer, the
// compare baseline — the waivers expired or ending within a week, the rules that will skip there and why (the
// listing's topology included), and the timeout scale a read suggests. Nothing is submitted. A failure
// prints ONE line naming what to set.
// Exit codes as the conformance run's: 0 ready, 2 a setting is wrong or missing, 4 the target cannot be reached.
import { SETUP_RETRIED } from './client';
import { tallyTotal, tallyWords } from '../../core/transient-tally';
import { answerHelp } from '../../core/cli-help';
import { loadDotenv, displayUrl, type Settings } from '../../core/settings';
import { announceClearCredentials } from '../../core/cleartext';
import { capabilitiesOf } from '../../core/target-info';
import { TARGET_DOWN_EXIT } from '../run/target-down';
import { settingsOrExit } from '../run/settings-check';
import {
  preflight,
  type Preflight,
  PreflightError,
  probeControlRoute,
  skipForecast,
  staticTokenLife,
  timeAnswers,
} from './checks';
import { chooseTimeoutScale, timeoutScaleLine } from '../run/pace';
import { PATHS } from '../../core/api-paths';
import { readDescription } from '../../core/openapi-read';
import { reportsDir } from '../../core/reports-dir';
import { describeDrift, descriptionInfoLine, previousDescription } from '../../reporters/openapi-drift';
import { join } from 'node:path';
import { compareWithProblem } from '../history/baseline';
import { expectationsInfo, expectationsLine, waiverLines } from '../run/expectations-info';
import { todayUtc } from '../../rules/expectations';
import { EXIT } from '../../core/exit-codes';
import { forecastTopology } from './topology-forecast';

const HELP = `Usage: npm run preflight
What a conformance run checks before its first test, on its own: the target reachable and a JSON Ledger API,
its version, the token accepted, the identity settings (given, or asked of the participant), each configured
user's rights, the command template's package vetted, the baseline LEDGER_COMPARE_WITH names; then what the run
will use, the waivers expired or ending within a week, the rules that will skip and why (those the listing's
topology decides included), and how many differences the participant's own API description (GET /docs/openapi)
shows. Submits nothing. Settings as the run's (.env.example); --grep VET- (an id prefix) selects as the run's.
Exit code: 0 ready; 2 a setting is wrong or missing (one line names it); 4 the target cannot be reached.`;

/** The command: its exit code (a wrong setting may also end the process at once, with 2, as a run does). */
export async function main(): Promise<number> {
  answerHelp(HELP);
  loadDotenv();
  const s = settingsOrExit();
  announceClearCredentials(s); // before the first request carries one
  // Without LEDGER_BASE_URL the in-process sandbox is the target, as in a conformance run.
  let close: (() => Promise<void>) | undefined;
  let baseUrl = s.baseUrl;
  if (baseUrl === undefined) {
    // oxlint-disable-next-line typescript/no-require-imports
    const { startSandbox } = require('../run/embedded-sandbox') as typeof import('../run/embedded-sandbox');
    const sandbox = await startSandbox();
    baseUrl = sandbox.url;
    close = sandbox.close;
  }
  try {
    const { version, resolution, missing } = await preflight(s, baseUrl);
    if (version.unreachable) {
      process.stderr.write(
        `ledger-conformance: the target LEDGER_BASE_URL=${displayUrl(baseUrl)} cannot be reached: ${version.unreachable.cause}; ${version.unreachable.check}\n`,
      );
      return TARGET_DOWN_EXIT;
    }
    // Alone, the preflight judges no answer: the setting is the likelier cause, the listing the other one.
    if (missing)
      throw new PreflightError(
        `${missing.message}; or the participant's listing is wrong (${missing.answered}): a conformance run judges it with the VET- rules`,
        EXIT.badSetting,
      );
    // As the run does before its first test (scripts/run/global-setup.ts): a baseline this target lacks stops it.
    const noBaseline = compareWithProblem(join(reportsDir(), 'history'), {
      baseUrl: s.baseUrl === undefined ? 'in-process sandbox' : displayUrl(baseUrl),
      participantId: (resolution?.settings ?? s).participantId,
    });
    if (noBaseline !== undefined) throw new PreflightError(noBaseline, EXIT.badSetting);
    const lines = await readyLines(s, baseUrl, version, resolution);
    const width = Math.max(...lines.map(([k]) => k.length)) + 2;
    process.stdout.write(
      ['ledger-conformance preflight: ready', ...lines.map(([k, v]) => `  ${k.padEnd(width)}${v}`), ''].join(
        '\n',
      ),
    );
    return 0;
  } catch (e) {
    if (!(e instanceof PreflightError)) throw e;
    process.stderr.write(`ledger-conformance: ${e.message}\n`);
    return e.exitCode;
  } finally {
    await close?.();
  }
}

/** What the run will use, one line each, and the rules that will skip. */
async function readyLines(
  s: Settings,
  baseUrl: string,
  version: Preflight['version'],
  resolution: Preflight['resolution'],
): Promise<[string, string][]> {
  const caps = capabilitiesOf(version.document);
  const life = staticTokenLife(s);
  const resolved = resolution?.settings ?? s;
  // The run's scale as far as a read shows it: the run also times one submission, which this never sends.
  const times =
    s.baseUrl === undefined || s.timeoutScaleExplicit
      ? undefined
      : await timeAnswers(resolved, baseUrl, 'the preflight submits nothing, a conformance run times one');
  const pace = chooseTimeoutScale(s, times, 'the in-process sandbox: nothing to measure');
  const expectations = expectationsInfo(s.expectations, caps.version, undefined, s.fileDirs);
  return [
    ['target', s.baseUrl === undefined ? 'in-process sandbox' : displayUrl(baseUrl)],
    ['version', caps.version ?? `unknown (GET ${PATHS.version}: ${version.problem ?? 'no version string'})`],
    ['token', `accepted (${s.auth.kind})${life ? `; ${life}` : ''}`],
    ...(resolution?.identity ?? []).map((v): [string, string] => [v.setting, `${v.value} (${v.source})`]),
    ['rights', `${resolved.user} acts as and reads as every configured party`],
    ['template', 'its package is vetted on the synchronizer'],
    ['timeout scale', timeoutScaleLine(pace)],
    ['description', await descriptionLine(s, resolved, baseUrl)],
    ['expectations', expectationsLine(expectations)],
    ...waiverLines(expectations, todayUtc()),
    ...[
      ...skipForecast(resolved, caps.version, await probeControlRoute(resolved, baseUrl)),
      ...(await forecastTopology(resolved, baseUrl, caps.limits.maxVettedPackagesPageSize)),
    ].map((k): [string, string] => ['will skip', `${k.rules}: ${k.reason}`]),
    // Transient answers asked again on the way (core/retry.ts): a busy participant is told, never hidden.
    ...(tallyTotal(SETUP_RETRIED) > 0 ? [['retried', tallyWords(SETUP_RETRIED)] as [string, string]] : []),
  ];
}

/** The participant's own API description: how far it differs from the document and from its last run's. */
async function descriptionLine(given: Settings, s: Settings, baseUrl: string): Promise<string> {
  const target = {
    baseUrl: given.baseUrl === undefined ? 'in-process sandbox' : displayUrl(baseUrl),
    participantId: s.participantId,
  };
  const previous = previousDescription(join(reportsDir(), 'history'), target);
  return descriptionInfoLine(describeDrift(await readDescription(s, baseUrl), previous));
}

if (require.main === module) void main().then((code) => process.exit(code));
