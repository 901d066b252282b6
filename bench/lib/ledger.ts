// What a client of the sandbox needs: a dev token (HS256, the sandbox's dev defaults, minted with jose as the
// harness does) and the harness's default submission (core/templates/sandbox-asset-transfer.json, the
// fields core/command-factory.ts sends), with a fresh commandId per request.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { SignJWT } from 'jose';
import { DEV_DEFAULTS, devParty } from '../../sandbox/config';
import { ROOT } from './child';
import { participantAudience } from '../../core/api-paths';

export const PATHS = {
  version: '/v2/version',
  list: '/v2/package-vetting/list',
  submit: '/v2/commands/submit-and-wait-for-transaction-tree',
} as const;

export const USER = 'conformance';
export const AUDIENCE = participantAudience(DEV_DEFAULTS.participantId);
const ALICE = devParty('Alice');
const BOB = devParty('Bob');
const CHARLIE = devParty('Charlie');

/** A user token for `conformance`, valid `lifetimeSeconds` (the sandbox refuses more than 300). */
export async function devToken(lifetimeSeconds = 290): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT({})
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setSubject(USER)
    .setAudience(AUDIENCE)
    .setIssuedAt(now)
    .setExpirationTime(now + lifetimeSeconds)
    .sign(new TextEncoder().encode(DEV_DEFAULTS.hmacSecret));
}

const template = JSON.parse(
  readFileSync(resolve(ROOT, 'core', 'templates', 'sandbox-asset-transfer.json'), 'utf8'),
) as { commands: unknown[] };

/** The harness's default command with its placeholders filled (amount and label vary per request in the suite). */
const commands = JSON.parse(
  JSON.stringify(template.commands)
    .replaceAll('{{actAs0}}', ALICE)
    .replaceAll('{{actAs1}}', BOB)
    .replaceAll('{{amount}}', '4711.0000000000')
    .replaceAll('{{label}}', 'Ergonomic Steel Chair bench1'),
) as unknown[];

/**
 * The submission body the harness sends, with run-unique ids: `bodyFor(n)` for the n-th request. Built once
 * and joined around the counter, so the load generator spends no time on JSON.stringify per request.
 */
export function submitBodies(runId: string): (n: number) => string {
  const mark = '\u0000N\u0000';
  const parts = JSON.stringify({
    commands,
    commandId: `${runId}:BENCH-SUBMIT:w0:cmd${mark}`,
    actAs: [ALICE, BOB],
    userId: USER,
    readAs: [CHARLIE],
    workflowId: `${runId}:BENCH-SUBMIT:w0:wf${mark}`,
    submissionId: `${runId}:BENCH-SUBMIT:w0:sub${mark}`,
    synchronizerId: DEV_DEFAULTS.synchronizerId,
  }).split(JSON.stringify(mark).slice(1, -1));
  return (n) => parts.join(String(n));
}
