// What a preflight step concludes beyond a plain failure: the identity values it resolved, a check resting on the
// participant's own answers that found something missing (which a run lets the rules judge), and the line naming
// the credential setting a refused signature points at.
import type { DiscoverableSetting, Settings } from '../../core/settings';
import { EXIT } from '../../core/exit-codes';
import { PreflightError } from './client';

/** One identity value as the run-information block and reports/target.json show it. */
export interface IdentityValue {
  setting: DiscoverableSetting;
  value: string;
  source: string;
}

export interface Resolution {
  /** The settings with every discovered value in. */
  settings: Settings;
  /** The discovered values as the variables the workers read (handed over through process.env). */
  env: Record<string, string>;
  identity: IdentityValue[];
}

/**
 * A check resting on the participant's own answers found something missing (the template's package not vetted):
 * the preflight stops on it as on any setting, but a run lets the rules that judge those answers run first
 * (core/blocked.ts). `answered`: what the participant said; `resolution`: the identity values so far.
 */
export class ParticipantAnswer extends PreflightError {
  override name = 'ParticipantAnswer';
  constructor(
    message: string,
    readonly answered: string,
    readonly resolution?: Resolution,
  ) {
    super(message, EXIT.badSetting);
  }
}

/** The credential setting a refused signature points at, at the head of the line. */
export function credentialRefused(s: Settings, answered: string): string {
  const refused = `the participant refused the harness's token (${answered})`;
  switch (s.auth.kind) {
    case 'hs256':
      return `LEDGER_HMAC_SECRET is not this participant's unsafe-jwt-hmac-256 secret: ${refused}: set it to the participant's secret`;
    case 'rs256':
    case 'es256':
      return `LEDGER_JWT_PRIVATE_KEY is not a key this participant trusts: ${refused}: set it to a key whose public half the participant trusts (and LEDGER_JWT_KID / LEDGER_JWT_ISSUER if it needs them)`;
    case 'static':
      return `LEDGER_TOKEN is not a token this participant accepts: ${refused}: set it to a current access token for this participant`;
    case 'oauth2':
      return `the IdP's token is not one this participant accepts: ${refused}: check LEDGER_OAUTH_CLIENT_ID / LEDGER_OAUTH_CLIENT_SECRET and LEDGER_OAUTH_AUDIENCE / LEDGER_OAUTH_SCOPE`;
    case 'none':
      return `the participant requires authentication: ${refused}: set LEDGER_AUTH and its credentials`;
  }
}
