import { SERVER_USERS } from '../../kyc/contract/audit-search.ts';

/** The audit log's lines about the KYC service's webhooks (issue 22): the service, not a user, sent them. */

/**
 * A webhook delivery accepted (issue 22): what the KYC service said changed, ids and status only. The
 * service, not a user, sent it; its body's other fields are never written.
 */
export interface WebhookAuditEntry {
  time: string;
  /** The delivery's request id, also in its log line and its X-Request-Id header. */
  requestId?: string;
  kind: 'webhook';
  env: string;
  event: string;
  refId: string | null;
  recordId: string | null;
  /** The status the delivery gives, or the one its event implies; null when neither says. */
  status: string | null;
  isArchived: boolean;
}

/** Who refused webhook deliveries are counted under (audit-refusals.ts): the service, in a form no username takes. */
export const WEBHOOK_SENDER = SERVER_USERS.webhook;

/** A webhook delivery refused: the first of its interval written, the rest counted (audit-refusals.ts). Nothing of its body. */
export interface RefusedWebhookAuditEntry {
  time: string;
  requestId?: string;
  user: typeof WEBHOOK_SENDER;
  env: string;
  kind: 'webhook_refused';
  status: number;
  code: string | null;
}
