// The skips that depend on the participant's topology, forecast as the run will make them: the first pages of
// the listing a VET- rule reads (pages of the largest size), widened as the rule widens them
// (core/vetting-variety.ts), and the same words. Bounded whatever the listing's size.
import { PATHS } from '../../core/api-paths';
import type { VettedPackages } from '../../core/api-types';
import type { Fetcher } from '../../core/discovery';
import type { Skip } from '../../core/rule-needs';
import type { Rule } from '../../rules/catalogue';
import {
  LISTING_PAGES,
  listingVariety,
  VARIETY_RULES,
  varietyReason,
  type VarietySource,
} from '../../core/vetting-variety';
import { connectedSynchronizers } from './synchronizer';
import { Client, PreflightError } from './client';
import { TransportFailure } from '../../core/http';
import type { Settings } from '../../core/settings';
import { selectedRules } from '../../core/selection';

type Page = { entries: VettedPackages[]; next: string } | undefined;

function sourceOf(fetcher: Fetcher): VarietySource {
  const page = async (body: Record<string, unknown>): Promise<Page> => {
    const res = await fetcher({ method: 'POST', path: PATHS.vettingList, body });
    const answer = res.body as { vettedPackages?: VettedPackages[]; nextPageToken?: string } | null;
    if (res.status !== 200) return undefined;
    return { entries: answer?.vettedPackages ?? [], next: answer?.nextPageToken ?? '' };
  };
  return { page, connected: () => connectedSynchronizers(fetcher) };
}

/** The selected rules needing variety the listing lacks, each with the reason its test will give. */
export async function topologySkips(
  fetcher: Fetcher,
  maxPageSize: number | undefined,
  rules: readonly Rule[],
): Promise<Skip[]> {
  const needing = rules.filter((r) => r.id in VARIETY_RULES);
  if (needing.length === 0) return [];
  const source = sourceOf(fetcher);
  const first: VettedPackages[] = [];
  let pageToken = '';
  let complete = false;
  for (let n = 0; n < LISTING_PAGES && !complete; n++) {
    const page = await source.page({
      ...(maxPageSize === undefined ? {} : { pageSize: maxPageSize }),
      pageToken,
    });
    if (page === undefined) return []; // the walk rules judge an answer that is not 200
    first.push(...page.entries);
    complete = page.next === '';
    pageToken = page.next;
  }
  const variety = await listingVariety(source, first, complete);
  return needing.flatMap((r) => {
    const key = VARIETY_RULES[r.id as keyof typeof VARIETY_RULES];
    return variety.values[key].length < 2 ? [{ rules: r.id, reason: varietyReason(key, variety) }] : [];
  });
}

/**
 * topologySkips over a client of its own, for the preflight and the run-information block: a failure to read is
 * no forecast (the rules judge the answers), never a stop.
 */
export async function forecastTopology(
  s: Settings,
  baseUrl: string,
  maxPageSize: number | undefined,
  rules: readonly Rule[] = selectedRules(),
): Promise<Skip[]> {
  const client = new Client(baseUrl, s.timeoutScale);
  try {
    return await topologySkips(client.fetcher(s, false), maxPageSize, rules);
  } catch (e) {
    if (e instanceof PreflightError || e instanceof TransportFailure) return [];
    throw e;
  } finally {
    await client.close();
  }
}
