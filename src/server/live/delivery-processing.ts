import type { ApiFailure } from '../http/api-failure.ts';
import type { Logger } from '../log/log.ts';
import { MAX_SERVICE_WAIT_SECONDS } from '../upstream/service-wait.ts';
import type { StatusChecked, StatusLookup } from '../lookup/queue-lookup.ts';
import type { Metrics } from '../ops/metrics.ts';
import type { QueueIndex } from '../state/queue-index.ts';
import { type Confirmation, confirmDelivery } from './delivery-confirm.ts';
import type { OnDropped, ProcessDelivery } from './delivery-intake.ts';
import type { LiveHub } from './live-hub.ts';
import { eventLabel } from './webhook-delivery.ts';

/**
 * A check that failed for a passing reason (the service slow, busy or away, this server's own slots or
 * audit log busy): worth asking again. Any other answer (not found, a key refused) would say the same.
 */
const PASSING: ReadonlySet<string> = new Set([
  'not_asked',
  'upstream_rate_limited',
  'upstream_error',
  'upstream_unreachable',
  'upstream_timeout',
  'server_busy',
  'audit_unavailable',
  'store_unavailable',
]);

/** The waits before each new try of a check that failed for a passing reason: three more tries, then the delivery is given up. */
export const CONFIRM_RETRY_DELAYS_MS: readonly number[] = [1000, 4000, 10_000];

/**
 * The service's 429 waits one delivery sits out before its tries count again: each is up to
 * MAX_SERVICE_WAIT_SECONDS (300 s), longer than the intake's tries last (about 200 s), and a check sent
 * during one would be refused and push it on. A wait renewed more often than this is the service still
 * limiting: the tries then count as any failure does.
 */
const SERVICE_WAITS_SAT_OUT = 3;
/** Past the wait's end, so that the check after it is not the one refused at its last millisecond. */
const AFTER_WAIT_MS = 250;

export interface ProcessingDeps {
  hub: LiveHub;
  queueIndex?: QueueIndex;
  /** The environment's status-level check of a delivery's candidate (delivery-check.ts); none: nothing is published. */
  checkStatus?: (environment: string) => StatusLookup | undefined;
  metrics: Metrics;
  logger: Logger;
  retryDelaysMs?: readonly number[];
  sleep?: (ms: number) => Promise<void>;
}

const realSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms).unref());

/**
 * What the intake's consumer does with each queued delivery (issue 32): confirm it with the service and
 * publish it (delivery-confirm.ts, which also teaches the queue index), then say it is done, so that the
 * intake acknowledges it. A check that failed for a passing reason is tried again after each of
 * `retryDelaysMs`, then the delivery is given up with a warning and the metric. A throw (the hub or the
 * index could not be written: Redis away) leaves the delivery queued, to be tried again later.
 */
