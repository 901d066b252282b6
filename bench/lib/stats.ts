// Small statistics: the bench reports medians (robust on a noisy shared machine) and a spread.
export function quantile(values: readonly number[], q: number): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const pos = (s.length - 1) * q;
  const lo = Math.floor(pos);
  const hi = Math.ceil(pos);
  return (s[lo] ?? 0) + ((s[hi] ?? 0) - (s[lo] ?? 0)) * (pos - lo);
}

export const median = (values: readonly number[]): number => quantile(values, 0.5);

export const fmt = (n: number, digits = 0): string =>
  Number.isFinite(n)
    ? n.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits })
    : '—';

export const ms = (n: number, digits = 2): string => `${fmt(n, digits)} ms`;
export const s = (millis: number, digits = 2): string => `${fmt(millis / 1000, digits)} s`;
export const mib = (bytes: number, digits = 1): string => `${fmt(bytes / 2 ** 20, digits)} MiB`;

export const verdict = (met: boolean): string => (met ? '**met**' : '**NOT met**');
