// The sandbox's one real package: the templates the submit route serves (sandbox/ledger/README.md). Its id is
// derived from name and version so it is stable across runs and machines, like a real package hash.
import { createHash } from 'node:crypto';

const packageName = 'conformance-sandbox';
const packageVersion = '1.0.0';

export const BUILTIN_PACKAGE = {
  packageId: createHash('sha256').update(`${packageName}-${packageVersion}`).digest('hex'),
  packageName,
  packageVersion,
} as const;
