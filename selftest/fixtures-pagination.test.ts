// The page walker catches every broken page sequence (fed fake pages) and passes good ones — Canton's extra
// empty page included, which it reports for the rule about the empty final token — and walks the sandbox.
import { test, expect } from '@playwright/test';
import { buildApp } from '../sandbox/app';
import { loadConfig } from '../sandbox/config';
import { PageAssertionError, walkPages, walkVettedPackages, type Page } from '../fixtures/pagination';
import { createTokenProvider } from '../core/token-providers';
import { clientFor, listen, settingsFor } from './support/harness-kit';

type Entry = [sync: string, participant: string];
const NS = '1220' + 'a'.repeat(64);
const e = (sync: string, participant: string): Entry => [`${sync}::${NS}`, `${participant}::${NS}`];

/** Serves `pages` in order: page n answers token `t<n>` and points at `t<n+1>`, the last at "" (or `last`). */
function fake(pages: Entry[][], last = '') {
  return (token: string, n: number): Promise<Page<Entry>> => {
    expect(token, `page ${n} is asked for with the previous page's token`).toBe(n === 1 ? '' : `t${n}`);
    const entries = pages[n - 1] ?? [];
    return Promise.resolve({ entries, nextPageToken: n >= pages.length ? last : `t${n + 1}` });
  };
}

const walk = (pages: Entry[][], opts: { pageSize?: number; maxPages?: number; last?: string } = {}) =>
  walkPages<Entry>({
    fetchPage: fake(pages, opts.last),
    key: (x) => x,
    pageSize: opts.pageSize,
    maxPages: opts.maxPages,
  });

test('a good walk passes and reports what it saw', async () => {
  const r = await walk([[e('a', 'p1'), e('a', 'p2')], [e('b', 'p1'), e('b', 'p2')], [e('c', 'p1')]], {
    pageSize: 2,
  });
  expect(r.entries).toHaveLength(5);
  expect(r.pages.map((p) => p.length)).toEqual([2, 2, 1]);
  expect(r.tokenAfterLastEntry).toBe('');
  expect(r.trailingEmptyPages).toBe(0);
  expect(r.orders.sort()).toEqual(['identifier-then-namespace', 'string order']);
});

test('Canton’s extra empty page passes the walk, and is reported', async () => {
  const r = await walk([[e('a', 'p1'), e('a', 'p2')], [e('b', 'p1')], []], { pageSize: 2 });
  expect(r.tokenAfterLastEntry).toBe('t3');
  expect(r.trailingEmptyPages).toBe(1);
});

test('the two accepted id orders: each alone passes, a walk mixing them fails', async () => {
  // "da" < "da1" in Canton's identifier order; "da1::" < "da::" in plain string order (':' > '1').
  const canton = await walk([[e('da', 'p'), e('da1', 'p')]]);
  expect(canton.orders).toEqual(['identifier-then-namespace']);
  const plain = await walk([[e('da1', 'p'), e('da', 'p')]]);
  expect(plain.orders).toEqual(['string order']);
  await expect(
    walk([
      [e('da', 'p'), e('da1', 'p')],
      [e('db1', 'p'), e('db', 'p')],
    ]),
  ).rejects.toThrow(/page 2: entry 2 .* does not sort strictly after entry 1/);
});

const BROKEN: [string, Entry[][], { pageSize?: number; maxPages?: number; last?: string }, RegExp][] = [
  [
    'out of order inside a page',
    [[e('b', 'p'), e('a', 'p')]],
    {},
    /page 1: entry 2 .* does not sort strictly after/,
  ],
  [
    'a page not strictly after the previous one',
    [[e('a', 'p'), e('c', 'p')], [e('b', 'p')]],
    {},
    /page 2: the first entry .* does not sort strictly after the previous page's last entry/,
  ],
  [
    'an entry repeated across pages',
    [[e('a', 'p')], [e('a', 'p')]],
    {},
    /page 2: entry .* was already returned/,
  ],
  [
    'a page longer than requested',
    [[e('a', 'p'), e('b', 'p'), e('c', 'p')]],
    { pageSize: 2 },
    /3 entries, more than the requested pageSize 2/,
  ],
  [
    'a walk that never ends',
    Array.from({ length: 20 }, (_, i) => [e(`s${String(i).padStart(2, '0')}`, 'p')]),
    { maxPages: 10 },
    /did not end .* within 10 pages/,
  ],
];

for (const [what, pages, opts, message] of BROKEN) {
  test(`the walker catches ${what}`, async () => {
    const error = await walk(pages, opts).then(
      () => undefined,
      (x: unknown) => x,
    );
    expect(error).toBeInstanceOf(PageAssertionError);
    expect((error as Error).message).toMatch(message);
  });
}

test('the walker catches a token loop', async () => {
  let n = 0;
  const looping = walkPages<Entry>({
    key: (x) => x,
    fetchPage: () =>
      Promise.resolve({ entries: n++ === 0 ? [e('a', 'p')] : [], nextPageToken: 'same-token' }),
  });
  await expect(looping).rejects.toThrow(/nextPageToken repeats an earlier token/);
});

test('walkVettedPackages walks the sandbox to the end', async () => {
  const app = await buildApp(loadConfig({ SANDBOX_SYNCHRONIZERS: '3', SANDBOX_PARTICIPANTS: '4' }));
  try {
    const client = clientFor(await listen(app), createTokenProvider(settingsFor()));
    const small = await walkVettedPackages(client, { pageSize: 2 });
    const whole = await walkVettedPackages(client, {});
    expect(small.entries.length).toBeGreaterThan(2);
    expect(small.entries).toEqual(whole.entries);
    expect(small.pages.length).toBeGreaterThan(1);
  } finally {
    await app.close();
  }
});
