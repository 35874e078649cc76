import type http from 'node:http';
import {
  WEBHOOK_DELIVERY_HEADER,
  WEBHOOK_EVENT_HEADER,
  WEBHOOK_MAX_BODY_BYTES,
  WEBHOOK_PATH,
  WEBHOOK_SIGNATURE_HEADER,
} from '../../kyc/contract/live-events.ts';
import type { ApiEnvironment } from '../lookup/served-environment.ts';
import type { AuditLog } from '../audit/audit.ts';
import { type RefusedWebhookAuditEntry, WEBHOOK_SENDER } from '../audit/webhook-lines.ts';
import type { RefusalLog } from '../audit/audit-refusals.ts';
import { countLine, writeLine } from '../audit/audit-trail.ts';
import { ApiFailure } from '../http/api-failure.ts';
import { clientOf } from '../http/client.ts';
import { addressKey, DEFAULT_BODY_TIMEOUT_MS } from '../http/connection-guard.ts';
import { bytesSent, methodNotAllowed, sendFailure, sendJson, sendThrown } from '../http/http-reply.ts';
import { BodyTimeoutError, BodyTooLargeError, readBodyBytes } from '../http/request-body.ts';
import { setSecurityHeaders } from '../http/security-headers.ts';
import { type Logger, requestIdOf, requestLog, setRoute, startRequestLog } from '../log/log.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { RateLimiter } from '../ops/rate-limit.ts';
import { type DeliveryIds, deliveryKeyOf, PENDING_CLAIM_MS } from './delivery-ids.ts';
import type { DeliveryIntake } from './delivery-intake.ts';
import { eventLabel, liveEventOf, readDelivery, webhookLine } from './webhook-delivery.ts';
import { signatureMatches } from '../http/webhook-signature.ts';

/**
 * The receiver of the KYC service's webhooks (issue 22): `POST /webhooks/kyc` for the default
 * environment, `/webhooks/kyc/<name>` for each. Outside `/api/`: the service calls it, not a signed-in
 * browser, so no session, no app header. Checked in order (size, signature, shape, client id), each
 * refusal with its own code and nothing of the body repeated; accepted, it is audited, queued (issue 32:
 * the 200 waits for the queue, which with Redis outlives this process), and only then answered; the
 * queue's consumer confirms it and passes it on to the open pages (delivery-processing.ts).
 */
export interface WebhookDeps {
  environments: readonly ApiEnvironment[];
  /** Where accepted deliveries wait to be confirmed and published (delivery-intake.ts). */
  intake: DeliveryIntake;
  deliveryIds: DeliveryIds;
  /** Deliveries per sending address (an IPv6 address counting as its /64), a limit of the receiver's own (never a user's). */
  rateLimiter: RateLimiter;
  audit: AuditLog;
  refusals: RefusalLog;
  metrics: Metrics;
  /** A line per delivery, where no app server writes them (the Vite plugin). */
  logger?: Logger;
  /** A delivery's body is read within this, else refused 408 and its connection closed (default 5 s). */
  bodyTimeoutMs?: number;
}

export function isWebhookPath(path: string): boolean {
  return path === WEBHOOK_PATH || path.startsWith(`${WEBHOOK_PATH}/`);
}

export function createWebhookReceiver(deps: WebhookDeps): (req: http.IncomingMessage, res: http.ServerResponse, path: string) => void {
  const hinted = new Set<string>();
  return (req, res, path) => {
    setSecurityHeaders(req, res);
    requestIdOf(res);
    setRoute(res, path === WEBHOOK_PATH ? WEBHOOK_PATH : `${WEBHOOK_PATH}/:env`);
    if (deps.logger) startRequestLog(req, res, deps.logger, () => bytesSent(res));
    receive(deps, hinted, req, res, path).catch((error: unknown) => sendThrown(res, error));
  };
}

type SignatureCause = 'unsigned' | 'mismatch';

/**
 * Why a signature was refused, in the answer and in the server's log. The secret is optional in the
 * service's console, and without one it sends no `X-Hub-Signature` at all: an operator who left it empty
 * would otherwise see nothing but 401s. Neither says anything of the secret or the body.
 */
