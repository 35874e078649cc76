import type { LiveEvent, WebhookDelivery } from '../../kyc/contract/live-events.ts';

/**
 * Accepted webhook deliveries between the receiver's 200 and the pages (issue 32): the receiver answers
 * only once a delivery is queued here, and the queue's consumer confirms and publishes it from there
 * (delivery-processing.ts). With REDIS_URL a Redis Stream that every instance consumes, so a crash or a
 * restart loses nothing (delivery-intake-redis.ts); without it this process's queue below, which a crash
 * of the one instance loses.
 */
export interface QueuedDelivery {
  environment: string;
  /** The delivery as read and checked (webhook-delivery.ts), and its event as the receiver made it. */
  delivery: WebhookDelivery;
  live: LiveEvent;
}

/** What became of a delivery's processing: done (published, stale or given up), or to try again later. */
export type Processed = 'done' | 'retry';

export type ProcessDelivery = (queued: QueuedDelivery) => Promise<Processed>;

/** Told when a delivery is given up without reaching the pages (the metric and the log line). */
export type OnDropped = (reason: 'failed' | 'unreadable' | 'trimmed', detail: string) => void;

export interface DeliveryIntake {
  /** Queues a delivery; once it resolves, the delivery will be processed. Rejects when it cannot be queued (Redis away, the queue full). */
  add(queued: QueuedDelivery): Promise<void>;
  /** Starts passing the queued deliveries to `process`, each once it is done (or retried later when it says so). */
  start(process: ProcessDelivery, onDropped: OnDropped): void;
  /** Stops taking deliveries; with Redis, those not processed yet stay queued for the other instances or the next start. */
  close(): Promise<void>;
}

/** Deliveries waiting at once before the queue refuses more (503): with Redis, the stream's MAXLEN. */
export const INTAKE_MAX_ENTRIES = 100_000;
/** A delivery whose processing failed this many times (Redis, the hub) is given up. */
export const INTAKE_MAX_TRIES = 10;
/**
 * Deliveries processed at once by one instance, taken in the order queued: as soon as one is done the
 * next is taken, so a slow check holds up no other. Several deliveries of one candidate then share their
 * checks with the service (delivery-check.ts coalesces them: the later ones wait for one check sent after
 * the earlier one's, so none is told an answer older than its change).
 */
export const INTAKE_IN_FLIGHT = 64;

interface Waiting {
  queued: QueuedDelivery;
  tries: number;
}

/**
 * The queue of one instance without Redis, in this process: taken in order, as the Redis one is. A
 * delivery whose processing failed waits `retryAfterMs` and goes again, at most INTAKE_MAX_TRIES times.
 * A crash or a restart loses what it holds (docs/deploying.md): set REDIS_URL to keep it.
 */
export function createMemoryIntake(options: { retryAfterMs?: number; maxEntries?: number } = {}): DeliveryIntake {
  const retryAfterMs = options.retryAfterMs ?? 5000;
  const maxEntries = options.maxEntries ?? INTAKE_MAX_ENTRIES;
  const waiting: Waiting[] = [];
  const timers = new Set<NodeJS.Timeout>();
  let started: { process: ProcessDelivery; onDropped: OnDropped } | undefined;
  let inFlight = 0;
  let closed = false;
  const handle = async (item: Waiting) => {
    const outcome = await started!.process(item.queued).catch((): Processed => 'retry');
    if (outcome === 'done') return;
    item.tries += 1;
    if (item.tries >= INTAKE_MAX_TRIES) return started!.onDropped('failed', `${item.tries} tries failed`);
    const timer = setTimeout(() => {
      timers.delete(timer);
      waiting.push(item);
      pump();
    }, retryAfterMs);
    timer.unref();
    timers.add(timer);
  };
  const pump = () => {
    while (started && !closed && inFlight < INTAKE_IN_FLIGHT && waiting.length > 0) {
      inFlight += 1;
      void handle(waiting.shift()!).finally(() => {
        inFlight -= 1;
        pump();
      });
    }
  };
  return {
    async add(queued) {
      if (closed) throw new Error('The server is stopping: the delivery was not queued.');
      if (waiting.length >= maxEntries) throw new Error(`${maxEntries} deliveries are waiting to be processed: the queue is full.`);
      waiting.push({ queued, tries: 0 });
      pump();
    },
    start(process, onDropped) {
      started = { process, onDropped };
      pump();
    },
    async close() {
      closed = true;
      for (const timer of timers) clearTimeout(timer);
      timers.clear();
    },
  };
}

/** `handler` whose close also stops the webhook queue's consumer. */
export function closingIntake<H extends { close(): Promise<void> }>(handler: H, intake: DeliveryIntake): H {
  const closeFirst = handler.close;
  return Object.assign(handler, { close: async () => void (await Promise.all([closeFirst(), intake.close()])) });
}
