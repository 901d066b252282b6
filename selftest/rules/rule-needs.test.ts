// A rule's needs (its catalogue row's `needs`) decide both whether its tests skip and what the preflight
// forecasts: the same words. One run against the sandbox without authentication, with one actAs party, naming
// no synchronizer and reporting 3.4.11, skips for every kind of need; each skip's reason must be the
// forecast's for its rule.
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expect, test } from '../support/test';
import { loadSettings } from '../../core/settings';
import { DEV_NAMESPACE } from '../../core/dev-defaults';
import { RULES } from '../../rules/catalogue';
import { skipForecast } from '../../scripts/preflight/checks';
import { cleanEnv, LEAN_RUN_CONFIG, runNode } from '../support/child-run';
import { playwrightCommand } from '../../scripts/run/playwright-cli';

const ENV = {
  SANDBOX_AUTH: 'none',
  LEDGER_AUTH: 'none',
  LEDGER_ACT_AS: `Alice::${DEV_NAMESPACE}`,
  LEDGER_COMMAND_TEMPLATE: 'canton-ping',
  LEDGER_SYNCHRONIZER_ID: 'none',
};

/** The forecast, rule by rule (`AUTH-*` is every AUTH rule). */
function forecastByRule(version: string): Map<string, string> {
  const out = new Map<string, string>();
  for (const { rules, reason } of skipForecast(loadSettings(ENV), version, 'usable')) {
    for (const item of rules.split(', ')) {
      const ids = item.endsWith('-*')
        ? RULES.filter((r) => r.id.startsWith(item.slice(0, -1))).map((r) => r.id)
        : [item];
      for (const id of ids) out.set(id, reason);
    }
  }
  return out;
}

test('every skip for a need says what the preflight forecasts for its rule', async () => {
  test.setTimeout(180_000);
  const out = mkdtempSync(join(tmpdir(), 'rule-needs-'));
  try {
    // The whole suite: a skip the forecast does not know of is a mismatch too. Playwright itself, not
    // `npm run conformance`: only the rule matrix is read, and the wrapper adds nothing to it.
    const run = await runNode(playwrightCommand('test', '-c', LEAN_RUN_CONFIG), {
      ...cleanEnv(),
      ...ENV,
      LEDGER_REPORTS_DIR: out,
    });
    const matrix = JSON.parse(readFileSync(join(out, 'conformance.json'), 'utf8')) as {
      rules: { id: string; verdict: string; reasons: string[] }[];
    };
    const forecast = forecastByRule('3.4.11');
    // Each kind of need is unmet here but 'default-audience' (no token at all) and 'no-auth' (met).
    expect(forecast.size, run.stdout).toBeGreaterThan(15);
    const mismatches = matrix.rules
      .filter((r) => forecast.has(r.id) || r.verdict === 'skip')
      .filter((r) => r.verdict !== 'not-run')
      .map((r) => ({
        rule: r.id,
        test: r.verdict === 'skip' ? r.reasons[0] : r.verdict,
        forecast: forecast.get(r.id),
      }))
      .filter((m) => m.test !== m.forecast);
    expect(mismatches, 'skip reasons that differ from the forecast (or skips it did not forecast)').toEqual(
      [],
    );
  } finally {
    rmSync(out, { recursive: true, force: true });
  }
});
