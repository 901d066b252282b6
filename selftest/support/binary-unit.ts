// fast-check's `unit: 'binary'` (any code point but a lone surrogate) without its cost: fast-check builds that
// unit as a mapToConstant whose unmapper is a Map of all 1.1 million code points, made the first time a process
// builds a binary string arbitrary (seconds of CPU, and the garbage collector's time after it) — in each
// Playwright worker that runs such a test. Here the same nat and the same mapping, with an unmapper that
// computes the index: a seed draws exactly the values (and shrinks exactly as) `unit: 'binary'` does.
import fc from 'fast-check';

const SURROGATES = 0xe000 - 0xd800;

const toChar = (i: number): string => String.fromCodePoint(i < 0xd800 ? i : i + SURROGATES);

function fromChar(value: unknown): number {
  const cp = typeof value === 'string' ? value.codePointAt(0) : undefined;
  if (cp === undefined || String.fromCodePoint(cp) !== value || (cp >= 0xd800 && cp < 0xe000))
    throw new Error('not a single code point');
  return cp < 0xd800 ? cp : cp - SURROGATES;
}

export const binaryUnit: fc.Arbitrary<string> = fc.nat({ max: 0x10ffff - SURROGATES }).map(toChar, fromChar);
