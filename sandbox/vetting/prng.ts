// A small seeded generator (sfc32) so the same seed gives the same topology on every machine and run.
// Not for anything secret: it only has to be deterministic and fast (10⁵ ids well under a second).

export interface Prng {
  /** An unsigned 32-bit integer. */
  next(): number;
  /** An integer in [0, n). */
  below(n: number): number;
  /** 64 lowercase hex characters, the shape of a package id or a Canton fingerprint's hash part. */
  hex64(): string;
}

export function prng(seed: number): Prng {
  // Split the (up to 53-bit) seed in two 32-bit halves; the constants keep seed 0 from being degenerate.
  let a = seed >>> 0;
  let b = Math.floor(seed / 2 ** 32) >>> 0;
  let c = 0x9e3779b9;
  let d = 1;
  const next = (): number => {
    const t = (((a + b) | 0) + d) | 0;
    d = (d + 1) | 0;
    a = b ^ (b >>> 9);
    b = (c + (c << 3)) | 0;
    c = (c << 21) | (c >>> 11);
    c = (c + t) | 0;
    return t >>> 0;
  };
  for (let i = 0; i < 15; i++) next(); // warm up: early outputs still echo the seed
  return {
    next,
    below: (n) => next() % n,
    hex64: () => {
      let s = '';
      for (let i = 0; i < 8; i++) s += next().toString(16).padStart(8, '0');
      return s;
    },
  };
}
