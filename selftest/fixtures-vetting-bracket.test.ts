// The judgement of a walk by the listing read around it (fixtures/vetting-bracket.ts), fed made-up reads and
// walks: what stayed the same must come once, whole and in order; what changed is judged on order and shape;
// an entry in neither read is a failure only while nothing changed; the horizon bounds what a window judges.
import { expect, test } from '@playwright/test';
import type { VettedPackages } from '../core/api-types';
import {
  around,
  narrowedExpectation,
  uniqueEntries,
  walkDifferences,
  type Bracket,
  type Listing,
} from '../fixtures/vetting-bracket';
import { entryKey, entrySignature, type PageRun } from '../fixtures/vetting-helpers';

const NS = `1220${'b'.repeat(64)}`;
const entry = (p: string, serial = 1, packages = ['a']): VettedPackages => ({
  synchronizerId: `s::${NS}`,
  participantId: `${p}::${NS}`,
  topologySerial: serial,
  packages: packages.map((id) => ({
    packageId: id.repeat(64),
    packageName: `n-${id}`,
    packageVersion: '1.0.0',
    validFromInclusive: null,
    validUntilExclusive: null,
  })),
});

const run = (entries: VettedPackages[], ended = true): PageRun => ({
  pages: [],
  entries,
  ended,
  cut: !ended,
  stoppedBecause: undefined,
});

const listing = (entries: VettedPackages[], complete = true): Listing => {
  const unique = uniqueEntries(entries);
  return {
    entries: unique,
    fingerprint: JSON.stringify(unique.map(entrySignature)),
    position: new Map(unique.map((e, i) => [entryKey(e), i])),
    complete,
    run: run(entries, complete),
  };
};

const reads = (before: VettedPackages[], after: VettedPackages[], complete = true): Bracket => ({
  before: listing(before, complete),
  after: listing(after, complete),
});

const [a, b, c, d] = ['p1', 'p2', 'p3', 'p4'].map((p) => entry(p)) as [
  VettedPackages,
  VettedPackages,
  VettedPackages,
  VettedPackages,
];

test('quiet: the walk must equal the listing — missing, repeated, out of order, other content, extra', () => {
  const q = around(reads([a, b, c], [a, b, c]));
  expect(q.quiet).toBe(true);
  expect(walkDifferences(q, { run: run([a, b, c]) })).toEqual([]);
  expect(walkDifferences(q, { run: run([a, c]) })).toEqual([`missing entry ${entryKey(b)}`]);
  expect(walkDifferences(q, { run: run([a, b, b, c]) })).toEqual([`entry ${entryKey(b)} returned 2 times`]);
  expect(walkDifferences(q, { run: run([a, c, b]) })[0]).toMatch(/not in the listing's order/);
  expect(walkDifferences(q, { run: run([a, entry('p2', 2), c]) })[0]).toMatch(/differs/);
  expect(walkDifferences(q, { run: run([a, b, c, d]) })[0]).toMatch(/in neither listing read/);
  // An early "": what remained is missing; a window cut after b: nothing after it is.
  expect(walkDifferences(q, { run: run([a]) })).toHaveLength(2);
  expect(walkDifferences(q, { run: run([a, b], false) })).toEqual([]);
});

test('live: changed entries may come or not, in any content; stable ones still must, once and in order', () => {
  // b was vetted more (serial 2), c left, d joined: only a stays the same.
  const live = around(reads([a, b, c], [a, entry('p2', 2, ['a', 'b']), d]));
  expect(live.quiet).toBe(false);
  for (const seen of [[a, b, c], [a, entry('p2', 2, ['a', 'b']), d], [a, d], [a]])
    expect(walkDifferences(live, { run: run(seen) }), JSON.stringify(seen.map(entryKey))).toEqual([]);
  expect(walkDifferences(live, { run: run([b, c]) })).toEqual([`missing entry ${entryKey(a)}`]);
  expect(walkDifferences(live, { run: run([a, a, d]) })).toEqual([`entry ${entryKey(a)} returned 2 times`]);
  // An entry in neither read is allowed once the listing changed: it may have come and gone meanwhile.
  expect(walkDifferences(live, { run: run([a, entry('p25')]) })).toEqual([]);
});

test('the horizon: a window judges only what both reads reached', () => {
  const window = around(reads([a, b], [a, b], false));
  expect(walkDifferences(window, { run: run([a, b, c, d]) })).toEqual([]);
  expect(walkDifferences(window, { run: run([a]) })).toEqual([`missing entry ${entryKey(b)}`]);
  expect(window.within(c)).toBe(false);
});

test('a filter: stable entries as narrowed, changed ones only if they match', () => {
  const two = entry('p2', 1, ['a', 'b']);
  const q = around(reads([a, two, c], [a, two, entry('p3', 2, ['b'])]));
  const onlyB = narrowedExpectation((p) => p.packageId === 'b'.repeat(64));
  expect(walkDifferences(q, { run: run([entry('p2', 1, ['b'])]) }, onlyB)).toEqual([]);
  expect(walkDifferences(q, { run: run([two]) }, onlyB)[0]).toMatch(/differs/);
  expect(walkDifferences(q, { run: run([entry('p2', 1, ['b']), entry('p3', 2, ['b'])]) }, onlyB)).toEqual([]);
  expect(walkDifferences(q, { run: run([entry('p2', 1, ['b']), c]) }, onlyB)[0]).toMatch(/does not match/);
  expect(walkDifferences(q, { run: run([]) }, onlyB)).toEqual([`missing entry ${entryKey(two)}`]);
});
