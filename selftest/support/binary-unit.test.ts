// support/binary-unit.ts stands in for fast-check's `unit: 'binary'` in the property tests: every code point but a
// lone surrogate, each drawn as one string, and its unmapper (what fast-check shrinks a given value through)
// the exact inverse, refusing what the unit cannot draw.
import { expect, test } from './test';
import fc from 'fast-check';
import { binaryUnit } from './binary-unit';

test('it draws every plane and never a lone surrogate', () => {
  const drawn = fc.sample(binaryUnit, { seed: 5, numRuns: 5000 });
  const cps = drawn.map((c) => c.codePointAt(0)!);
  expect(drawn.every((c, i) => String.fromCodePoint(cps[i]!) === c)).toBe(true);
  expect(cps.filter((cp) => cp >= 0xd800 && cp < 0xe000)).toEqual([]);
  expect(cps.some((cp) => cp > 0xffff)).toBe(true);
  expect(cps.some((cp) => cp >= 0xe000 && cp <= 0xffff)).toBe(true);
  // fast-check biases towards small values, so the ASCII range is drawn too.
  expect(cps.some((cp) => cp < 0x80)).toBe(true);
});

test('its unmapper is the inverse at the edges and refuses what it cannot draw', () => {
  const canShrink = (v: unknown) => binaryUnit.canShrinkWithoutContext(v);
  for (const c of ['\u0000', '\ud7ff', '\ue000', '\uffff', '\u{10000}', '\u{10ffff}', 'a'])
    expect(canShrink(c), JSON.stringify(c)).toBe(true);
  for (const v of ['\ud800', '\udfff', 'ab', '', 42, undefined]) expect(canShrink(v), String(v)).toBe(false);
});

test('a string of it keeps fast-check’s dangerous slices (__proto__, constructor…)', () => {
  const drawn = fc.sample(fc.string({ unit: binaryUnit, maxLength: 40 }), { seed: 11, numRuns: 2000 });
  expect(drawn.some((s) => /__proto__|constructor|valueOf|toString/.test(s))).toBe(true);
});
