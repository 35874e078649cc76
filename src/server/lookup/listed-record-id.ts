import type http from 'node:http';
import { LISTED_RECORD_ID_HEADER, listedRecordIdValue } from '../../kyc/contract/listed-record-id.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import type { Level, LookupDeps } from './lookup-steps.ts';

/**
 * The recordId the queue index holds for the refId a full lookup asked (contract/listed-record-id.ts:
 * why a header). Read from the index while the service is asked, so that it costs the answer nothing in
 * the usual case; a store that has not answered by the time the answer is ready, or that fails, costs
 * only the header: the answer never waits longer than LISTED_WAIT_MS for it, and never fails for it.
 */

/** At most this long, from the start of the lookup, is the index waited for (in memory it answers at once, Redis in a round trip). */
export const LISTED_WAIT_MS = 250;

/** Only a compliance user's lookup by refId asks (the status level carries its recordId); never rejects. */
export function listedRecordIdFor(
  deps: Pick<LookupDeps, 'listedRecordId'>,
  asked: { kind: LookupKind; id: string; level: Level },
): Promise<string | undefined> | undefined {
  if (!deps.listedRecordId || asked.kind !== 'refId' || asked.level !== 'full') return undefined;
  const read = deps.listedRecordId(asked.id).catch(() => undefined);
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<undefined>((resolve) => {
    timer = setTimeout(() => resolve(undefined), LISTED_WAIT_MS).unref();
  });
  return Promise.race([read, late]).finally(() => clearTimeout(timer));
}

/** Sets the header on an answer about to start, when the index named a recordId a lookup could take. */
export function noteListedRecordId(res: http.ServerResponse, recordId: string | undefined): void {
  const value = recordId === undefined ? undefined : listedRecordIdValue(recordId);
  if (value !== undefined && !res.headersSent) res.setHeader(LISTED_RECORD_ID_HEADER, value);
}
