// The capability fingerprint of a target: its version and every feature limit, flattened to dotted paths,
// so a participant upgraded or reconfigured between nightly runs shows as a list of changed lines.

export type Fingerprint = Record<string, string | number | boolean | null>;

export function flatten(value: unknown, prefix = '', out: Fingerprint = {}): Fingerprint {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>))
      flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (prefix) {
    out[prefix] =
      value === null || typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean'
        ? value
        : JSON.stringify(value);
  }
  return out;
}

export function fingerprintOf(versionDocument: unknown): Fingerprint {
  return flatten(versionDocument);
}

export interface FingerprintChange {
  path: string;
  before: Fingerprint[string] | undefined;
  after: Fingerprint[string] | undefined;
}

export function diffFingerprints(before: Fingerprint | undefined, after: Fingerprint): FingerprintChange[] {
  if (!before) return [];
  const paths = [...new Set([...Object.keys(before), ...Object.keys(after)])].sort();
  return paths
    .filter((p) => before[p] !== after[p])
    .map((path) => ({ path, before: before[path], after: after[path] }));
}
