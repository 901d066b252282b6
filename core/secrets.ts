// The one list of settings whose values are secrets. The secret gate, the webhook message, every redaction and the
// reporters read it; the nightly workflow maps these as secrets and every other setting as a variable. A setting
// added here is masked everywhere at once.
import { existsSync, readFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

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

/** The variables a proxy is read from (NO_PROXY aside; core/proxy.ts): each URL's password is a secret. */
export const PROXY_VARIABLES = [
  'HTTPS_PROXY',
  'https_proxy',
  'HTTP_PROXY',
  'http_proxy',
  'ALL_PROXY',
  'all_proxy',
] as const;

export const SECRET_SETTINGS: readonly SecretSetting[] = [
  { name: 'LEDGER_TOKEN', shape: 'value' },
  { name: 'LEDGER_HMAC_SECRET', shape: 'value' },
  { name: 'LEDGER_JWT_PRIVATE_KEY', shape: 'private-key' },
  { name: 'LEDGER_OAUTH_CLIENT_SECRET', shape: 'value' },
  { name: 'SANDBOX_HMAC_SECRET', shape: 'value' },
  ...PROXY_VARIABLES.map((name): SecretSetting => ({ name, shape: 'url-credentials' })),
  { name: 'CONFORMANCE_WEBHOOK_URL', shape: 'url-path' },
];

/** Whether a setting's value is a secret (kept in a secret store, never printed). */
export function isSecretSetting(name: string): boolean {
  return SECRET_SETTINGS.some((s) => s.name === name);
}

/**
 * The folders a relative key file is looked for in, as the settings look (core/settings.ts): LEDGER_CALLER_DIR
 * first, then the current directory. Read here from the environment, so that redaction needs no validated settings.
 */
function keyDirs(env: Readonly<Record<string, string | undefined>>): string[] {
  const caller = env.LEDGER_CALLER_DIR?.trim();
  return caller ? [resolve(process.cwd(), caller), process.cwd()] : [process.cwd()];
}

/** The text of a private key setting: inline PEM (with \n escapes) or the file it names, found in `dirs`. */
export function privateKeyText(
  raw: string | undefined,
  dirs: readonly string[] = [process.cwd()],
): string | undefined {
  const value = raw?.trim();
  if (!value) return undefined;
  if (value.includes('-----BEGIN')) return value.replace(/\\n/g, '\n');
  const paths = isAbsolute(value) ? [value] : dirs.map((d) => resolve(d, value));
  const path = paths.find((p) => existsSync(p));
  return path === undefined ? undefined : readFileSync(path, 'utf8');
}

/** The secrets inside a URL's user info: the URL whole, its password as written and decoded; none without one. */
export function urlCredentials(url: string): string[] {
  if (!URL.canParse(url)) return [];
  const password = new URL(url).password;
  if (password === '') return [];
  let decoded = password;
  try {
    decoded = decodeURIComponent(password);
  } catch {
    // a stray % : the password as written is the secret
  }
  return [...new Set([url, password, decoded])];
}

/** The secrets of a URL whose path is the secret (a webhook): the URL whole and its path. */
function urlPath(url: string): string[] {
  if (!URL.canParse(url)) return [url];
  const path = new URL(url).pathname;
  return path.length > 1 ? [url, path] : [url];
}

/** The literals of one secret setting's value that must never be written, by its shape. */
export function secretLiterals(
  setting: SecretSetting,
  raw: string | undefined,
  dirs: readonly string[] = [process.cwd()],
): string[] {
  const value = raw?.trim();
  if (!value) return [];
  switch (setting.shape) {
    case 'value':
      return [value];
    case 'private-key': {
      const text = privateKeyText(value, dirs);
      return text === undefined ? [] : [text];
    }
    case 'url-credentials':
      return urlCredentials(value);
    case 'url-path':
      return urlPath(value);
  }
}

/** Every secret literal the settings in `env` hold, each with the setting it came from, in the list's order. */
export function secretValues(
  env: Readonly<Record<string, string | undefined>>,
): { name: string; value: string }[] {
  return SECRET_SETTINGS.flatMap((setting) =>
    secretLiterals(setting, env[setting.name], keyDirs(env)).map((value) => ({ name: setting.name, value })),
  );
}
