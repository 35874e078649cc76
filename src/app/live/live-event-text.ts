import type { LiveEvent } from '../../kyc/contract/live-events.ts';
import type { LookupKind } from '../../kyc/contract/lookup.ts';
import { statusInfo } from '../../kyc/contract/status.ts';
import { candidateLink } from '../meta/candidate-link.ts';
import { ownEntry } from '../../kyc/contract/own-entry.ts';

const EVENT_LABELS: Record<string, string> = {
  'user.created': 'New candidate',
  'user.readyToReview': 'Ready to review',
  'user.inReview': 'In review',
  'review.approved': 'Approved',
  'review.rejected': 'Rejected',
  'user.blocked': 'Blocked',
  'user.deleted': 'Deleted',
};

/** What happened, in words: the event's own, else the status it brought, else the event's name. */
export function liveEventLabel(event: LiveEvent): string {
  return ownEntry(EVENT_LABELS, event.event) ?? (event.status ? statusInfo(event.status).label : event.event);
}

/** The data is gone on the service: the candidate was deleted or archived. */
export function liveEventRemovesData(event: LiveEvent): boolean {
  return event.event === 'user.deleted' || event.isArchived;
}

/** Which id the candidate is opened by: its recordId when the event has one. */
export function liveEventId(event: LiveEvent): { kind: LookupKind; id: string } | undefined {
  if (event.recordId) return { kind: 'recordId', id: event.recordId };
  if (event.refId) return { kind: 'refId', id: event.refId };
  return undefined;
}

/**
 * How the candidate is named to a person: its refId when the event has one (the id support agents and the
 * operator's own systems know), else its recordId. The page is still opened by liveEventId.
 */
export function liveEventName(event: LiveEvent): string | undefined {
  return event.refId || event.recordId || undefined;
}

/** The candidate's page; the default environment (`defaultName`) by the unprefixed address, as its links are. */
export function liveEventHref(event: LiveEvent, defaultName: string | undefined): string | undefined {
  const target = liveEventId(event);
  if (!target) return undefined;
  return candidateLink(target.kind, target.id, event.environment, defaultName);
}

/** Whether an event is about this candidate: same environment, and the same refId or recordId. */
export function liveEventMatches(
  event: LiveEvent,
  environment: string | undefined,
  candidate: { refId?: string | null; recordId?: string | null },
): boolean {
  if (environment === undefined || event.environment !== environment) return false;
  return Boolean((event.refId && event.refId === candidate.refId) || (event.recordId && event.recordId === candidate.recordId));
}
