import { API_PREFIX } from './api-paths.ts';
import { z } from './zod.ts';

/**
 * Live updates (issue 22): what the KYC service's webhooks say, and what the server passes on to the
 * browser's event stream. The service signs each delivery with HMAC-SHA256 of the raw body when a secret
 * is set in its console (it is optional there; this server takes only signed ones); only `guid`,
 * `event`, `clientId` and one of `recordId`/`refId` can be relied on, so every other field is optional and
 * unknown fields and events are kept out of what is passed on, never refused.
 */

/** The events the service documents; others may appear and are accepted as they are. */
export const WEBHOOK_EVENTS = [
  'user.created',
  'user.readyToReview',
  'user.inReview',
  'review.approved',
  'review.rejected',
  'user.blocked',
  'user.deleted',
] as const;

/** The header holding the signature: the bare hex digest, or `sha256=<hex>`; sent only when a secret is set in the service's console. */
export const WEBHOOK_SIGNATURE_HEADER = 'x-hub-signature';
/** The service's id of a delivery, the same on each of its retries (the body's `guid` is documented as a copy, but its samples reuse one guid for two events). */
export const WEBHOOK_DELIVERY_HEADER = 'x-blockpass-delivery';
/** The delivery's event, as the body's `event` says it. */
export const WEBHOOK_EVENT_HEADER = 'x-blockpass-event';
/** The largest delivery body accepted (413 beyond it). */
export const WEBHOOK_MAX_BODY_BYTES = 64 * 1024;
/** The receiver's path: `/webhooks/kyc` for the quick start's `default`, `/webhooks/kyc/<name>` for each environment. */
export const WEBHOOK_PATH = '/webhooks/kyc';

const id = z.string().check(z.minLength(1), z.maxLength(256));
/**
 * A field the delivery may leave out: read when it holds what the service documents, and read as missing
 * when it holds anything else (a count sent as `"2"`, a date as a number, a status too long to be one),
 * never the reason a delivery is refused: the receiver asks the service for the record anyway.
 */
const optional = <T extends z.core.SomeType>(schema: T) => z.catch(z.optional(z.nullable(schema)), undefined);
const text = (max: number) => z.string().check(z.maxLength(max));
/** recordId or refId: either may be missing, null or empty (a candidate without a refId); the refinement below wants one of them. */
const optionalId = optional(text(256));
const date = optional(text(64));

/** A delivery's body: the fields that can be relied on, and the optional ones that are read if present. */
export const webhookDeliverySchema = z
  .looseObject({
    guid: id,
    event: z.string().check(z.minLength(1), z.maxLength(64)),
    clientId: id,
    recordId: optionalId,
    refId: optionalId,
    status: optional(text(64)),
    isArchived: optional(z.boolean()),
    isPing: optional(z.boolean()),
    submitCount: optional(z.number()),
    waitingDate: date,
    inreviewDate: date,
    approvedDate: date,
    rejectedDate: date,
    blockedDate: date,
  })
  .check(z.refine((delivery) => Boolean(delivery.recordId || delivery.refId), 'recordId or refId is required'));
export type WebhookDelivery = z.infer<typeof webhookDeliverySchema>;

/**
 * A test delivery, as the service's console sends it: `isPing` true (or the string "true"), and no
 * candidate named (no refId, no recordId). It is answered and nothing else; it must not be refused, or
 * the console reports the webhook broken.
 */
export const webhookPingSchema = z.looseObject({
  clientId: id,
  isPing: z.union([z.literal(true), z.literal('true')]),
  event: z.catch(z.string(), ''),
});

/**
 * One event on `GET /api/events` (Server-Sent Events, `event: kyc`, `id:` the event's sequence number for
 * `Last-Event-ID`): which candidate changed, in which environment, to what, and where the queue had it
 * before. No personal data: ids, statuses and dates only, as the audit line has them.
 */
export const liveEventSchema = z.object({
  environment: z.string(),
  event: z.string(),
  refId: z.nullable(z.string()),
  recordId: z.nullable(z.string()),
  status: z.nullable(z.string()),
  isArchived: z.boolean(),
  /** When the server accepted the delivery (ISO 8601). */
  at: z.string(),
  /** When the service says the status was reached: the delivery's own date of it (`approvedDate` for `approved`, ISO 8601), when it carries one. */
  statusDate: z.optional(z.string()),
  /**
   * What the queue index held of the candidate just before this change (issue 32: the queue page moves
   * the row without asking for its view again): its status, or null when the index did not know the
   * candidate; absent when the server did not say (no index, or an event that is not a status's).
   */
  previousStatus: z.optional(z.nullable(z.string())),
  /** The date the index had for that previous status (ISO 8601), when it had one: its over-SLA count drops with it. */
  previousSince: z.optional(z.string()),
  /** The date the index holds now for `status` (ISO 8601): where the row goes in its new tab; absent, not dated yet. */
  since: z.optional(z.string()),
  /** No `since`, and none to come: the index read the candidate's record and it holds no date of `status` (its row says so). */
  dateless: z.optional(z.literal(true)),
});
export type LiveEvent = z.infer<typeof liveEventSchema>;

/**
 * The stream's event name for a candidate's change, and the path of the stream: here rather than in
 * api-paths.ts, as the tab opens the stream once this file has loaded (the first load carries neither).
 */
export const LIVE_EVENT_NAME = 'kyc';
export const LIVE_EVENTS_PATH = `${API_PREFIX}/events`;
