// Credentials in the clear: a run or a preflight that would send a bearer token, the OAuth2 client secret or a
// proxy password over plain http to another machine says so in one line before it sends anything. Announced,
// not refused, as the tools a QA engineer uses beside the harness do — curl, kubectl, the Vault CLI and
// Schemathesis all send a credential to an http:// URL without asking — since a participant reached over
// plain http inside a cluster or a mesh (TLS at the sidecar) is a common, deliberate set-up; but never silently.
// A loopback host stays silent: the credential does not leave the machine.
import { isLoopback, proxyFor } from './proxy';
import type { Settings } from './settings';

export interface ClearCredential {
  /** What travels in the clear, in a reader's words (no value). */
  credential: string;
  /** host:port it goes to. */
  host: string;
  /** The setting whose URL to change to https://. */
  setting: string;
}

/** The host:port of an http:// URL to another machine, or undefined (https, loopback, not a URL). */
function clearHost(url: string | undefined): string | undefined {
  if (url === undefined || !URL.canParse(url)) return undefined;
  const u = new URL(url);
  return u.protocol === 'http:' && !isLoopback(u.hostname) ? u.host : undefined;
}

/** The password of the proxy `url` takes, when that proxy is reached over plain http on another machine. */
function proxyPassword(url: string | undefined): ClearCredential | undefined {
  const proxy = url === undefined ? undefined : proxyFor(url);
  if (proxy === undefined || !URL.canParse(proxy.url) || new URL(proxy.url).password === '') return undefined;
  const host = clearHost(proxy.url);
  return host === undefined
    ? undefined
    : { credential: `the proxy password of ${proxy.variable}`, host, setting: proxy.variable };
}

/** Every credential the settings would send over plain http to another machine (the participant at `baseUrl`). */
export function clearCredentials(s: Settings, baseUrl: string | undefined = s.baseUrl): ClearCredential[] {
  const found: ClearCredential[] = [];
  const target = clearHost(baseUrl);
  if (target && s.auth.kind !== 'none') {
    const credential =
      s.auth.kind === 'static'
        ? 'the bearer token of LEDGER_TOKEN'
        : `the bearer tokens (LEDGER_AUTH=${s.auth.kind})`;
    found.push({ credential, host: target, setting: 'LEDGER_BASE_URL' });
  }
  const proxied = [proxyPassword(baseUrl)];
  if (s.auth.kind === 'oauth2') {
    const idp = clearHost(s.auth.tokenUrl);
    if (idp)
      found.push({ credential: 'the OAuth2 client secret', host: idp, setting: 'LEDGER_OAUTH_TOKEN_URL' });
    proxied.push(proxyPassword(s.auth.tokenUrl));
  }
  for (const p of proxied) if (p && !found.some((f) => f.credential === p.credential)) found.push(p);
  return found;
}

/** What goes in the clear, in the report's words (its run information), or undefined when nothing does. */
export function clearCredentialsWords(found: readonly ClearCredential[]): string | undefined {
  if (found.length === 0) return undefined;
  const what = found.map((f) => `${f.credential} to ${f.host}`).join(', ');
  const settings = [...new Set(found.map((f) => f.setting))].join(', ');
  return `credentials go over plain http, readable on the way: ${what}; use https:// in ${settings}`;
}

/** The one line that announces them, or undefined when nothing goes in the clear. */
export function clearCredentialsLine(found: readonly ClearCredential[]): string | undefined {
  const words = clearCredentialsWords(found);
  return words === undefined ? undefined : `ledger-conformance: ${words}`;
}

/**
 * Writes the line to stderr when there is one (the run's and the preflight's first output); returns the words,
 * which a run also records in its report (target.json: conformance.md's run information, Allure's environment).
 */
export function announceClearCredentials(s: Settings, baseUrl?: string): string | undefined {
  const found = clearCredentials(s, baseUrl ?? s.baseUrl);
  const line = clearCredentialsLine(found);
  if (line !== undefined) process.stderr.write(`${line}\n`);
  return clearCredentialsWords(found);
}
