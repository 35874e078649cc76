import { Redis } from 'ioredis';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import type { AuditLine } from '../../src/server/audit/audit.ts';
import { createLiveHub } from '../../src/server/live/create-live-hub.ts';
import { deliveryIdsIn } from '../../src/server/live/delivery-ids.ts';
import { createRedisIntake } from '../../src/server/live/delivery-intake-redis.ts';
import type { LiveHub, SequencedEvent } from '../../src/server/live/live-hub.ts';
import { createMetrics } from '../../src/server/ops/metrics.ts';
import { createRedisStore } from '../../src/server/state/redis-store.ts';
import { liveEvent, openStream, type TestStream } from './event-source.ts';
import { startTestApp, type TestApp } from './http.ts';
import { type Instance, startInstance } from './instance.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, type RunningRedis, startRedis } from './redis-fixture.ts';
import {
  type AgreeingService,
  agreeingService,
  CLIENT_ID,
  codeOf,
  deliver,
  deliveryBody,
  WEBHOOK_SECRET,
  webhookEnvironment,
} from './webhook-fixture.ts';

/**
 * Issue 32: no delivery lost between the service and the pages. The receiver answers 200 only once a
 * delivery is queued (a Redis Stream with REDIS_URL), any instance processes it from there, and the
 * replay for reconnecting pages is kept by time, in Redis, for every instance.
 */

let redis: RunningRedis;
let service: AgreeingService;
const closing: Array<() => Promise<unknown>> = [];

beforeAll(async () => {
  if (hasRedisServer) redis = await startRedis();
});
afterAll(() => redis?.stop());
afterEach(async () => {
  for (const close of closing.splice(0).reverse()) await close();
});

async function startService(): Promise<AgreeingService> {
  service = await agreeingService();
  closing.push(() => service.close());
  return service;
}

/** The production server on the agreeing service and the test's Redis; a dead instance's deliveries are taken after 300 ms. */
async function instance(options: Parameters<typeof startInstance>[1] = {}): Promise<Instance> {
  const env = {
    KYC_BASE_URL: service.url,
    KYC_CLIENT_ID: CLIENT_ID,
    KYC_API_KEY: 'full-key',
    // As docs/deploying.md advises beside webhooks: without it, no delivery is checked before a lookup showed the full key safe.
    KYC_API_KEY_STATUS: 'status-key',
    KYC_WEBHOOK_SECRET: WEBHOOK_SECRET,
    REDIS_URL: redis.url,
  };
  const started = await startInstance(env, { webhookIntake: { claimIdleMs: 300 }, ...options });
  const close = started.close;
  let open = true;
  const once = async () => {
    if (!open) return;
    open = false;
    await close();
  };
  closing.push(once);
  return Object.assign(started, { close: once });
}

/** Every event `hub` hears from now on. */
async function heardOn(hub: LiveHub): Promise<SequencedEvent[]> {
  const heard: SequencedEvent[] = [];
  closing.push(async () => stop());
  const stop = hub.subscribe((event) => heard.push(event));
  await hub.ready?.();
  return heard;
}

/** An audit log whose webhook lines wait, while held, until released: the moment between the claim and the queue. */
function heldAudit() {
  const log = memoryAuditLog();
  let release = () => {};
  let reached = () => {};
  let held: Promise<void> | undefined;
  const reachedNow = new Promise<void>((resolve) => (reached = resolve));
  return {
    ...log,
    reached: reachedNow,
    hold() {
      held = new Promise((resolve) => (release = resolve));
    },
    release: () => release(),
    async record(entry: AuditLine) {
      if (held && (entry as { kind?: string }).kind === 'webhook') {
        reached();
        await held;
      }
      await log.record(entry);
    },
  };
}

