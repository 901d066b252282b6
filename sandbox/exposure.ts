// Protected mode, after Redis's: a sandbox bound beyond loopback answers whoever reaches its port, so it must not
// trust a secret everybody knows. With the development secret (printed in the start line and the docs) anyone
// could sign a token for any user, the admin whose right the control route asks for included; with auth off
// anyone acts as any party. Such a sandbox does not start unless its operator accepts the risk by name.
// On loopback nothing changes: only this machine reaches it.
import { isIP } from 'node:net';
import { DEV_DEFAULTS, type SandboxConfig } from './config';

/** The setting with which an operator accepts a network-facing sandbox anyone can sign tokens for. */
export const ACCEPT_RISK_SETTING = 'SANDBOX_ALLOW_INSECURE_HOST';

/** Whether a listen host reaches this machine only: localhost, 127.0.0.0/8, ::1 (also IPv4-mapped). */
export function isLoopback(host: string): boolean {
  const h = host
    .trim()
    .toLowerCase()
    .replace(/^\[(.*)\]$/, '$1');
  if (h === 'localhost' || h === '::1' || h === '0:0:0:0:0:0:0:1') return true;
  const v4 = h.startsWith('::ffff:') ? h.slice('::ffff:'.length) : h;
  return isIP(v4) === 4 && v4.startsWith('127.');
}

/** Why anyone who reaches the sandbox could act as anyone, or undefined when its tokens are its own. */
function publicTrust(config: SandboxConfig): string | undefined {
  if (config.auth === 'none') return 'SANDBOX_AUTH=none lets anyone who reaches it act as any party';
  if (config.auth === 'hs256' && config.hmacSecret === DEV_DEFAULTS.hmacSecret)
    return 'the development secret, which is public, lets anyone who reaches it sign a token for any user, admin included';
  return undefined;
}

/**
 * The one line that stops a sandbox bound beyond loopback while anyone could sign its tokens, or undefined when
 * it may start: on loopback, with a secret or JWKS of its own, or with the risk accepted.
 */
export function exposureError(config: SandboxConfig): string | undefined {
  if (isLoopback(config.host) || config.allowInsecureHost) return undefined;
  const why = publicTrust(config);
  if (why === undefined) return undefined;
  return (
    `SANDBOX_HOST=${config.host} reaches beyond this machine, and ${why}: ` +
    `set SANDBOX_HMAC_SECRET to a secret of your own (SANDBOX_AUTH=hs256), or SANDBOX_AUTH=jwks with SANDBOX_JWKS, ` +
    `or ${ACCEPT_RISK_SETTING}=true to accept the risk`
  );
}

/** What the start line says of a sandbox that runs unprotected on purpose; '' otherwise. */
export function exposureNote(config: SandboxConfig): string {
  const accepted = !isLoopback(config.host) && publicTrust(config) !== undefined;
  return accepted ? ` · unprotected beyond loopback (${ACCEPT_RISK_SETTING}=true)` : '';
}
