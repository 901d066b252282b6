// The up-front settings check of a conformance run, shared by playwright.config.ts and
// scripts/run/conformance.ts: the harness's settings and, when the sandbox runs in-process, the sandbox's.
// One message, exit code 2.
import { loadSettings, SettingsError, type Settings } from '../../core/settings';
import { EXIT } from '../../core/exit-codes';

/** Validates the settings; throws SettingsError with the one message to print. */
export function validateRunSettings(env: Record<string, string | undefined> = process.env): Settings {
  const s = loadSettings(env);
  if (s.baseUrl === undefined) {
    // Lazy: a run against LEDGER_BASE_URL never loads the sandbox.
    // oxlint-disable-next-line typescript/no-require-imports
    const sandbox = require('../../sandbox/config') as typeof import('../../sandbox/config');
    try {
      sandbox.loadConfig(env);
    } catch (e) {
      if (e instanceof sandbox.ConfigError) throw new SettingsError(e.message);
      throw e;
    }
  }
  return s;
}

/** validateRunSettings, or print the message and stop the process. */
export function settingsOrExit(env: Record<string, string | undefined> = process.env): Settings {
  try {
    return validateRunSettings(env);
  } catch (e) {
    if (!(e instanceof SettingsError)) throw e;
    process.stderr.write(`ledger-conformance: ${e.message}\n`);
    process.exit(EXIT.badSetting);
  }
}
