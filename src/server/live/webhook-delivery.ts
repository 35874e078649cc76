import { statusDateField } from '../../kyc/contract/applicants.ts';
import { type LiveEvent, WEBHOOK_EVENTS, type WebhookDelivery, webhookDeliverySchema } from '../../kyc/contract/live-events.ts';
import type { WebhookAuditEntry } from '../audit/webhook-lines.ts';
import type { QueueFacts } from '../state/queue-index-store.ts';
import { type QueueKey, queueKey } from '../state/queue-index.ts';

/** A signed body read as a delivery; undefined when it is not JSON of a delivery's shape (what it held is never repeated). */
export function readDelivery(body: Buffer): WebhookDelivery | undefined {
  let json: unknown;
  try {
    json = JSON.parse(body.toString('utf8'));
  } catch {
    return undefined;
  }
  const parsed = webhookDeliverySchema.safeParse(json);
  return parsed.success ? parsed.data : undefined;
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
  const status = delivery.status || (Object.hasOwn(STATUS_OF_EVENT, delivery.event) ? STATUS_OF_EVENT[delivery.event]! : null);
  const statusDate = status ? dateOf(delivery[statusDateField(status)]) : undefined;
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

/** A delivery's date field as ISO 8601, or undefined when it is missing or not a date (never refused for it). */
function dateOf(value: unknown): string | undefined {
  if (typeof value !== 'string') return undefined;
  const time = Date.parse(value);
  return Number.isFinite(time) ? new Date(time).toISOString() : undefined;
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

const DELIVERY_DATES = ['waitingDate', 'inreviewDate', 'approvedDate', 'rejectedDate', 'blockedDate'] as const;

/**
 * What a delivery tells the queue index: the candidate's status and the dates it carries (a date that is
 * not one is left out). Only by recordId, the list's key; nothing without a status.
 */
export function queueFactsOf(delivery: WebhookDelivery, status: string | null): Map<QueueKey, QueueFacts> | undefined {
  if (!delivery.recordId || !status || delivery.event === 'user.deleted') return undefined;
  const dates: Record<string, string> = {};
  for (const field of DELIVERY_DATES) {
    const value = dateOf(delivery[field]);
    if (value) dates[field] = value;
  }
  return new Map([[queueKey('recordId', delivery.recordId), { status, dates }]]);
}