const SIGNATURE_CAUSES: Record<SignatureCause, { answer: string; hint: string }> = {
  unsigned: {
    answer:
      "The delivery has no X-Hub-Signature header: set the same secret in the KYC service's console as this environment's webhook secret.",
    hint: "deliveries arrive unsigned: set the same secret in the service's console",
  },
  mismatch: {
    answer:
      'The X-Hub-Signature header does not match: it is not the HMAC-SHA256 of this body with the secret configured here (the secrets differ, or the body was changed on the way).',
    hint: "signature does not match: the secret in the service's console differs from this environment's webhook secret",
  },
};

/** The cause of a refused signature; an empty header is taken for none (a proxy or the console may send it so). */
function signatureCauseOf(header: string | string[] | undefined): SignatureCause {
  return header === undefined || (typeof header === 'string' && header.trim() === '') ? 'unsigned' : 'mismatch';
}

/**
 * Says the likely cause in the server's log, once per environment and cause while this process runs: a
 * misconfigured console sends every delivery so, and one line says it as well as thousands. The line
 * names the environment and the cause, never the secret, the header or the body.
 */
function hintSignature(hinted: Set<string>, res: http.ServerResponse, env: string, cause: SignatureCause): void {
  const key = JSON.stringify([env, cause]);
  if (hinted.has(key)) return;
  hinted.add(key);
  const message = `Webhook deliveries for environment "${env}" are refused (401): ${SIGNATURE_CAUSES[cause].hint}. Said once per environment and cause until the server restarts.`;
  requestLog(res).warn({ env, cause }, message);
}

/**
 * The environment a path names: the default one for `/webhooks/kyc`, else by its name; only one with a secret has
 * a receiver. Refused otherwise in words that say which it is: a name no environment has (a URL mistyped in the
 * service's console, told to set a secret before) is not an environment without a secret. The names configured
 * are not listed: anyone may post here.
 */
function receiverOf(environments: readonly ApiEnvironment[], path: string): ApiEnvironment & { webhookSecret: string } {
  const name = path === WEBHOOK_PATH ? undefined : path.slice(WEBHOOK_PATH.length + 1);
  const environment = name === undefined ? environments[0] : environments.find((e) => e.info.name === name);
  if (!environment) {
    const named = name !== undefined && /^[\w.-]{1,64}$/.test(name) ? ` named "${name}"` : ' of that name';
    throw new ApiFailure(
      'no_such_route',
      `No webhook receiver here: this server has no environment${named}. Check the webhook URL: its last part is an environment's name.`,
    );
  }
  if (!environment.webhookSecret) {
    throw new ApiFailure('no_such_route', 'No webhook receiver here: this environment has no webhook secret configured.');
  }
  return environment as ApiEnvironment & { webhookSecret: string };
}