describe.skipIf(!hasRedisServer)(`durable webhook intake on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('a crash between the 200 and the publish loses no delivery: the restarted instance publishes it', async () => {
    await startService();
    const one = await instance();
    // The service's check of the delivery is held: instance one has answered 200 and not published yet.
    service.pause();
    const res = await deliver(one.port, deliveryBody({ guid: 'g-crash', refId: 'ref-crash', recordId: 'rec-crash' }));
    expect(JSON.parse(res.body)).toEqual({ status: 'success', result: 'accepted' });
    await expect.poll(() => service.lookups().length).toBe(1);
    // The instance dies there (its check never comes back to it), and another one starts.
    await one.close();
    service.release();
    const two = await instance();
    const heard = await heardOn(two.hub);
    await expect.poll(() => heard.map((e) => e.event.refId), { timeout: 15_000 }).toContain('ref-crash');
    expect(heard.filter((e) => e.event.refId === 'ref-crash')[0]!.event).toMatchObject({ status: 'approved', recordId: 'rec-crash' });
  });

  it('instances that start and stop leave no consumer behind in the group; one that stops holding a delivery stays until it is taken', async () => {
    const prefix = `consumers-${Date.now()}:`;
    const stream = `${prefix}webhook-intake`;
    const ask = new Redis(redis.url);
    closing.push(async () => ask.disconnect());
    const consumers = async () => ((await ask.xinfo('CONSUMERS', stream, 'processors').catch(() => [])) as unknown[]).length;
    const queued = (n: number) => ({
      environment: 'default',
      delivery: { guid: `g-${n}`, event: 'review.approved', clientId: CLIENT_ID, refId: `ref-${n}` },
      live: {
        environment: 'default',
        event: 'review.approved',
        refId: `ref-${n}`,
        recordId: null,
        status: 'approved',
        isArchived: false,
        at: new Date().toISOString(),
      },
    });
    // Each instance becomes a consumer of the group by processing a delivery, then stops.
    for (let i = 0; i < 3; i++) {
      const intake = createRedisIntake(redis.url, { keyPrefix: prefix, blockMs: 50 });
      let processed = 0;
      intake.start(
        async () => {
          processed++;
          return 'done';
        },
        () => {},
      );
      // Queued once the intake's connection is up (before, it refuses at once, as the receiver's 503 says).
      await expect
        .poll(() =>
          intake.add(queued(i)).then(
            () => true,
            () => false,
          ),
        )
        .toBe(true);
      await expect.poll(() => processed).toBe(1);
      expect(await consumers()).toBe(1);
      await intake.close();
      expect(await consumers()).toBe(0);
    }
    // One that dies with a delivery under way keeps it pending, for another instance to claim.
    const held = createRedisIntake(redis.url, { keyPrefix: prefix, blockMs: 50 });
    let taken = 0;
    held.start(
      () => {
        taken++;
        return new Promise(() => {});
      },
      () => {},
    );
    await expect
      .poll(() =>
        held.add(queued(9)).then(
          () => true,
          () => false,
        ),
      )
      .toBe(true);
    await expect.poll(() => taken).toBe(1);
    await held.close();
    expect(await consumers()).toBe(1);
    expect(((await ask.xpending(stream, 'processors')) as unknown[])[0]).toBe(1);
  });

  it("Redis down at delivery: 503, and the service's retry is taken, not called a duplicate", async () => {
    await startService();
    const audit = heldAudit();
    const store = createRedisStore(redis.url);
    const hub = createLiveHub({ redisUrl: redis.url });
    const app: TestApp = await startTestApp({
      environments: [webhookEnvironment(service, CLIENT_ID, WEBHOOK_SECRET)],
      audit,
      hub,
      deliveryIds: deliveryIdsIn(store),
      webhookIntake: createRedisIntake(redis.url, { claimIdleMs: 300 }),
    });
    closing.push(async () => {
      await app.close();
      await Promise.all([store.close(), hub.close()]);
    });
    const heard = await heardOn(hub);
    const body = deliveryBody({ guid: 'g-outage', refId: 'ref-outage', recordId: 'rec-outage' });
    // The delivery is claimed and its audit line on the way when Redis stops answering.
    audit.hold();
    const first = deliver(app.port, body);
    await audit.reached;
    redis.pause();
    audit.release();
    const refused = await first;
    redis.resume();
    expect(refused.status).toBe(503);
    expect(codeOf(refused)).toBe('webhook_queue_unavailable');
    // The service delivers it again later: taken, and it reaches the pages.
    const again = await deliver(app.port, body);
    expect(JSON.parse(again.body)).toEqual({ status: 'success', result: 'accepted' });
    await expect.poll(() => heard.some((e) => e.event.refId === 'ref-outage'), { timeout: 15_000 }).toBe(true);
    expect(JSON.parse((await deliver(app.port, body)).body).result).toBe('duplicate');
  });

  it('a page reconnecting to another instance after 5 minutes gets every event it missed', async () => {
    await startService();
    let clock = Date.now();
    const one = await instance({ liveNow: () => clock });
    await one.hub.ready?.();
    const page = await openStream(one.port);
    closing.push(async () => page.close());
    expect(page.status).toBe(200);
    await one.hub.publish(liveEvent('default', 'seen'));
    await page.until(() => page.events().length === 1);
    const lastSeen = page.events()[0]!.id;
    page.close();
    // Five minutes of a busy day while the page is away: 20 deliveries a second, 6000 events.
    const missed = Array.from({ length: 6000 }, (_, i) => `missed-${i}`);
    for (const ref of missed) {
      clock += 50;
      await one.hub.publish(liveEvent('default', ref));
    }
    // The page comes back through the load balancer to an instance started meanwhile.
    const two = await instance({ liveNow: () => clock });
    const back: TestStream = await openStream(two.port, { 'last-event-id': lastSeen });
    closing.push(async () => back.close());
    expect(back.status).toBe(200);
    await expect.poll(() => back.events().length, { timeout: 30_000 }).toBeGreaterThanOrEqual(missed.length);
    expect(back.events().map((e) => e.event.refId)).toEqual(missed);

    // By time: a page away for more than 10 minutes gets none of them, only what comes next.
    const later = createLiveHub({ redisUrl: redis.url, now: () => clock + 11 * 60_000 });
    closing.push(() => later.close());
    await later.ready?.();
    const replayed: SequencedEvent[] = [];
    const stop = later.subscribe((event) => replayed.push(event), lastSeen);
    closing.push(async () => stop());
    await one.hub.publish(liveEvent('default', 'next'));
    await expect.poll(() => replayed.length, { timeout: 15_000 }).toBeGreaterThan(0);
    expect(replayed.map((e) => e.event.refId)).toEqual(['next']);
  }, 60_000);

  it('a flood of deliveries keeps the replay within its cap: the newest events, within its count and bytes', async () => {
    await startService();
    const prefix = 'flood:';
    const bounds = { maxAgeMs: 10 * 60_000, maxEvents: 40, maxBytes: 6000 };
    const hub = createLiveHub({ redisUrl: redis.url, keyPrefix: prefix, replay: bounds });
    const metrics = createMetrics();
    const app = await startTestApp({ environments: [webhookEnvironment(service, CLIENT_ID, WEBHOOK_SECRET)], hub, metrics });
    closing.push(async () => {
      await app.close();
      await hub.close();
    });
    await hub.ready?.();
    const refs = Array.from({ length: 150 }, (_, i) => `ref-flood-${i}`);
    for (const ref of refs) {
      const res = await deliver(app.port, deliveryBody({ guid: `g-${ref}`, refId: ref, recordId: `rec-${ref}` }));
      expect(res.status).toBe(200);
    }
    const published = async () => (await metrics.webhookChecks.get()).values.find((v) => v.labels.result === 'published')?.value ?? 0;
    await expect.poll(published, { timeout: 15_000 }).toBe(refs.length);

    // A page that saw nothing of the flood gets what is kept: the newest, within both caps.
    const replayed: SequencedEvent[] = [];
    const stop = hub.subscribe((event) => replayed.push(event), '0');
    closing.push(async () => stop());
    await hub.publish(liveEvent('default', 'after-the-flood'));
    await expect.poll(() => replayed.at(-1)?.event.refId, { timeout: 15_000 }).toBe('after-the-flood');
    const kept = replayed.slice(0, -1);
    expect(kept.length).toBeGreaterThan(0);
    expect(kept.length).toBeLessThanOrEqual(bounds.maxEvents);
    expect(kept.reduce((sum, e) => sum + Buffer.byteLength(JSON.stringify(e.event)), 0)).toBeLessThanOrEqual(bounds.maxBytes);
    expect(kept.map((e) => e.event.refId)).toEqual(refs.slice(refs.length - kept.length));
    // And in Redis itself, where every instance reads it.
    const direct = new Redis(redis.url);
    closing.push(async () => direct.disconnect());
    expect(await direct.xlen(`${prefix}live-events:replay`)).toBeLessThanOrEqual(bounds.maxEvents);
    expect(Number(await direct.get(`${prefix}live-events:replay-bytes`))).toBeLessThanOrEqual(bounds.maxBytes);
  });
});

describe('the intake without Redis', () => {
  it('a check that keeps failing for a passing reason is tried again a bounded number of times, then dropped with a line and a metric', async () => {
    await startService();
    const metrics = createMetrics();
    const app = await startTestApp({ environments: [webhookEnvironment(service, CLIENT_ID, WEBHOOK_SECRET)], metrics });
    closing.push(() => app.close());
    // The service answers nothing any more: every check fails as unreachable.
    await service.close();
    expect(JSON.parse((await deliver(app.port, deliveryBody({ guid: 'g-away' }))).body).result).toBe('accepted');
    const value = async (metric: 'webhookIntakeDropped' | 'webhookIntakeRetries') =>
      (await metrics[metric].get()).values.find((v) => v.labels.reason === 'unconfirmed')?.value ?? 0;
    await expect.poll(() => value('webhookIntakeDropped')).toBe(1);
    expect(await value('webhookIntakeRetries')).toBe(3);
    expect(app.logs.some((line) => line.includes('Webhook delivery dropped: the service could not confirm it in 4 tries'))).toBe(true);
    expect(app.logs.join('\n')).not.toContain('ref-0001');
  });
});

describe('a burst of deliveries whose checks wait for this server’s own slots', () => {
  it('keeps each delivery queued until its check could be sent, rather than dropping it as unconfirmed (one in ten was lost)', async () => {
    // A service that takes 600 ms a check, one check at a time, and 1 s to wait for the slot: most of the burst's checks are not sent at first.
    service = await agreeingService({ delayMs: 600 });
    closing.push(() => service.close());
    const metrics = createMetrics();
    const app = await startTestApp({
      environments: [webhookEnvironment(service, CLIENT_ID, WEBHOOK_SECRET)],
      metrics,
      settings: { limits: { upstreamInFlightPerUser: 1, upstreamTimeoutMs: 1000 } },
    });
    closing.push(() => app.close());
    const refs = Array.from({ length: 8 }, (_, i) => `ref-burst-${i}`);
    for (const ref of refs) {
      const res = await deliver(app.port, deliveryBody({ guid: `g-${ref}`, refId: ref, recordId: `rec-${ref}` }));
      expect(JSON.parse(res.body).result).toBe('accepted');
    }
    const published = async () => (await metrics.webhookChecks.get()).values.find((v) => v.labels.result === 'published')?.value ?? 0;
    // Every one reaches the pages in the end; before, those whose checks waited too long were dropped.
    await expect.poll(published, { timeout: 60_000 }).toBe(refs.length);
    expect(app.logs.join('\n')).not.toContain('Webhook delivery dropped');
  }, 90_000);
});
