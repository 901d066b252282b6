// A sandbox that looks like a staging participant, not like the development defaults: another participant id,
// synchronizer, namespace, users and parties, and RS256 tokens verified from a JWKS (SANDBOX_AUTH=jwks). The
// key pair is made here with jose; the private key is written as PEM and the JWKS as a file in a temp folder.
// Used by the self-tests of discovery and the preflight.
import { createHash } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { exportJWK, exportPKCS8, generateKeyPair } from 'jose';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { listen } from './harness-kit';
import { sandbox } from './sandbox-kit';

export const NS = '1220' + createHash('sha256').update('staging-kit').digest('hex');
export const party = (hint: string): string => `${hint}::${NS}`;
export const PARTICIPANT = `staging-node-7::${NS}`;
export const SYNCHRONIZER = `global-sync::${NS}`;
export const KID = 'staging-key-1';

/** qa-runner acts as two parties and reads as a third; qa-solo has one actAs party; qa-none has no right. */
export const USERS = [
  { id: 'qa-runner', actAs: [party('Treasury'), party('Ops')], readAs: [party('Audit')] },
  { id: 'qa-solo', actAs: [party('Solo')], readAs: [] },
  { id: 'qa-none', actAs: [], readAs: [] },
];

export interface Staging {
  url: string;
  app: FastifyInstance;
  dir: string;
  /** PEM file of the key the sandbox trusts, and of one it does not. */
  keyPath: string;
  otherKeyPath: string;
  /** Answers shaped like fastify's own errors or V8's JSON.parse texts (there must be none). */
  frameworkAnswers: string[];
}

/** What no Canton participant sends: fastify's error shape (FST_ codes, statusCode) or V8's JSON.parse wording. */
export const FRAMEWORK_ANSWER =
  /"code":"FST_|"statusCode":|Unexpected token|is not valid JSON|Unexpected end of JSON input|Bad control character/;

async function pemOf(dir: string, name: string): Promise<{ path: string; jwk: Record<string, unknown> }> {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const path = join(dir, `${name}.pem`);
  writeFileSync(path, await exportPKCS8(privateKey));
  return { path, jwk: { ...(await exportJWK(publicKey)), kid: KID, alg: 'RS256', use: 'sig' } };
}

/** `env`: more sandbox settings (SANDBOX_FAULTS, a topology's size). */
export async function staging(env: Record<string, string> = {}): Promise<Staging> {
  const dir = mkdtempSync(join(tmpdir(), 'staging-kit-'));
  const trusted = await pemOf(dir, 'trusted');
  const other = await pemOf(dir, 'other');
  const jwks = join(dir, 'jwks.json');
  writeFileSync(jwks, JSON.stringify({ keys: [trusted.jwk] }));
  const app = await sandbox({
    SANDBOX_AUTH: 'jwks',
    SANDBOX_JWKS: jwks,
    SANDBOX_PARTICIPANT_ID: PARTICIPANT,
    SANDBOX_SYNCHRONIZER_ID: SYNCHRONIZER,
    SANDBOX_USERS: JSON.stringify(USERS),
    ...env,
  });
  const url = await listen(app);
  // Every answer the participant sends, read as it leaves (before fastify's own listener writes it).
  const frameworkAnswers: string[] = [];
  app.server.prependListener('request', (req: IncomingMessage, res: ServerResponse) => {
    const end = res.end.bind(res) as (...args: unknown[]) => ServerResponse;
    res.end = ((...args: unknown[]) => {
      const chunk = args[0];
      const text = typeof chunk === 'string' ? chunk : Buffer.isBuffer(chunk) ? chunk.toString('utf8') : '';
      if (FRAMEWORK_ANSWER.test(text))
        frameworkAnswers.push(`${req.method} ${req.url} → ${text.slice(0, 200)}`);
      return end(...args);
    }) as typeof res.end;
  });
  return { url, app, dir, keyPath: trusted.path, otherKeyPath: other.path, frameworkAnswers };
}

/** What a QA engineer gives for a first run: the URL, the RS256 key and the user. Nothing else. */
export const minimal = (s: Staging, user: string, key = s.keyPath): Record<string, string> => ({
  LEDGER_BASE_URL: s.url,
  LEDGER_AUTH: 'rs256',
  LEDGER_JWT_PRIVATE_KEY: key,
  LEDGER_JWT_KID: KID,
  LEDGER_USER: user,
});
