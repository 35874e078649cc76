import type { LiveEvent } from '../../src/kyc/contract/live-events.ts';
import { APP_REQUEST_HEADER } from '../../src/kyc/contract/api.ts';
import type { LiveHub } from '../../src/server/live/live-hub.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import type { ApiEnvironment } from '../../src/server/lookup/served-environment.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { type RawResponse, rawRequest, startTestApp, testEnvironment } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';

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
    mark: () => undefined,
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
  current?.agree(body);
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

/** The status each documented event means, when a delivery names none (as the receiver reads it). */
const STATUS_OF_EVENT: Record<string, string> = {
  'review.approved': 'approved',
  'review.rejected': 'rejected',
  'user.blocked': 'blocked',
  'user.inReview': 'inreview',
  'user.readyToReview': 'waiting',
};

export type AgreeingService = Awaited<ReturnType<typeof agreeingService>>;
let current: AgreeingService | undefined;

/**
 * A KYC service whose records agree with what `deliver` sends (each delivery, as it goes out, becomes
 * its candidate's record): a real service's records say what its deliveries said, and the receiver asks
 * before it tells anyone (issue 31). `hold()` stops the agreeing, to play a replay of an old delivery;
 * `set` gives a record outright. Unknown candidates are 404 as the service answers them.
 */
export async function agreeingService(options: { delayMs?: number } = {}) {
  const upstream = await startFakeUpstream();
  const records = new Map<string, Record<string, unknown>>();
  let holding = false;
  /** While set, every lookup is answered 429 with this wait (seconds), as the service's own limit. */
  let limitedFor: number | undefined;
  let gate: Promise<void> | undefined;
  let open = () => {};
  const keys = (record: Record<string, unknown>) =>
    ['recordId', 'refId'].flatMap((kind) => (typeof record[kind] === 'string' && record[kind] ? [`${kind}:${record[kind]}`] : []));
  const set = (record: Record<string, unknown>) => {
    for (const key of keys(record)) records.set(key, record);
  };
  upstream.behave = (req, res) => {
    const match = /\/(refId|recordId)\/([^/?]+)$/.exec(req.url ?? '');
    const record = match ? records.get(`${match[1]}:${decodeURIComponent(match[2]!)}`) : undefined;
    const body = record
      ? JSON.stringify({ status: 'success', data: record })
      : '{"status":"error","message":"Resource not Found","code":404}';
    const answer = () => {
      if (limitedFor !== undefined) {
        const limited = JSON.stringify({ status: 'error', message: 'Too many requests', extra: { retryAfter: limitedFor } });
        res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(limited) });
        return void res.end(limited);
      }
      res.writeHead(record ? 200 : 404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    void (gate ?? Promise.resolve()).then(() => setTimeout(answer, options.delayMs ?? 0));
  };
  const service = {
    url: upstream.url,
    seen: upstream.seen,
    /** The lookups the receiver's checks made. */
    lookups: () => upstream.seen.filter((request) => /\/(refId|recordId)\//.test(request.path)),
    // With a status-level key, as docs/deploying.md advises beside webhooks: without one, a check waits until a lookup has shown the full key safe.
    target: (clientId: string, statusApiKey: string | null = 'status-key') => ({
      baseUrl: upstream.url,
      clientId,
      apiKey: 'full-key',
      ...(statusApiKey ? { statusApiKey } : {}),
    }),
    set,
    /** The service has the candidate no more: its lookups are 404. */
    forget(record: Record<string, unknown>) {
      for (const key of keys(record)) records.delete(key);
    },
    hold() {
      holding = true;
    },
    /** Answers every lookup 429, asking to wait `seconds` (its body's extra.retryAfter), until `limit(undefined)`. */
    limit(seconds: number | undefined) {
      limitedFor = seconds;
    },
    /** Holds every answer (what it says is read when asked) until `release()`. */
    pause() {
      gate = new Promise((resolve) => {
        open = resolve;
      });
    },
    release() {
      gate = undefined;
      open();
    },
    agree(body: string) {
      if (holding) return;
      let delivery: Record<string, unknown>;
      try {
        // A BOM before the JSON is read as the receiver reads it (webhook-delivery.ts).
        delivery = JSON.parse(body.replace(/^\uFEFF/, ''));
      } catch {
        return;
      }
      if (typeof delivery !== 'object' || delivery === null || delivery.isPing === true) return;
      const known = keys(delivery)
        .map((key) => records.get(key))
        .find(Boolean);
      const status = (typeof delivery.status === 'string' && delivery.status) || STATUS_OF_EVENT[String(delivery.event)] || known?.status;
      if (typeof status !== 'string') return;
      const record: Record<string, unknown> = {
        ...known,
        status,
        isArchived: delivery.event === 'user.deleted' || delivery.isArchived === true,
      };
      for (const field of ['refId', 'recordId', 'blockPassID'])
        if (typeof delivery[field] === 'string' && delivery[field]) record[field] = delivery[field];
      for (const [field, value] of Object.entries(delivery)) if (field.endsWith('Date') && typeof value === 'string') record[field] = value;
      set(record);
    },
    close: async () => {
      if (current === service) current = undefined;
      await upstream.close();
    },
  };
  current = service;
  return service;
}

/** An environment of the agreeing service with a webhook secret (none: no receiver). */
export function webhookEnvironment(service: AgreeingService, clientId: string, secret?: string, name?: string): ApiEnvironment {
  const environment = testEnvironment(service.target(clientId), name ? { name } : {});
  return secret ? { ...environment, webhookSecret: secret } : environment;
}

/**
 * The app as the webhook tests start it: its environments (made of the agreeing service, which the
 * receiver checks each delivery with), a recording hub and an audit log in memory; `close` ends both.
 */
export async function startWebhookApp(
  environments: (service: AgreeingService) => ApiEnvironment[],
  options: Omit<Parameters<typeof startTestApp>[0], 'environments' | 'hub' | 'audit'> & { audit?: ReturnType<typeof memoryAuditLog> } = {},
) {
  const service = await agreeingService();
  const hub = recordingHub();
  const audit = options.audit ?? memoryAuditLog();
  const app = await startTestApp({ ...options, environments: environments(service), hub, audit });
  const close = async () => {
    await app.close();
    await service.close();
  };
  return { app, hub, audit, service, close };
}
