// LEDGER_SYNCHRONIZER_ID checked against what the participant says it is connected to, before anything is asked
// on that synchronizer: an id the participant does not know is the setting's fault whatever its listings say.
import type { Fetcher } from '../../core/discovery';
import { PATHS } from '../../core/api-paths';
import type { Settings } from '../../core/settings';
import { EXIT } from '../../core/exit-codes';
import { PreflightError } from './client';

/**
 * The synchronizer ids GET /v2/state/connected-synchronizers names (for `party`, or every one the participant is
 * connected to), or undefined without an answer.
 */
export async function connectedSynchronizers(
  fetcher: Fetcher,
  party?: string,
): Promise<string[] | undefined> {
  const res = await fetcher({ method: 'GET', path: PATHS.connectedSynchronizers(party) });
  if (res.status !== 200) return undefined;
  const listed = (res.body as { connectedSynchronizers?: { synchronizerId?: unknown }[] } | null)
    ?.connectedSynchronizers;
  if (!Array.isArray(listed)) return undefined;
  return listed.map((c) => c?.synchronizerId).filter((id): id is string => typeof id === 'string');
}

/** Stops with the line naming LEDGER_SYNCHRONIZER_ID when the submitter's participant is not connected to it. */
export async function checkSynchronizerKnown(fetcher: Fetcher, s: Settings): Promise<void> {
  const party = s.actAs[0];
  if (s.synchronizerId === undefined || party === undefined) return;
  const connected = await connectedSynchronizers(fetcher, party);
  if (connected === undefined || connected.includes(s.synchronizerId)) return;
  const listed = connected.length === 0 ? 'none' : connected.join(', ');
  throw new PreflightError(
    `LEDGER_SYNCHRONIZER_ID=${s.synchronizerId} is not a synchronizer ${party} is connected to on this participant (GET ${PATHS.connectedSynchronizers(party).split('?')[0]} lists: ${listed}): set it to one of them, or leave it unset`,
    EXIT.badSetting,
  );
}