export function deliveryProcessor(deps: ProcessingDeps): ProcessDelivery {
  const delays = deps.retryDelaysMs ?? CONFIRM_RETRY_DELAYS_MS;
  const sleep = deps.sleep ?? realSleep;
  const withheld = withheldWarnings(deps);
  return async ({ environment, delivery, live }) => {
    const check = deps.checkStatus?.(environment);
    // The check's last answer, to tell a passing failure from an answer that would say the same again.
    const seen: { last?: StatusChecked } = {};
    const noted: StatusLookup | undefined = check && (async (kind, id) => (seen.last = await check(kind, id)));
    const confirming = { hub: deps.hub, check: noted, ...(deps.queueIndex ? { queueIndex: deps.queueIndex } : {}) };
    let waitsSatOut = 0;
    for (let attempt = 0; ; attempt++) {
      seen.last = undefined;
      let result: Confirmation;
      try {
        result = await confirmDelivery(confirming, delivery, live);
      } catch (error) {
        deps.metrics.webhookIntakeRetries.inc({ reason: 'failed' });
        // The error's kind, never its message: a message may repeat what it was given.
        const detail = (error as { code?: unknown })?.code ?? (error instanceof Error ? error.name : 'unknown error');
        deps.logger.warn(
          { env: environment },
          `Webhook delivery not published yet (${String(detail)}): it stays queued and is tried again.`,
        );
        return 'retry';
      }
      // Set by the check while confirmDelivery ran (TypeScript cannot see it through the closure).
      const last = seen.last as StatusChecked | undefined;
      // Its check withheld (the full key not sent: crawler-full-key.ts): no try soon would change that.
      if (result === 'unconfirmed' && last !== undefined && !last.ok && last.withheld) {
        deps.metrics.webhookChecks.inc({ result });
        withheld(environment, last.withheld);
        return 'done';
      }
      const passing = result === 'unconfirmed' && last !== undefined && !last.ok && PASSING.has(last.code);
      // Not asked for the service's 429 wait: sat out whole, no try of the delivery's spent on it.
      const until = passing && last !== undefined && !last.ok ? last.until : undefined;
      if (until !== undefined && waitsSatOut < SERVICE_WAITS_SAT_OUT) {
        waitsSatOut += 1;
        deps.metrics.webhookIntakeRetries.inc({ reason: 'service_wait' });
        await sleep(Math.min(Math.max(0, until - Date.now()), MAX_SERVICE_WAIT_SECONDS * 1000) + AFTER_WAIT_MS);
        attempt -= 1;
        continue;
      }
      // Never asked (this server's own slots, audit log or archiving check busy): the service has not said
      // anything, so the delivery stays queued and is taken again later (the intake's tries), not dropped.
      // Under a burst, checks waiting for one of their four slots timed out so, and one in ten was lost.
      if (passing && attempt >= delays.length && last !== undefined && !last.ok && last.code === 'not_asked') {
        deps.metrics.webhookIntakeRetries.inc({ reason: 'not_asked' });
        return 'retry';
      }
      if (!passing || attempt >= delays.length) {
        deps.metrics.webhookChecks.inc({ result });
        if (passing) dropUnconfirmed(deps, environment, eventLabel(delivery.event), last, attempt + 1);
        return 'done';
      }
      deps.metrics.webhookIntakeRetries.inc({ reason: 'unconfirmed' });
      await sleep(delays[attempt]!);
    }
  };
}

/** How often the warning of checks withheld is repeated while they stay so, per environment and reason. */
const WITHHELD_WARNING_MS = 10 * 60_000;

/**
 * A delivery whose check was withheld is given up, counted (`withheld`), and said in a warning: once per
 * environment, again when the reason changes, and every WITHHELD_WARNING_MS while it lasts (not once per
 * delivery: a busy client's deliveries would fill the log).
 */
function withheldWarnings(deps: ProcessingDeps): (env: string, why: ApiFailure) => void {
  const warned = new Map<string, { code: string; at: number }>();
  return (env, why) => {
    deps.metrics.webhookIntakeDropped.inc({ reason: 'withheld' });
    const last = warned.get(env);
    if (last?.code === why.code && Date.now() - last.at < WITHHELD_WARNING_MS) return;
    warned.set(env, { code: why.code, at: Date.now() });
    deps.logger.warn(
      { env, code: why.code },
      `Webhook deliveries are not checked with the KYC service, so the pages are not told of them, for the reason the applicants list is not read: ${why.ownMessage}`,
    );
  };
}

function dropUnconfirmed(deps: ProcessingDeps, env: string, event: string, last: StatusChecked | undefined, tries: number): void {
  deps.metrics.webhookIntakeDropped.inc({ reason: 'unconfirmed' });
  const code = last && !last.ok ? last.code : 'unknown';
  deps.logger.warn(
    { env, event, code, tries },
    `Webhook delivery dropped: the service could not confirm it in ${tries} tries (last: ${code}). The pages were not told; their Refresh, or the next delivery, shows the truth.`,
  );
}

/** The intake's report of a delivery given up: counted, and one warning (never an id of the candidate). */
export function reportDropped(metrics: Metrics, logger: Logger): OnDropped {
  return (reason, detail) => {
    metrics.webhookIntakeDropped.inc({ reason });
    logger.warn({ reason }, `Webhook delivery dropped (${reason}: ${detail}): the pages were not told of it.`);
  };
}
