import { statusDateFields } from '../../kyc/contract/applicants.ts';
import {
  type LiveEvent,
  WEBHOOK_EVENTS,
  type WebhookDelivery,
  webhookDeliverySchema,
  webhookPingSchema,
} from '../../kyc/contract/live-events.ts';
import { readTimestamp } from '../../kyc/contract/record-fields.ts';
import { isPlainObject } from '../../kyc/contract/value-kind.ts';
import { readStatus } from '../../kyc/contract/status.ts';
import type { WebhookAuditEntry } from '../audit/webhook-lines.ts';
import { type DeliveryHeaders, whyNotADelivery, withHeaderFields, withIdsAsText } from './delivery-fields.ts';

/**
 * What a signed body says: a test delivery (a ping, which names no candidate), a delivery of an event, or
 * neither, with why in words that name the field and never repeat what it held (delivery-fields.ts).
 */
export type ReadDelivery =
  | { kind: 'ping'; clientId: string; event: string }
  | { kind: 'delivery'; clientId: string; event: string; delivery: WebhookDelivery }
  | { kind: 'unreadable'; reason: string };

/**
 * A signed body read. A ping is read first: it needs no refId or recordId, and its `isPing` may come as
 * "true". A UTF-8 BOM before the JSON is passed over (the signature was checked over the bytes as sent),
 * an id sent as a whole number is read as its digits (withIdsAsText), and a `guid` or `event` the body
 * lacks is read from the service's headers that carry it (withHeaderFields).
 */
export function readDelivery(body: Buffer, headers: DeliveryHeaders = {}): ReadDelivery {
  let json: unknown;
  try {
    const text = body.toString('utf8');
    // The parser's own message is never repeated: it quotes the body.
    json = JSON.parse(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text);
  } catch {
    return { kind: 'unreadable', reason: 'it is not JSON' };
  }
  if (isPlainObject(json)) json = withHeaderFields(withIdsAsText(json), headers);
  const ping = webhookPingSchema.safeParse(json);
  if (ping.success) return { kind: 'ping', clientId: ping.data.clientId, event: ping.data.event };
  const parsed = webhookDeliverySchema.safeParse(json);
  if (!parsed.success) return { kind: 'unreadable', reason: whyNotADelivery(json) };
  return { kind: 'delivery', clientId: parsed.data.clientId, event: parsed.data.event, delivery: parsed.data };
}

/**
 * The status an event implies when the delivery gives none (upstream-api-facts.md: `waiting` is waiting
 * for an operator, which is what "ready to review" says). `user.created` and `user.deleted` imply none.
 */
const STATUS_OF_EVENT: Readonly<Record<string, string>> = {
  'review.approved': 'approved',
  'review.rejected': 'rejected',
  'user.blocked': 'blocked',
  'user.inReview': 'inreview',
  'user.readyToReview': 'waiting',
};

/**
 * What the browser's stream carries of an accepted delivery: ids, status, whether the data is gone, when
 * it arrived (`at`) and, when the delivery carries it, the status's own date (`approvedDate` for
 * `approved`): the page says when the candidate was approved, not when this server heard of it.
 */
export function liveEventOf(environment: string, delivery: WebhookDelivery, at: string): LiveEvent {
  // Read as a list's and a record's status are: a known one apart from case ("Approved") is that one.
  const said = delivery.status ? readStatus(delivery.status) : undefined;
  const status = said || (Object.hasOwn(STATUS_OF_EVENT, delivery.event) ? STATUS_OF_EVENT[delivery.event]! : null);
  const statusDate = status
    ? statusDateFields(status)
        .map((field) => dateOf(delivery[field]))
        .find(Boolean)
    : undefined;
  return {
    environment,
    event: delivery.event,
    refId: delivery.refId || null,
    recordId: delivery.recordId || null,
    status,
    isArchived: delivery.event === 'user.deleted' || delivery.isArchived === true,
    at,
    ...(statusDate ? { statusDate } : {}),
  };
}

/**
 * A delivery's date field as ISO 8601 UTC, or undefined when it is missing or not a timestamp (never
 * refused for it). Read as a record's dates are (readTimestamp): `+0000` or no seconds are read, a time
 * without a zone is not (it would be read in this server's zone).
 */
function dateOf(value: unknown): string | undefined {
  const timestamp = readTimestamp(value);
  return timestamp === undefined ? undefined : new Date(timestamp).toISOString();
}

/** The audit line of an accepted delivery: the event's fields, nothing else of the body (the status's date is not a change of state). */
export function webhookLine(event: LiveEvent, requestId: string): WebhookAuditEntry {
  const { environment, at, statusDate: _statusDate, ...said } = event;
  return { time: at, requestId, kind: 'webhook', env: environment, ...said };
}

/** The metrics' event label: a documented event by name, any other as `other` (labels stay few). */
export function eventLabel(event: string): string {
  return (WEBHOOK_EVENTS as readonly string[]).includes(event) ? event : 'other';
}
