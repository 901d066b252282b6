// The one list of settings whose values are secrets. The secret gate, the webhook message, every redaction and the
// reporters read it; the nightly workflow maps these as secrets and every other setting as a variable. A setting
// added here is masked everywhere at once.

/** How a secret setting's value is taken apart into the literals that must never be written. */
export type SecretShape =
  | 'value' // the value itself (a token, an HMAC secret, a client secret)
  | 'private-key' // inline PEM (with \n escapes) or the path of a PEM file: the key's text
  | 'url-credentials' // a URL whose user info (user:password@) is the secret: a proxy URL
  | 'url-path'; // a URL whose path is the secret: a Slack-style webhook (/services/T…/B…/<token>)

export interface SecretSetting {
  readonly name: string;
  readonly shape: SecretShape;
}

export const SECRET_SETTINGS: readonly SecretSetting[] = [
  { name: 'LEDGER_TOKEN', shape: 'value' },
  { name: 'LEDGER_HMAC_SECRET', shape: 'value' },
  { name: 'LEDGER_JWT_PRIVATE_KEY', shape: 'private-key' },
  { name: 'LEDGER_OAUTH_CLIENT_SECRET', shape: 'value' },
  { name: 'SANDBOX_HMAC_SECRET', shape: 'value' },
  { name: 'HTTPS_PROXY', shape: 'url-credentials' },
  { name: 'https_proxy', shape: 'url-credentials' },
  { name: 'HTTP_PROXY', shape: 'url-credentials' },
  { name: 'http_proxy', shape: 'url-credentials' },
  { name: 'ALL_PROXY', shape: 'url-credentials' },
  { name: 'all_proxy', shape: 'url-credentials' },
  { name: 'CONFORMANCE_WEBHOOK_URL', shape: 'url-path' },
];

/** Whether a setting's value is a secret (kept in a secret store, never printed). */
export function isSecretSetting(name: string): boolean {
  return SECRET_SETTINGS.some((s) => s.name === name);
}
