// `node --require tsx/cjs scripts/nightly/notify-changes.ts <run-dir>…`: when a verdict changed since the run
// each folder's rule matrix compares with (conformance.json `changes`), posts one short message, {"text":
// "…"} (what a Slack incoming webhook and the chat tools compatible with it take), to the webhook in
// CONFORMANCE_WEBHOOK_URL. Each folder is a run's reports folder (conformance.json, maybe target.json); its
// name names the target (the nightly workflow downloads each target's report into runs/<target>). The message
// names each target whose participant changed, its baseline and date, the count of each kind of change with
// up to five rule ids (a verdict an expectations file changed is no change of the participant, nor is a flip of
// a rule already intermittent: never announced; a collapsed run is one line), a change of the participant's own
// API description (its fields, and how many rules read them), and the CI run (GITHUB_SERVER_URL,
// GITHUB_REPOSITORY, GITHUB_RUN_ID). Every text from a file
// passes through the harness's redaction, URL credentials included: no token or password reaches the message.
// Without CONFORMANCE_WEBHOOK_URL the message is printed instead. Exit 0 posted (or nothing changed); 1 the
// webhook refused it or could not be reached; 2 a folder is not a run, or the URL is not one.
import { existsSync } from 'node:fs';
import { basename, join, resolve } from 'node:path';
import { redactWithUrls, registerSecretSettings } from '../../core/redact';
import { displayUrl } from '../../core/settings';
import { proxiedFetch } from '../../core/proxy';
import { readJsonFile } from '../../reporters/allure-results';
import {
  PARTICIPANT_CHANGE_KINDS,
  type ChangeRow,
  type Changes,
  type ParticipantChangeKind,
} from '../../reporters/run-history';
import { descriptionChangeLine } from '../../reporters/openapi-drift';
import { TIMEOUTS } from '../../core/timeouts';
import { EXIT } from '../../core/exit-codes';

export const WEBHOOK_ENV = 'CONFORMANCE_WEBHOOK_URL';
/** Rule ids listed per kind of change; the rest are counted. */
export const MAX_IDS = 5;

/**
 * Each kind of change of the participant in conformance.json `changes` (reporters/run-history.ts), as the
 * message words it. Changes an expectations file made (a new waiver, one that expired), harness defects and
 * first verdicts are in the report, never announced: nothing changed on the node.
 */
const WORDS: Record<ParticipantChangeKind, [one: string, many: string]> = {
  newFailures: ['new failure', 'new failures'],
  fixed: ['fixed', 'fixed'],
  deviationsAppeared: ['known deviation appeared', 'known deviations appeared'],
  deviationsGone: ['known deviation gone', 'known deviations gone'],
  becameIntermittent: ['became intermittent', 'became intermittent'],
  settled: ['settled (stable again)', 'settled (stable again)'],
  newSkips: ['new skip', 'new skips'],
  nowRuns: ['skipped before, runs now', 'skipped before, run now'],
};

/** What is read of a run's conformance.json; older runs have neither `changes` nor `runId`. */
export interface RunMatrix {
  runId?: string;
  targetLost?: string;
  target?: { baseUrl?: string; participantId?: string; version?: string };
  changes?: Pick<Changes, 'since'> & Partial<Omit<Changes, 'since'>>;
  /** The participant's own API description, compared (reporters/openapi-drift.ts); announced when it changed. */
  description?: unknown;
}

export interface Run {
  /** The folder's name: the target's, in the nightly. */
  label: string;
  matrix: RunMatrix;
  /** target.json's URL when the matrix has none (older runs). */
  baseUrl?: string;
}

export class NotifyError extends Error {
  constructor(
    message: string,
    readonly exitCode: typeof EXIT.failed | typeof EXIT.badSetting,
  ) {
    super(message);
  }
}

export function readRun(dir: string): Run {
  const file = join(dir, 'conformance.json');
  const matrix = readJsonFile<RunMatrix>(file);
  if (!existsSync(file) || typeof matrix !== 'object' || matrix === null) {
    throw new NotifyError(
      `${dir} holds no readable conformance.json: give the reports folders of runs (npm run conformance, npm run merge)`,
      EXIT.badSetting,
    );
  }
  return {
    label: basename(resolve(dir)),
    matrix,
    baseUrl: readJsonFile<{ baseUrl?: string }>(join(dir, 'target.json'))?.baseUrl,
  };
}

const when = (iso: string): string => {
  const t = new Date(iso);
  return Number.isNaN(t.getTime()) ? iso : `${t.toISOString().slice(0, 16).replace('T', ' ')} UTC`;
};

