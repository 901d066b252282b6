// What the harness knows of its target, without Playwright: where it is (LEDGER_BASE_URL, or the in-process
// sandbox the global setup started) and what its /v2/version says (its release and the limits tests need).
// fixtures/target.ts probes it once per worker; the global setup and the preflight read the same way.
import { compareReleases } from '../rules/versions';
import type { ControlRoute } from './control-route';
import type { Settings } from './settings';
import { RUN_CONTEXT, runContext } from './run-context';

/** Set by the global setup when it started the in-process sandbox (never set it yourself). */
export const RESOLVED_BASE_URL_ENV = RUN_CONTEXT.resolvedBaseUrl;

export interface Target {
  baseUrl: string;
  /** The harness started the sandbox itself (127.0.0.1, port 0). */
  inProcessSandbox: boolean;
  /** The version string the target reports, or undefined when the read failed. */
  version: string | undefined;
  /** The whole /v2/version body as received (unknown shape: VER-SHAPE judges it). */
  versionDocument: unknown;
  /** Why the version could not be read, for skip reasons. */
  probeProblem: string | undefined;
  limits: {
    maxVettedPackagesPageSize: number | undefined;
  };
  /** Whether it offers the sandbox's control route, to the harness's caller (core/control-route.ts). */
  controlRoute: ControlRoute;
  /** True when the reported release is ≥ `release` (a pre-release counts as its release: 3.4.12-SNAPSHOT ≥ 3.4.12). */
  atLeast(release: string): boolean;
}

export function resolveBaseUrl(s: Settings, env: Record<string, string | undefined> = process.env): string {
  const url = s.baseUrl ?? runContext(env).resolvedBaseUrl;
  if (url === undefined) {
    throw new Error(
      'No target: LEDGER_BASE_URL is unset and the in-process sandbox was not started. Run through ' +
        '`npm run conformance` or `npx playwright test` (playwright.config.ts starts it), or set LEDGER_BASE_URL.',
    );
  }
  return url;
}

export function versionAtLeast(version: string | undefined, release: string): boolean {
  return version !== undefined && compareReleases(version, release) >= 0;
}

function positiveInt(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isInteger(v) && v > 0 ? v : undefined;
}

/** What the harness needs from a version document, read defensively (the document may be broken). */
export function capabilitiesOf(doc: unknown): Pick<Target, 'version' | 'limits'> {
  const d = doc as {
    version?: unknown;
    features?: { packageFeature?: { maxVettedPackagesPageSize?: unknown } };
  };
  return {
    version: typeof d?.version === 'string' ? d.version : undefined,
    limits: {
      maxVettedPackagesPageSize: positiveInt(d?.features?.packageFeature?.maxVettedPackagesPageSize),
    },
  };
}
