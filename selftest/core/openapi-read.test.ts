// Reading a participant's own description (core/openapi-read.ts) over HTTP: served without a token, served
// only with the run's token, not served (404), refused (401), not an OpenAPI document. Each is one line; no
// token ever reaches it.
import Fastify from 'fastify';
import { stringify } from 'yaml';
import { expect, test } from '../support/test';
import { readDescription } from '../../core/openapi-read';
import { tokenProviderFor } from '../../core/token-providers';
import { documentOf } from '../../sandbox/openapi/description';
import type { SpecFacts } from '../../spec/facts';
import facts from '../../spec/canton-3.5.10.json';
import { listen, settingsFor } from '../support/harness-kit';

const YAML = stringify(documentOf(facts as unknown as SpecFacts));

/** What the run reads from a participant whose /docs/openapi answers as `answer` says for the Authorization given. */
async function readFrom(answer: (auth: string | undefined) => [number, string]) {
  const app = Fastify();
  app.get('/docs/openapi', async (req, reply) => {
    const [status, body] = answer(req.headers.authorization);
    return reply.code(status).type('text/plain').send(body);
  });
  try {
    return await readDescription(settings, await listen(app));
  } finally {
    await app.close();
  }
}

const settings = settingsFor({
  LEDGER_AUTH: 'hs256',
  LEDGER_HMAC_SECRET: 'a-secret-of-the-selftest-32-bytes!!',
});

for (const [name, answer, state, line] of [
  ['not served', () => [404, 'not found'], 'not-served', 'not served (GET /docs/openapi answered 404)'],
  [
    'refused even with the token',
    () => [401, 'no'],
    'refused',
    "not read (GET /docs/openapi answered 401 to the run's credentials)",
  ],
  [
    'not an OpenAPI document',
    () => [200, 'hello: world'],
    'unreadable',
    'not read (GET /docs/openapi: not an OpenAPI document)',
  ],
] as const) {
  test(`a description ${name} is one line, no token in it`, async () => {
    const read = await readFrom(answer as () => [number, string]);
    expect(read).toEqual({ state, line });
    const token = await tokenProviderFor(settings).token();
    expect(JSON.stringify(read)).not.toContain(token!);
  });
}

test("a description served only with the run's token is read with it", async () => {
  const seen: (string | undefined)[] = [];
  const read = await readFrom((auth) => {
    seen.push(auth);
    return auth?.startsWith('Bearer ') ? [200, YAML] : [401, 'no'];
  });
  expect(read.state).toBe('read');
  expect(Object.keys(read.facts!.operations).sort()).toEqual(['submitTree', 'version', 'vettingList']);
  expect(seen.map((a) => (a === undefined ? 'none' : 'bearer'))).toEqual(['none', 'bearer']);
});

test('a body echoing the token that is no YAML: the parser is not quoted, the token never reaches the line', async () => {
  const token = (await tokenProviderFor(settings).token())!;
  const read = await readFrom(() => [200, `{"echo": "${token}", [broken: ]`]);
  expect(read).toEqual({
    state: 'unreadable',
    line: 'not read (GET /docs/openapi: neither YAML nor JSON)',
  });
});
