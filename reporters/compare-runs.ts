// Several conformance runs side by side (`npm run compare`): each run's reports folder read into its target and
// its verdict per rule, then one row per rule across the runs, the rows whose verdicts differ first. Runs of
// different catalogues compare too: a rule one run's catalogue lacks is a cell of its own, not an error.
import { existsSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { displayUrl } from '../core/settings';
import type { DescriptionReport } from './openapi-drift';
import { descriptionOfMatrix } from './openapi-drift-compare';

/** The cell of a rule the run's catalogue did not have (the ChangeRow contract of conformance.json says "absent"). */
export const ABSENT = 'absent';

/** A run folder that cannot be compared: the CLI prints the message as its one line and exits 2. */
export class CompareInputError extends Error {}

export interface RunTarget {
  participantId?: string;
  version?: string;
  /** When the run ended (conformance.json's generatedAt). */
  date?: string;
  /** Without user info, query or fragment: those may carry credentials. */
  baseUrl?: string;
  runId?: string;
  /** The in-process sandbox's mode and deliberate faults: what tells two sandbox runs apart. */
  sandbox?: { mode?: string; faults: string[] };
}

/** What the target's history said of a rule in that run, beside its verdict. */
export interface RuleHistory {
  intermittent?: boolean;
  recheck?: 'passed' | 'failed';
}

export interface RunRule extends RuleHistory {
  verdict: string;
  reasons: string[];
  title?: string;
}

export interface ComparedRun {
  /** The folder as it was given. */
  folder: string;
  target: RunTarget;
  status?: string;
  /** Why the run could not judge the target, if so. */
  targetLost?: string;
  rules: Map<string, RunRule>;
  /** The participant's own API description as the run read it. */
  description?: DescriptionReport;
}

export interface CompareCell extends RuleHistory {
  /** A rule verdict of conformance.json, or ABSENT. */
  verdict: string;
  reasons: string[];
}

export interface CompareRow {
  id: string;
  title?: string;
  /** One per run, in the order of the runs. */
  cells: CompareCell[];
  differs: boolean;
}

export interface Comparison {
  runs: ComparedRun[];
  /** The rows that differ first, then those that agree; each part in catalogue order (as the runs list them). */
  rows: CompareRow[];
  differing: number;
}

const FIX =
  'give the reports folder of a run — reports/ after npm run conformance — or an unzipped ' +
  'conformance-report-<target> artifact of the nightly';

function notARun(folder: string, why: string): CompareInputError {
  return new CompareInputError(`${folder} is not a conformance run: ${why} (${FIX})`);
}

/** The file's JSON, undefined when it is missing; unreadable JSON is the caller's `bad` message. */
function readJson(path: string, bad: (message: string) => CompareInputError): unknown {
  if (!existsSync(path)) return undefined;
  try {
    return JSON.parse(readFileSync(path, 'utf8')) as unknown;
  } catch (e) {
    throw bad((e as Error).message);
  }
}

const record = (v: unknown): Record<string, unknown> =>
  v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Record<string, unknown>) : {};
const text = (v: unknown): string | undefined => (typeof v === 'string' && v !== '' ? v : undefined);
const strings = (v: unknown): string[] =>
  Array.isArray(v) ? v.filter((x): x is string => typeof x === 'string') : [];

/** A URL to show: as the run shows it (displayUrl: no user info), and no query or fragment either. */
export function shownUrl(url: string): string {
  try {
    const u = new URL(url);
    u.search = '';
    u.hash = '';
    return displayUrl(u.toString());
  } catch {
    return url;
  }
}

/** The participant id: conformance.json's target first, then what the global setup left in target.json. */
function participantOf(matrixTarget: Record<string, unknown>, targetFile: Record<string, unknown>) {
  const identity = record(targetFile.identity);
  return (
    text(matrixTarget.participantId) ??
    text(targetFile.participantId) ??
    text(record(identity.LEDGER_PARTICIPANT_ID).value)
  );
}

function rulesOf(raw: unknown, bad: (why: string) => CompareInputError): Map<string, RunRule> {
  if (!Array.isArray(raw)) throw bad('it has no "rules" list');
  const rules = new Map<string, RunRule>();
  raw.forEach((entry, i) => {
    const r = record(entry);
    const id = text(r.id);
    const verdict = text(r.verdict);
    if (!id || !verdict) throw bad(`rules[${i}] has no id or no verdict`);
    const recheck = r.recheck === 'passed' || r.recheck === 'failed' ? r.recheck : undefined;
    rules.set(id, {
      verdict,
      reasons: strings(r.reasons),
      title: text(r.title),
      ...(r.intermittent === true ? { intermittent: true } : {}),
      ...(recheck ? { recheck } : {}),
    });
  });
  return rules;
}

/**
 * One run's folder: conformance.json (required) and target.json (when there). `folder` is read from `base` and
 * named as given in every message. Throws CompareInputError.
 */
export function readRun(folder: string, base = process.cwd()): ComparedRun {
  const dir = resolve(base, folder);
  if (!existsSync(dir)) throw notARun(folder, 'no such folder');
  if (!statSync(dir).isDirectory()) throw notARun(folder, 'a file, not a folder');
  const bad = (file: string, what: string) => (message: string) =>
    new CompareInputError(`${join(folder, file)} is not ${what}: ${message} (${FIX})`);
  const matrix = readJson(join(dir, 'conformance.json'), bad('conformance.json', 'a rule matrix'));
  if (matrix === undefined) throw notARun(folder, 'no conformance.json there');
  const m = record(matrix);
  const targetFile = record(readJson(join(dir, 'target.json'), bad('target.json', 'the target of a run')));
  const matrixTarget = record(m.target);
  const sandbox = record(targetFile.sandbox);
  const baseUrl = text(matrixTarget.baseUrl) ?? text(targetFile.baseUrl);
  return {
    folder,
    target: {
      participantId: participantOf(matrixTarget, targetFile),
      version: text(matrixTarget.version) ?? text(targetFile.version),
      date: text(m.generatedAt),
      baseUrl: baseUrl === undefined ? undefined : shownUrl(baseUrl),
      runId: text(m.runId) ?? text(targetFile.runId),
      sandbox:
        targetFile.sandbox === undefined
          ? undefined
          : { mode: text(sandbox.mode), faults: strings(sandbox.faults) },
    },
    status: text(m.status),
    targetLost: text(m.targetLost),
    rules: rulesOf(m.rules, bad('conformance.json', 'a rule matrix')),
    description: descriptionOfMatrix(m.description),
  };
}

/** One row per rule any run has, the rows whose verdicts differ first. */
export function compareRuns(runs: readonly ComparedRun[]): Comparison {
  const ids = [...new Set(runs.flatMap((run) => [...run.rules.keys()]))];
  const rows = ids.map((id): CompareRow => {
    const cells = runs.map((run): CompareCell => {
      const rule = run.rules.get(id);
      if (!rule) return { verdict: ABSENT, reasons: [] };
      const { verdict, reasons, intermittent, recheck } = rule;
      return { verdict, reasons, ...(intermittent ? { intermittent } : {}), ...(recheck ? { recheck } : {}) };
    });
    const title = runs.map((run) => run.rules.get(id)?.title).find((t) => t !== undefined);
    return { id, title, cells, differs: new Set(cells.map((c) => c.verdict)).size > 1 };
  });
  const differ = rows.filter((r) => r.differs);
  return { runs: [...runs], rows: [...differ, ...rows.filter((r) => !r.differs)], differing: differ.length };
}
