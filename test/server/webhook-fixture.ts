import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';
import { APP_REQUEST_HEADER } from '../../src/kyc/contract/api.ts';
import type { LiveHub } from '../../src/server/live/live-hub.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import { type RawResponse, rawRequest } from './http.ts';

export const WEBHOOK_SECRET = 'whsec-test-0123456789';
export const CLIENT_ID = 'acme_kyc';

/** A hub that records what the receiver publishes, and lets a test wait for the next one. */
export function recordingHub(): LiveHub & { events: LiveEvent[]; next(): Promise<LiveEvent> } {
  const events: LiveEvent[] = [];
  let waiting: Array<(event: LiveEvent) => void> = [];
  return {
    events,
    async publish(event) {
      events.push(event);
      for (const resolve of waiting) resolve(event);
      waiting = [];
    },
    next: () => new Promise((resolve) => waiting.push(resolve)),
    subscribe: () => () => {},
    revoke: async () => {},
    onRevocation: () => () => {},
    close: async () => {},
  };
}

/** A delivery's body, as the service sends it (fields given override the defaults). */
export function deliveryBody(fields: Record<string, unknown> = {}): string {
  return JSON.stringify({
    guid: `guid-${Math.random().toString(36).slice(2)}`,
    status: 'approved',
    clientId: CLIENT_ID,
    event: 'review.approved',
    recordId: 'rec-0001',
    refId: 'ref-0001',
    submitCount: 2,
    blockPassID: 'bp-123',
    isArchived: false,
    isPing: false,
    env: 'prod',
    ...fields,
  });
}

/**
 * A POST as the service sends it: no app header, no cookie. `signature` is the header's value (default:
 * the body's bare hex digest with WEBHOOK_SECRET); null sends none. `headers` adds others (the service's
 * `X-Blockpass-Event` and `X-Blockpass-Delivery`).
 */
export function deliver(
  port: number,
  body: string,
  options: { signature?: string | null; path?: string; method?: string; headers?: Record<string, string> } = {},
): Promise<RawResponse> {
  const signature = options.signature === undefined ? signatureOf(body, WEBHOOK_SECRET) : options.signature;
  return rawRequest(port, options.path ?? '/webhooks/kyc', {
    method: options.method ?? 'POST',
    headers: {
      [APP_REQUEST_HEADER.name]: undefined,
      'content-type': 'application/json',
      ...(signature === null ? {} : { 'x-hub-signature': signature }),
      ...options.headers,
    },
    body,
  });
}

export function codeOf(res: RawResponse): string | undefined {
  return (JSON.parse(res.body) as { error?: { code: string } }).error?.code;
}
