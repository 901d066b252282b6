// The run-information block's `vetting` line: how large the vetting listing of the target is, so a
// reader knows what the vetting rules walked (thousands of entries on a large synchronizer). Read once, before
// any worker starts, with the largest page the target allows (the fewest requests a count can take).
import { PATHS } from '../../core/ledger-client';
import type { Settings } from '../../core/settings';
import { tokenProviderFor } from '../../core/token-providers';
import { Client, parse } from '../preflight/client';

/** A bound on the pages read: a listing that does not end is said so, not walked for ever. */
const MAX_PAGES = 1000;

export interface VettingSize {
  /** Entries listed, when the walk ended. */
  entries?: number;
  /** The line the run-information block shows. */
  line: string;
}

/** Counts the entries of the unfiltered listing; never throws (a count is information, not a check). */
export async function vettingSize(
  s: Settings,
  baseUrl: string,
  maxPageSize: number | undefined,
): Promise<VettingSize> {
  const client = new Client(baseUrl, s.timeoutScale);
  const provider = tokenProviderFor(s);
  const size = maxPageSize === undefined ? {} : { pageSize: maxPageSize };
  const how = maxPageSize === undefined ? "the server's page size" : `pages of ${maxPageSize}`;
  let entries = 0;
  let pageToken = '';
  const sent = new Set<string>();
  try {
    const token = await provider.token();
    for (let pages = 1; pages <= MAX_PAGES; pages++) {
      const res = await client.send('POST', PATHS.vettingList, token, { ...size, pageToken });
      if (res.status !== 200) return { line: `unknown (the listing answered ${res.status})` };
      const body = parse(res.text) as { vettedPackages?: unknown[]; nextPageToken?: string };
      entries += body.vettedPackages?.length ?? 0;
      sent.add(pageToken);
      pageToken = body.nextPageToken ?? '';
      if (pageToken === '') return { entries, line: `${entries} entries (read in ${pages} pages, ${how})` };
      if (sent.has(pageToken)) return { line: `unknown (a page token came back: the walk would loop)` };
    }
    return { line: `more than ${entries} entries (no end within ${MAX_PAGES} pages, ${how})` };
  } catch (e) {
    return { line: `unknown (${e instanceof Error ? e.message : String(e)})` };
  } finally {
    await client.close();
  }
}
