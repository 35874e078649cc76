import { randomUUID } from 'node:crypto';
import { WEBHOOK_DELIVERY_HEADER, WEBHOOK_EVENT_HEADER, WEBHOOK_SIGNATURE_HEADER } from '../../kyc/contract/live-events.ts';
import { type CandidateRecord, statusLevelOf } from '../../kyc/contract/schema.ts';
import { signatureOf } from '../http/webhook-signature.ts';
import { ownEntry } from '../../kyc/contract/own-entry.ts';

/**
 * The sandbox's webhooks (issue 22): in sandbox mode the app's own receiver is registered with the
 * sandbox, which then signs and sends a delivery for each change it makes (a simulated decision, a test
 * control, the archive-after-extract demonstration), as the service would, so the pages update live.
 */

export interface WebhookTarget {
  /** The app's receiver, e.g. `http://127.0.0.1:3000/webhooks/kyc`; a function when it is known only once the app listens (undefined until then: nothing is sent). */
  url: string | (() => string | undefined);
  /** The shared secret the receiver checks the signature with. */
  secret: string;
}

/** The service's event for a change to each status; a status it documents no event for gets `user.<status>`. */
const EVENT_OF_STATUS: Record<string, string> = {
  incomplete: 'user.created',
  waiting: 'user.readyToReview',
  inreview: 'user.inReview',
  review_requested: 'user.inReview',
  approved: 'review.approved',
  rejected: 'review.rejected',
  blocked: 'user.blocked',
};

export function webhookEventOf(status: string): string {
  return ownEntry(EVENT_OF_STATUS, status) ?? `user.${status}`;
}

/** `sha256=<hex>` of the body with the secret, as the service signs (the receiver also takes the bare hex). */
export function signWebhookBody(body: string, secret: string): string {
  return `sha256=${signatureOf(body, secret)}`;
}

/** A delivery as the service sends it: its body, and the delivery id and event that its headers repeat. */
export interface SandboxDelivery {
  body: string;
  /** `X-Blockpass-Delivery`, and the body's `guid` (documented as its copy). */
  id: string;
  /** `X-Blockpass-Event`, and the body's `event`. */
  event: string;
  /** Sent without `X-Hub-Signature`, as the service does when no secret is set in its console. */
  unsigned?: true;
}

/**
 * The other forms the service's deliveries take (upstream-api-facts.md), which the test controls make
 * the sandbox send (`POST /_test/webhook`): `ping`, the console's test delivery (`isPing: true`);
 * `unsigned`, as sent when no secret is set (no `X-Hub-Signature`); `no-record-id`, the documented form
 * without `recordId`; `guid-reused`, two events of one candidate under one `guid` (and one delivery id),
 * as the documentation's own samples reuse one.
 */
export const DELIVERY_FORMS = ['ping', 'unsigned', 'no-record-id', 'guid-reused'] as const;
export type DeliveryForm = (typeof DELIVERY_FORMS)[number];

/**
 * The deliveries of a change to a record as it now is, in `form` (the usual one: one delivery, signed, with its
 * recordId): its status level (ids, status, dates), never identity data.
 */
export function deliveriesOf(record: CandidateRecord, clientId: string, event: string, form?: DeliveryForm): SandboxDelivery[] {
  const id = randomUUID();
  const level = statusLevelOf(record);
  const { recordId: _recordId, ...withoutRecordId } = level;
  const fields = form === 'no-record-id' ? withoutRecordId : level;
  const of = (named: string) => JSON.stringify({ ...fields, guid: id, event: named, clientId, isPing: form === 'ping', env: 'sandbox' });
  if (form === 'guid-reused') {
    const other = event === 'user.created' ? 'user.readyToReview' : 'user.created';
    return [event, other].map((named) => ({ body: of(named), id, event: named }));
  }
  return [{ body: of(event), id, event, ...(form === 'unsigned' ? { unsigned: true as const } : {}) }];
}

/** The headers the service sends with a delivery: its event, its id, and the signature of the body (none for an unsigned one). */
export function webhookHeadersOf(delivery: SandboxDelivery, secret: string): Record<string, string> {
  return {
    'content-type': 'application/json',
    [WEBHOOK_EVENT_HEADER]: delivery.event,
    [WEBHOOK_DELIVERY_HEADER]: delivery.id,
    ...(delivery.unsigned ? {} : { [WEBHOOK_SIGNATURE_HEADER]: signWebhookBody(delivery.body, secret) }),
  };
}

/**
 * Sends each change to the target, one at a time and in order (as the service's deliveries of one
 * candidate come), each signed and with the service's `X-Blockpass-Event` and `X-Blockpass-Delivery`. A delivery that fails is not retried: the sandbox is a demonstration, and
 * the page's Refresh still tells the truth. `onProblem` hears of it without any of the body.
 */
export function createWebhookSender(target: WebhookTarget, clientId: string, onProblem: (problem: string) => void = () => {}) {
  let queue = Promise.resolve();
  const deliver = async (delivery: SandboxDelivery) => {
    const url = typeof target.url === 'function' ? target.url() : target.url;
    if (url === undefined) return;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: webhookHeadersOf(delivery, target.secret),
        body: delivery.body,
        signal: AbortSignal.timeout(5000),
      });
      await response.body?.cancel();
      if (!response.ok) onProblem(`the receiver answered HTTP ${response.status}`);
    } catch (error) {
      onProblem(error instanceof Error ? error.name : 'the receiver could not be reached');
    }
  };
  return {
    /** Queues the delivery (in `form`, its deliveries) for the record as it now is; resolves once they were sent (or failed). */
    send(record: CandidateRecord, event = webhookEventOf(record.status), form?: DeliveryForm): Promise<void> {
      for (const delivery of deliveriesOf(record, clientId, event, form)) queue = queue.then(() => deliver(delivery));
      return queue;
    },
  };
}