async function receive(
  deps: WebhookDeps,
  hinted: Set<string>,
  req: http.IncomingMessage,
  res: http.ServerResponse,
  path: string,
): Promise<void> {
  const environment = receiverOf(deps.environments, path);
  if (req.method !== 'POST') throw methodNotAllowed('POST', 'Webhook deliveries are POSTed.');
  const env = environment.info.name;
  const refused = (failure: ApiFailure, event = 'unknown') => refuse(deps, res, env, failure, event);
  // One bucket for a whole IPv6 /64: one host holds all of it, and rotating through it must not make it many senders.
  const limit = await deps.rateLimiter.take(addressKey(clientOf(req).address));
  if (!limit.ok) {
    const message = 'Too many webhook deliveries from this address: try again later.';
    return refused(new ApiFailure('webhook_rate_limited', message, { retryAfterSeconds: limit.retryAfterSeconds }));
  }
  let body: Buffer;
  const deadlineMs = deps.bodyTimeoutMs ?? DEFAULT_BODY_TIMEOUT_MS;
  try {
    body = await readBodyBytes({ req, res }, WEBHOOK_MAX_BODY_BYTES, deadlineMs);
  } catch (error) {
    // Answered, then the connection closed (request-body.ts): the rest of the body is never read.
    if (error instanceof BodyTooLargeError) {
      return refused(new ApiFailure('body_too_large', `A webhook delivery is at most ${WEBHOOK_MAX_BODY_BYTES} bytes.`));
    }
    // A client that left is answered nothing (sendThrown).
    if (!(error instanceof BodyTimeoutError)) throw error;
    // A body trickled in must not hold its connection: answered, then closed (Node reads no further).
    res.setHeader('connection', 'close');
    return refused(new ApiFailure('request_timeout', `A webhook delivery's body must arrive within ${deadlineMs} ms.`));
  }
  const signature = req.headers[WEBHOOK_SIGNATURE_HEADER];
  if (!signatureMatches(body, signature, environment.webhookSecret)) {
    const cause = signatureCauseOf(signature);
    hintSignature(hinted, res, env, cause);
    return refused(new ApiFailure('webhook_signature_invalid', SIGNATURE_CAUSES[cause].answer));
  }
  const read = readDelivery(body, { delivery: req.headers[WEBHOOK_DELIVERY_HEADER], event: req.headers[WEBHOOK_EVENT_HEADER] });
  if (read.kind === 'unreadable') {
    // The answer is all the service's console shows of a refusal: it names the field, never its value.
    return refused(new ApiFailure('webhook_delivery_invalid', `The body is not a webhook delivery this server reads: ${read.reason}.`));
  }
  const event = eventLabel(read.event);
  /** A delivery taken (or known already, or a ping): counted, and 200 with what became of it. */
  const taken = (result: 'accepted' | 'duplicate' | 'ping') => {
    deps.metrics.webhookDeliveries.inc({ event, result });
    sendJson(res, 200, JSON.stringify({ status: 'success', result }));
  };
  if (read.clientId !== environment.target.clientId) {
    return refused(new ApiFailure('webhook_wrong_client', 'This delivery is for another client id than this environment’s.'), event);
  }
  // The console's test delivery: answered, nothing else (it names no candidate, and nothing happened).
  if (read.kind === 'ping') return taken('ping');
  const { delivery } = read;
  const key = deliveryKeyOf(delivery, req.headers[WEBHOOK_DELIVERY_HEADER]);
  // Claimed for a moment only, until the delivery is queued (delivery-ids.ts's PENDING_CLAIM_MS).
  if (!(await deps.deliveryIds.claim(env, key, PENDING_CLAIM_MS))) return taken('duplicate');
  const live = liveEventOf(env, delivery, new Date().toISOString());
  if (!(await writeLine(deps, res, 'webhook delivery', webhookLine(live, requestIdOf(res))))) {
    await deps.deliveryIds.release(env, key);
    return;
  }
  try {
    // The 200 waits for this: once queued, the delivery is processed (confirmed with the service, then
    // published), by this instance or, with Redis, by another if this one dies first.
    await deps.intake.add({ environment: env, delivery, live });
  } catch {
    // Not queued: nothing of it happens, and the claim goes, so that the service's retry is taken.
    await deps.deliveryIds.release(env, key).catch(() => undefined);
    const message =
      'The delivery could not be queued for processing (Redis is unreachable, or too many deliveries are waiting): nothing of it was kept; deliver it again later.';
    return refused(new ApiFailure('webhook_queue_unavailable', message), event);
  }
  // Kept 24 h from now; should Redis fail just now, the claim ends by itself (the delivery is queued all the same).
  await deps.deliveryIds
    .keep(env, key)
    .catch(() =>
      requestLog(res).warn(
        { env },
        'A queued webhook delivery could not be remembered for 24 h (Redis): a copy of it within a day would be taken again.',
      ),
    );
  taken('accepted');
}

/** A refused delivery: counted (audit-refusals.ts), never written one by one, then answered with its code. */
async function refuse(deps: WebhookDeps, res: http.ServerResponse, env: string, failure: ApiFailure, event: string): Promise<void> {
  deps.metrics.webhookDeliveries.inc({ event, result: failure.code });
  const entry: RefusedWebhookAuditEntry = {
    time: new Date().toISOString(),
    requestId: requestIdOf(res),
    user: WEBHOOK_SENDER,
    env,
    kind: 'webhook_refused',
    status: failure.status,
    code: failure.code,
  };
  if (await countLine(deps, res, 'webhook delivery', entry)) sendFailure(res, failure);
}
