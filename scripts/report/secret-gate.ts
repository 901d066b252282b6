// The secret gate of a run: every file under reports/ and test-results/ (results, attachments, HTML, traces,
// logs), Playwright's own report folders (playwright-report/, blob-report/: where a plain `npx playwright
// test --reporter=html` writes, and what CI jobs upload) and every output a reporter is configured to (as the
// run recorded them, core/report-outputs.ts; PLAYWRIGHT_*_OUTPUT_* variables) is read for the literal secrets
// of the run — the value of every secret setting (core/secrets.ts) and what the settings derive — and for
// JWT-shaped strings. A hit names the file and the kind, never the value. `npm run conformance` runs it after
// the report is built; alone: `node --require tsx/cjs scripts/report/secret-gate.ts` (exit 3 on a hit). The
// self-tests' own folders (reports/selftest, test-results/selftest) are left out: they hold planted secrets
// on purpose.
import { relative, resolve, sep } from 'node:path';
import type { ReporterDescription } from '@playwright/test';
import { loadDotenv, settings, type Settings } from '../../core/settings';
import { describeHits, scanForSecrets, type Secret, type SecretHit } from '../../reporters/secret-scan';
import { secretValues } from '../../core/secrets';
import { recordedReporters, reporterOutputs } from '../../core/report-outputs';
import { EXIT } from '../../core/exit-codes';
import { DEFAULT_REPORTS_DIR, reportsDir, reportsMoved } from '../../core/reports-dir';

const ROOT = resolve(__dirname, '..', '..');
export const SECRET_GATE_EXIT = EXIT.secretFound;

type Env = Record<string, string | undefined>;

/** The literal secrets of a run: from the validated settings, and any secret setting present in the env. */
export function runSecrets(s: Settings, env: Env = process.env): Secret[] {
  const out: Secret[] = [];
  const add = (kind: string, value: string | undefined) => {
    if (value && !out.some((x) => x.value === value)) out.push({ kind, value });
  };
  switch (s.auth.kind) {
    case 'static':
      add('LEDGER_TOKEN', s.auth.token);
      break;
    case 'hs256':
      // The sandbox's dev secret included: it is a secret like any other as far as reports go.
      add('LEDGER_HMAC_SECRET', s.auth.secret);
      break;
    case 'rs256':
    case 'es256':
      add('LEDGER_JWT_PRIVATE_KEY', s.auth.pem);
      add('LEDGER_JWT_PRIVATE_KEY', s.auth.privateKey.export({ type: 'pkcs8', format: 'pem' }).toString());
      break;
    case 'oauth2':
      add('LEDGER_OAUTH_CLIENT_SECRET', s.auth.clientSecret);
      break;
    case 'none':
      break;
  }
  // Every secret setting present (core/secrets.ts), used by this auth kind or not: the sandbox's HMAC secret, a
  // proxy URL's password, the webhook's path… never to be written anywhere.
  for (const { name, value } of secretValues(env)) add(name, value);
  return out;
}

/** Paths without those inside another (a folder is scanned whole once). */
function outermost(paths: string[]): string[] {
  const unique = [...new Set(paths)];
  return unique.filter((p) => !unique.some((q) => q !== p && p.startsWith(q + sep)));
}

/**
 * The folders a run writes: reports/, test-results/, Playwright's playwright-report/ and blob-report/ and the
 * configured reporters' outputs — or, when a run is redirected, LEDGER_REPORTS_DIR and the outputs the
 * environment names.
 */
export function gateDirs(
  env: Env = process.env,
  reporters: readonly ReporterDescription[] = recordedReporters(DEFAULT_REPORTS_DIR),
): { dirs: string[]; exclude: string[] } {
  if (reportsMoved(env))
    return {
      dirs: outermost([reportsDir(env), ...reporterOutputs([], env)]),
      exclude: [],
    };
  return {
    dirs: outermost([
      DEFAULT_REPORTS_DIR,
      resolve(ROOT, 'test-results'),
      resolve(ROOT, 'playwright-report'),
      resolve(ROOT, 'blob-report'),
      ...reporterOutputs(reporters, env),
    ]),
    exclude: [resolve(DEFAULT_REPORTS_DIR, 'selftest'), resolve(ROOT, 'test-results', 'selftest')],
  };
}

/** Scans, prints the verdict; returns the hits (paths relative to the project). */
export function secretGate(s: Settings, env: Env = process.env): SecretHit[] {
  const { dirs, exclude } = gateDirs(env);
  const hits = scanForSecrets(dirs, runSecrets(s, env), exclude).map((h) => ({
    ...h,
    file: relative(ROOT, h.file) || h.file,
  }));
  if (hits.length > 0) {
    process.stderr.write(
      `${describeHits(hits)}\nsecret gate: FAILED — ${hits.length} finding(s); the files above must not be published\n`,
    );
  } else {
    process.stdout.write(`secret gate: passed (${dirs.map((d) => relative(ROOT, d) || d).join(', ')})\n`);
  }
  return hits;
}

if (require.main === module) {
  loadDotenv();
  process.exit(secretGate(settings()).length > 0 ? SECRET_GATE_EXIT : 0);
}
