// The busy sandbox (sandbox/busy.ts): a seeded share of the requests to /v2/… answered with Canton's transient
// errors, exactly as Canton words them (errorCategory, grpcCodeValue, retryInfo of the category), the same
// sequence for the same seed, never the control route, and a wrong setting one line naming it.
import { expect, test } from '../support/test';
import { buildApp } from '../../sandbox/app';
import { withSandbox } from '../support/sandbox-kit';
import { ConfigError, loadConfig } from '../../sandbox/config';

async function statuses(env: Record<string, string>, n: number, url = '/v2/version'): Promise<number[]> {
  return withSandbox(env, async (app) => {
    const out: number[] = [];
    for (let i = 0; i < n; i++) out.push((await app.inject({ method: 'GET', url })).statusCode);
    return out;
  });
}

test('every answer busy: Canton’s 503 TransientServerFailure and 409 ContentionOnSharedResources bodies', async () => {
  const app = await buildApp(loadConfig({ SANDBOX_BUSY: '1', SANDBOX_BUSY_ANSWERS: '503' }));
  const contended = await buildApp(loadConfig({ SANDBOX_BUSY: '1', SANDBOX_BUSY_ANSWERS: '409' }));
  try {
    const res = await app.inject({ method: 'POST', url: '/v2/package-vetting/list', payload: '{}' });
    expect(res.statusCode).toBe(503);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(res.json()).toEqual({
      code: 'INDEX_DB_SQL_TRANSIENT_ERROR',
      cause: 'Processing the request failed due to a transient database error: connection pool exhausted',
      correlationId: null,
      traceId: null,
      context: { category: '1', definite_answer: 'false' },
      resources: [],
      errorCategory: 1,
      grpcCodeValue: 14,
      retryInfo: '1 second',
      definiteAnswer: null,
    });
    const busy = await contended.inject({ method: 'GET', url: '/v2/version' });
    expect(busy.statusCode).toBe(409);
    expect(busy.json()).toMatchObject({
      code: 'PARTICIPANT_BACKPRESSURE',
      cause: 'The participant is overloaded: too many in-flight requests',
      errorCategory: 2,
      grpcCodeValue: 10,
      retryInfo: '1 second',
      definiteAnswer: false,
    });
  } finally {
    await app.close();
    await contended.close();
  }
});

test('a seeded share: the same seed answers the same requests busy, another seed others; quiet when unset', async () => {
  const env = { SANDBOX_BUSY: '0.2', SANDBOX_BUSY_SEED: '7', SANDBOX_BUSY_RETRY_INFO: '100 milliseconds' };
  const once = await statuses(env, 200);
  expect(await statuses(env, 200)).toEqual(once);
  expect(await statuses({ ...env, SANDBOX_BUSY_SEED: '8' }, 200)).not.toEqual(once);
  const busy = once.filter((s) => s !== 200).length;
  expect(busy).toBeGreaterThan(20);
  expect(busy).toBeLessThan(60);
  expect(new Set(once)).toEqual(new Set([200, 503, 409]));
  expect(await statuses({}, 50)).toEqual(Array(50).fill(200));
  // Not Canton's API: the control route is never busy.
  expect(
    await statuses({ SANDBOX_BUSY: '1', SANDBOX_CONTROL: 'true' }, 5, '/sandbox/control/vet'),
  ).not.toContain(503);
});

test('a wrong busy setting: one line naming it and the fix', () => {
  const error = (env: Record<string, string>) => {
    try {
      loadConfig(env);
      return undefined;
    } catch (e) {
      return e instanceof ConfigError ? e.message : String(e);
    }
  };
  expect(error({ SANDBOX_BUSY: '5%' })).toBe(
    'SANDBOX_BUSY="5%" is not valid: set it to the share of requests answered busy, between 0 and 1, like 0.05',
  );
  expect(error({ SANDBOX_BUSY: '1.5' })).toContain('SANDBOX_BUSY="1.5" is not valid');
  expect(error({ SANDBOX_BUSY_ANSWERS: '500' })).toBe(
    'SANDBOX_BUSY_ANSWERS="500" is not valid: set it to 503, 409 or 503,409',
  );
  expect(error({ SANDBOX_BUSY_RETRY_INFO: 'soon' })).toContain('SANDBOX_BUSY_RETRY_INFO="soon" is not valid');
});
