// `npm run sandbox`: the sandbox participant in the foreground. Settings from the environment (and `.env`)
// and `--flags`; a bad one stops it with exit code 2 and one line naming it. Prints one line with what a
// client needs (then, with SANDBOX_FAULTS, the faults' banner), then stays silent unless LOG_LEVEL is set. SIGINT/SIGTERM close it cleanly (exit 0).
import dotenv from 'dotenv';
import type { AddressInfo } from 'node:net';
import { buildApp } from './app';
import { ConfigError, DEV_DEFAULTS, loadConfig, type SandboxConfig } from './config';
import { AUDIENCE_PREFIX } from './auth-payload';
import { exposureError, exposureNote } from './exposure';
import { faultBanner, resolveFaults } from './faults/install';

function credentials(config: SandboxConfig): string {
  const user = config.users[0]?.id ?? '(none configured)';
  const audience = `audience ${AUDIENCE_PREFIX}${config.participantId} (or scope daml_ledger_api)`;
  if (config.auth === 'none') return 'auth none (send userId in request bodies)';
  if (config.auth === 'jwks') return `auth jwks ${config.jwks ?? ''}, user ${user}, ${audience}`;
  // The dev secret is public by design (Canton's testing-only HMAC mode); a configured one stays unprinted.
  const secret =
    config.hmacSecret === DEV_DEFAULTS.hmacSecret
      ? `secret "${config.hmacSecret}"`
      : 'secret from SANDBOX_HMAC_SECRET';
  return `auth hs256 ${secret}, user ${user}, ${audience}`;
}

const USAGE = `Usage: npm run sandbox [-- --<setting> <value> …]
The sandbox participant in the foreground, until SIGINT/SIGTERM. Settings from the environment (and .env) and
flags, which win: --port 7575 is SANDBOX_PORT, --control is SANDBOX_CONTROL=true, --log-level debug is LOG_LEVEL;
every SANDBOX_* setting is in .env.example and sandbox/README.md. A bad one stops it with exit 2 and one line.
Bound beyond loopback (SANDBOX_HOST), it needs a secret of its own (SANDBOX_HMAC_SECRET or SANDBOX_JWKS), or
SANDBOX_ALLOW_INSECURE_HOST=true to accept that anyone reaching it can sign its tokens.`;

async function main(): Promise<void> {
  if (process.argv.slice(2).some((a) => a === '--help' || a === '-h')) {
    process.stdout.write(`${USAGE}\n`);
    process.exit(0);
  }
  dotenv.config({ quiet: true });
  let config: SandboxConfig;
  try {
    config = loadConfig(process.env, process.argv.slice(2));
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`sandbox: ${e.message}`);
    process.exit(2);
  }
  // Before anything listens: a network-facing sandbox anyone could sign tokens for never opens its port.
  const exposed = exposureError(config);
  if (exposed !== undefined) {
    console.error(`sandbox: ${exposed}`);
    process.exit(2);
  }
  let app: Awaited<ReturnType<typeof buildApp>>;
  try {
    app = await buildApp(config);
  } catch (e) {
    if (!(e instanceof ConfigError)) throw e;
    console.error(`sandbox: ${e.message}`);
    process.exit(2);
  }
  try {
    await app.listen({ host: config.host, port: config.port });
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    console.error(
      `sandbox: ${config.host}:${config.port} is in use: set SANDBOX_PORT (or --port) to a free port`,
    );
    process.exit(2);
  }
  const { address, port } = app.server.address() as AddressInfo;
  const host = address.includes(':') ? `[${address}]` : address;
  const control = config.control ? ', control route on' : '';
  console.log(
    `sandbox listening on http://${host}:${port} (mode ${config.mode}${control}) · ${credentials(config)}${exposureNote(config)}`,
  );
  // The same banner as the conformance run's in-process sandbox: a broken participant never passes unnoticed.
  if (config.faults.length > 0) console.log(faultBanner(resolveFaults(config.faults)));

  let closing = false;
  const stop = (): void => {
    if (closing) return;
    closing = true;
    app.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

main().catch((e: unknown) => {
  console.error('sandbox: could not start:', e instanceof Error ? e.message : e);
  process.exit(1);
});
