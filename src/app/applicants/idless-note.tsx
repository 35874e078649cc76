import type { Idless } from '../../kyc/contract/idless.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { formatDateTime, formatDuration } from '../../kyc/view/time.ts';
import { useNow } from '../ui/use-now.ts';
import { useZoneMode } from '../ui/zone-mode.ts';

/**
 * The tab's candidates the service listed with a status but no id, or only ids no lookup takes
 * (idless.ts): counted in the tab and its over-SLA figure, but no row, as nothing can open them here.
 * Said where the list is, with how long the oldest has waited, so that an empty table is never read as an
 * empty queue. No personal data: the server kept none of them but their status, the range of their dates
 * and how many carry a blockPassID or refused ids (never the ids, which may be hostile).
 */
export function IdlessNote({ idless }: { idless: readonly Idless[] | undefined }) {
  const now = useNow().getTime();
  const zone = useZoneMode();
  if (!idless?.length) return null;
  return (
    <div role="note" className="space-y-1 text-sm text-amber-900" data-testid="idless-records">
      {idless.map((tally) => (
        <p key={tally.status}>{idlessSentence(tally, now, zone)}</p>
      ))}
    </div>
  );
}

function idlessSentence(tally: Idless, now: number, zone: ReturnType<typeof useZoneMode>): string {
  const one = tally.count === 1;
  const status = tally.status === 'other' ? 'of another status' : statusInfo(tally.status).label.toLowerCase();
  const who = tally.status === 'other' ? `${one ? 'candidate' : 'candidates'} ${status}` : `${status} ${one ? 'candidate' : 'candidates'}`;
  const oldest = tally.oldest === undefined ? undefined : new Date(tally.oldest);
  const since = oldest ? `since ${formatDateTime(oldest, { zone })} (${formatDuration(Math.max(0, now - oldest.getTime()))})` : '';
  const dated = oldest === undefined ? '' : one ? ` ${since}` : `, the oldest ${since},`;
  const blockPass = tally.blockPassIDs
    ? ` ${one ? 'It carries' : `${tally.blockPassIDs.toLocaleString()} of them carry`} a blockPassID, which the dashboard can search by.`
    : '';
  const look = `look for ${one ? 'it' : 'them'} in the KYC service's dashboard.`;
  const count = `${tally.count.toLocaleString()} ${who}${dated}`;
  if (!tally.badIds) return `${count} ${one ? 'has' : 'have'} no id and cannot be opened here: ${look}${blockPass}`;
  return `${count} cannot be opened here: ${whyNot(tally)}. ${look.charAt(0).toUpperCase()}${look.slice(1)}${blockPass}`;
}

/** Why a tally holding records with refused ids cannot be opened: said in words, never with the ids (they may be hostile). */
function whyNot(tally: Idless): string {
  const bad = tally.badIds ?? 0;
  const none = tally.count - bad;
  if (none === 0) return tally.count === 1 ? 'its id is not one this tool can open' : 'their ids are not ones this tool can open';
  const noId = `${none.toLocaleString()} ${none === 1 ? 'has' : 'have'} no id`;
  return `${noId}, and ${bad.toLocaleString()} ${bad === 1 ? 'carries an id' : 'carry ids'} this tool cannot open`;
}