/** The message's part for one run, or undefined when nothing changed (or there was nothing to compare with). */
export function runSummary(run: Run): string | undefined {
  const changes = run.matrix.changes;
  if (!changes?.since) return undefined;
  const counted = PARTICIPANT_CHANGE_KINDS.map((key) => {
    const [one, many] = WORDS[key];
    const rows = (Array.isArray(changes[key]) ? changes[key] : []).filter(
      (r): r is ChangeRow => typeof r === 'object' && r !== null,
    );
    if (rows.length === 0) return undefined;
    const ids = rows.slice(0, MAX_IDS).map((r) => String(r.rule));
    const more = rows.length > MAX_IDS ? ` and ${rows.length - MAX_IDS} more` : '';
    return `  ${rows.length} ${rows.length === 1 ? one : many}: ${ids.join(', ')}${more}`;
  }).filter((line): line is string => line !== undefined);
  const collapsed = typeof changes.collapsed === 'string' ? changes.collapsed : undefined;
  const described = descriptionChangeLine(run.matrix.description);
  if (counted.length === 0 && collapsed === undefined && described === undefined) return undefined;
  const since = changes.since;
  const baseline =
    since.kind === 'named'
      ? `baseline "${since.name ?? 'unnamed'}" of ${when(since.generatedAt)}`
      : `the previous run of ${when(since.generatedAt)}`;
  const url = run.matrix.target?.baseUrl ?? run.baseUrl;
  const lines = [
    `• ${run.label}${url ? ` (${displayUrl(url)})` : ''}, since ${baseline}:`,
    // A collapse is one event, not a list of every rule it took down (the report has them).
    ...(collapsed ? [`  the run collapsed: ${collapsed}`] : counted),
    ...(described ? [described] : []),
    ...(run.matrix.targetLost ? [`  the participant did not answer: ${run.matrix.targetLost}`] : []),
  ];
  return lines.join('\n');
}

/** The whole message, or undefined when no run changed. Every part is redacted. */
export function changesMessage(
  runs: readonly Run[],
  env: NodeJS.ProcessEnv = process.env,
): string | undefined {
  const parts = runs.map(runSummary).filter((p): p is string => p !== undefined);
  if (parts.length === 0) return undefined;
  const { GITHUB_SERVER_URL: server, GITHUB_REPOSITORY: repo, GITHUB_RUN_ID: id } = env;
  const link = server && repo && id ? [`Run: ${server}/${repo}/actions/runs/${id}`] : [];
  return redactWithUrls(['ledger-conformance: verdicts changed', ...parts, ...link].join('\n'));
}

/** The secrets this process could know of, so that none can reach the message even if a file held one. */
/** Posts `text` as {"text": …}; NotifyError (exit 1) when the webhook refuses or cannot be reached. */
export async function post(webhook: string, text: string): Promise<void> {
  let status: number;
  try {
    const res = await proxiedFetch(webhook, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ text }),
      signal: AbortSignal.timeout(TIMEOUTS.webhookMs),
    });
    status = res.status;
    await res.arrayBuffer();
  } catch (e) {
    // The URL is the secret: it is registered, so a cause that quotes it is masked.
    const cause = (e as { cause?: { code?: string; message?: string } }).cause;
    const code = redactWithUrls(cause?.code ?? cause?.message ?? (e as Error).name);
    throw new NotifyError(
      `the webhook in ${WEBHOOK_ENV} could not be reached (${code}): check its host and the network route to it`,
      EXIT.failed,
    );
  }
  if (status < 200 || status > 299) {
    throw new NotifyError(
      `the webhook in ${WEBHOOK_ENV} answered ${status}: check that the URL is current (a revoked webhook answers 403 or 404)`,
      EXIT.failed,
    );
  }
}

export async function notify(dirs: readonly string[], env: NodeJS.ProcessEnv): Promise<string> {
  if (dirs.length === 0) {
    throw new NotifyError(
      'name the run folders: node --require tsx/cjs scripts/nightly/notify-changes.ts reports [more…]',
      EXIT.badSetting,
    );
  }
  const webhook = env[WEBHOOK_ENV]?.trim();
  if (webhook && !/^https?:$/.test(URL.canParse(webhook) ? new URL(webhook).protocol : '')) {
    throw new NotifyError(
      `${WEBHOOK_ENV} is not an http(s) URL: set it to the webhook's URL (one that takes {"text": "…"}, as Slack's incoming webhooks)`,
      EXIT.badSetting,
    );
  }
  registerSecretSettings(env); // every secret setting (core/secrets.ts), the webhook URL's path included
  const text = changesMessage(dirs.map(readRun), env);
  if (!text) return 'the participant changed no verdict since the runs compared with: nothing to post';
  if (!webhook) return `${WEBHOOK_ENV} is unset: the message would be\n${text}`;
  await post(webhook, text);
  return `posted the changes of ${text.split('\n').filter((l) => l.startsWith('• ')).length} target(s) to the webhook`;
}

/** The command: its one line, on stdout when done or on stderr with the exit code of a NotifyError. */
export async function main(
  dirs: readonly string[],
  env: NodeJS.ProcessEnv,
  out: { stdout(line: string): void; stderr(line: string): void },
): Promise<number> {
  try {
    out.stdout(`notify-changes: ${await notify(dirs, env)}\n`);
    return EXIT.ok;
  } catch (e) {
    if (!(e instanceof NotifyError)) throw e;
    out.stderr(`notify-changes: ${e.message}\n`);
    return e.exitCode;
  }
}

if (require.main === module) {
  const out = {
    stdout: (l: string) => process.stdout.write(l),
    stderr: (l: string) => process.stderr.write(l),
  };
  void main(process.argv.slice(2), process.env, out).then((code) => {
    if (code !== EXIT.ok) process.exitCode = code;
  });
}
