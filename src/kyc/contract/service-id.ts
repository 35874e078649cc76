import type { CandidateRecord, UnreadField } from './record-reading.ts';

/**
 * The candidate's id in the service's identity network, under the name it came with. Real answers call
 * it `blockPassID`; the spec the project was started from calls it `serviceID` (upstream-api.seed.md,
 * upstream-api-facts.md), and a service answering by the spec sends that. Either is read: `serviceID` where
 * `blockPassID` is absent, and both, each named as sent, when both come and differ (which one is right is
 * not the page's to say). One equal to the other is said once, as `blockPassID`.
 */
export type ServiceIdField = 'blockPassID' | 'serviceID';

export interface ServiceId {
  field: ServiceIdField;
  /** Undefined: the answer has no readable id under this name (the page says why: absent, or unreadable). */
  value?: string;
}

/**
 * The service ids to show, in order: each present one, or, with neither, the one name to say is missing:
 * `serviceID` when the answer held one that could not be read and no unreadable `blockPassID`, else `blockPassID`.
 */
export function serviceIdsOf(record: ServiceIdsSent, unread: readonly UnreadField[] = []): ServiceId[] {
  const blockPassID = nonEmpty(record.blockPassID);
  const serviceID = nonEmpty(record.serviceID);
  if (blockPassID !== undefined) {
    const ids: ServiceId[] = [{ field: 'blockPassID', value: blockPassID }];
    if (serviceID !== undefined && serviceID !== blockPassID) ids.push({ field: 'serviceID', value: serviceID });
    return ids;
  }
  if (serviceID !== undefined) return [{ field: 'serviceID', value: serviceID }];
  const unreadName = (field: string) => unread.some((entry) => entry.field === field);
  return [{ field: unreadName('serviceID') && !unreadName('blockPassID') ? 'serviceID' : 'blockPassID' }];
}

/** The two names a record may send its service id under. */
type ServiceIdsSent = Pick<CandidateRecord, 'blockPassID' | 'serviceID'>;

/**
 * The service ids a record carries, each under the name it came with, by the page's rule (serviceIdsOf):
 * for a queue row, read from the service's list or a lookup, kept in the index and answered as such.
 */
export function serviceIdFields(record: ServiceIdsSent): ServiceIdsSent {
  return Object.fromEntries(serviceIdsOf(record).flatMap((id) => (id.value === undefined ? [] : [[id.field, id.value]])));
}

/** The service id's values of the record, as sent (for the ids a reply may name, the queue's row). */
export function serviceIdValues(record: CandidateRecord): string[] {
  return serviceIdsOf(record).flatMap((id) => (id.value === undefined ? [] : [id.value]));
}

const nonEmpty = (value: unknown): string | undefined => (typeof value === 'string' && value !== '' ? value : undefined);
