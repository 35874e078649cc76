import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import { createLiveHub } from '../../src/server/live/create-live-hub.ts';
import type { LiveHub, SequencedEvent } from '../../src/server/live/live-hub.ts';
import { liveEvent } from './event-source.ts';
import { testPasswordHash } from './passwords.ts';
import { hasRedisServer, NO_REDIS_MESSAGE } from './redis-fixture.ts';
import { announce, PASSWORDS, sandboxAndRedis, sessionOf } from './redis-instances-fixture.ts';

/**
 * Live updates over several instances on one real redis-server: an event published on one instance
 * (as its webhook receiver would) reaches the streams served by the other, once each, and the ids
 * increase across instances.
 */
const { dir, instance, streamOn, redis } = sandboxAndRedis();

/** The next event `hub` hears. */
function nextEvent(hub: LiveHub): Promise<SequencedEvent> {
  return new Promise((resolve) => {
    const stop = hub.subscribe((event) => {
      stop();
      resolve(event);
    });
  });
}

/** Resolves when `hub` hears an event of `refId` (events of others before it are passed over). */
function eventOn(hub: LiveHub, refId: string): Promise<SequencedEvent> {
  return new Promise((resolve) => {
    const stop = hub.subscribe((event) => {
      if (event.event.refId !== refId) return;
      stop();
      resolve(event);
    });
  });
}

describe.skipIf(!hasRedisServer)(`live updates on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('passes an event published on one instance to a stream on the other, once, and to its own', async () => {
    const [one, two] = [await instance(), await instance()];
    const cookie = await sessionOf(one, 'ana');
    const [onTwo, onOne] = [await streamOn(two, cookie), await streamOn(one, cookie)];
    await Promise.all([one.hub.ready?.(), two.hub.ready?.()]);
    await one.hub.publish(liveEvent('default', 'from-one'));
    await two.hub.publish(liveEvent('default', 'from-two'));
    // A last event after both: once it is here, a copy of the first two would have been too.
    await one.hub.publish(liveEvent('default', 'last'));
    for (const stream of [onTwo, onOne]) {
      await stream.until(() => stream.events().some((e) => e.event.refId === 'last'));
      expect(stream.events().map((e) => e.event.refId)).toEqual(['from-one', 'from-two', 'last']);
      const ids = stream.events().map((e) => BigInt(e.id));
      expect(ids[0]! < ids[1]! && ids[1]! < ids[2]!).toBe(true);
    }
  });

  it("shows a candidate opened through one instance to a user whose stream is on the other, until the page's stream ends", async () => {
    const [one, two] = [await instance(), await instance()];
    const [ana, sam] = [await sessionOf(one, 'ana'), await sessionOf(two, 'sam')];
    const [anaStream, samStream] = [await streamOn(one, ana), await streamOn(two, sam)];
    await Promise.all([one.hub.ready?.(), two.hub.ready?.()]);
    await anaStream.until(() => anaStream.streamId() !== undefined);
    // Ana's stream is on instance one; her page's announcement reaches instance two (a load balancer's choice).
    const rooms = await announce(two, ana, anaStream, { refId: 'ref-1', recordId: null });
    await samStream.until(() => samStream.viewers()?.length === 1);
    // Both instances make the same room with the environment's key: Sam's page, given it by his own instance, matches it.
    expect(samStream.viewers()).toEqual([{ user: 'ana', environment: 'default', rooms }]);
    // The tab closes: instance one says so, and instance two's stream loses her.
    anaStream.close();
    await samStream.until(() => samStream.viewers()?.length === 0);
  });

  it('ignores, and reports, a message on the presence channel that is not one', async () => {
    const problems: string[] = [];
    const hub = createLiveHub({ redisUrl: redis().url, onBadMessage: (detail) => problems.push(detail) });
    const other = new Redis(redis().url);
    try {
      await hub.ready?.();
      const heard = new Promise((resolve) => {
        const stop = hub.presence!.subscribe((message) => {
          stop();
          resolve(message);
        });
      });
      for (const junk of ['not json', '{"type":"here"}', '{"type":"gone","user":1,"stream":"s"}']) {
        await other.publish('candidate-lookup:presence', junk);
      }
      await hub.presence!.publish({ type: 'gone', user: 'ana', stream: 'abc' });
      expect(await heard).toEqual({ type: 'gone', user: 'ana', stream: 'abc' });
      expect(problems).toHaveLength(3);
    } finally {
      other.disconnect();
      await hub.close();
    }
  });

  it('attack: a removed user’s open live stream is closed within a second, on the other instance too', async () => {
    // Each instance its own copy of the users file, and a heartbeat of a minute: only a revocation
    // through Redis can end, within the test, the stream the other instance serves.
    const [fileOne, fileTwo] = [path.join(dir, 'users-one.json'), path.join(dir, 'users-two.json')];
    const ana = { username: 'ana', passwordHash: await testPasswordHash(PASSWORDS.ana), role: 'compliance' };
    for (const file of [fileOne, fileTwo]) writeFileSync(file, JSON.stringify({ users: [ana] }));
    const [one, two] = [
      await instance({ file: { signIn: { mode: 'users', usersFile: fileOne } }, eventStreams: { heartbeatMs: 60_000 } }),
      await instance({ file: { signIn: { mode: 'users', usersFile: fileTwo } }, eventStreams: { heartbeatMs: 60_000 } }),
    ];
    const cookie = await sessionOf(one, 'ana');
    const onTwo = await streamOn(two, cookie);
    await Promise.all([one.hub.ready?.(), two.hub.ready?.()]);
    await one.hub.publish(liveEvent('default', 'before'));
    await onTwo.until(() => onTwo.events().some((e) => e.event.refId === 'before'));

    // Removed on the first instance: ana asks there until refused, and from then on nothing reaches her stream.
    writeFileSync(fileOne, JSON.stringify({ users: [] }));
    await expect
      .poll(async () => (await one.request('/api/meta', { headers: { cookie } })).status, { timeout: 15_000, interval: 20 })
      .toBe(401);
    await one.hub.publish(liveEvent('default', 'after-refusal'));
    await onTwo.ended;
    expect(onTwo.events().map((e) => e.event.refId)).toEqual(['before']);
  });

  it('replays on one instance what was published on the other, after Last-Event-ID', async () => {
    const hubs = [createLiveHub({ redisUrl: redis().url }), createLiveHub({ redisUrl: redis().url })];
    try {
      await Promise.all(hubs.map((hub) => hub.ready?.()));
      const heard: SequencedEvent[] = [];
      const heardAll = new Promise<void>((resolve) => {
        const stop = hubs[1]!.subscribe((event) => {
          heard.push(event);
          if (heard.length < 3) return;
          stop();
          resolve();
        });
      });
      for (const ref of ['r1', 'r2', 'r3']) await hubs[0]!.publish(liveEvent('default', ref));
      await heardAll;
      // Read from Redis after subscribe returns (replay-redis.ts); then one more event, heard once, after them.
      const replayed: SequencedEvent[] = [];
      const stop = hubs[1]!.subscribe((event) => replayed.push(event), heard[0]!.id);
      await expect.poll(() => replayed.length).toBe(2);
      await hubs[0]!.publish(liveEvent('default', 'r4'));
      await expect.poll(() => replayed.map((e) => e.event.refId)).toEqual(['r2', 'r3', 'r4']);
      stop();
    } finally {
      await Promise.all(hubs.map((hub) => hub.close()));
    }
  });

  it('marks where a new subscriber starts: the events after the mark are replayed, none before it, whichever instance published them', async () => {
    const hubs = [createLiveHub({ redisUrl: redis().url }), createLiveHub({ redisUrl: redis().url })];
    try {
      await Promise.all(hubs.map((hub) => hub.ready?.()));
      const heard = eventOn(hubs[1]!, 'seen');
      await hubs[0]!.publish(liveEvent('default', 'seen'));
      await heard;
      const mark = hubs[1]!.mark();
      expect(mark).toMatch(/^\d+$/);
      await hubs[0]!.publish(liveEvent('default', 'after-mark'));
      const replayed: SequencedEvent[] = [];
      const stop = hubs[1]!.subscribe((event) => replayed.push(event), mark);
      await expect.poll(() => replayed.map((e) => e.event.refId)).toEqual(['after-mark']);
      stop();
    } finally {
      await Promise.all(hubs.map((hub) => hub.close()));
    }
  });

  it('ignores, and reports, a message on its channel that is not an event (another program sharing Redis)', async () => {
    const problems: string[] = [];
    const hub = createLiveHub({ redisUrl: redis().url, onBadMessage: (detail) => problems.push(detail) });
    const other = new Redis(redis().url);
    try {
      await hub.ready?.();
      const heard = nextEvent(hub);
      for (const junk of ['not an event', '7 {"environment":1}', '8 {not json', `9 ${'['.repeat(10_000)}`]) {
        await other.publish('candidate-lookup:live-events', junk);
      }
      await hub.publish(liveEvent('default', 'real'));
      expect((await heard).event.refId).toBe('real');
      expect(problems).toHaveLength(4);
    } finally {
      other.disconnect();
      await hub.close();
    }
  });

  it('a hub started while Redis was down publishes, and hears what another publishes, once Redis is up', async () => {
    await redis().kill();
    const late = createLiveHub({ redisUrl: redis().url });
    try {
      // Its first SUBSCRIBE is refused, as its first connection fails (before, it never subscribed again).
      await expect(late.ready?.()).rejects.toThrow();
      await redis().restart();
      const other = createLiveHub({ redisUrl: redis().url });
      try {
        await other.ready?.();
        let ready = false;
        for (let tries = 0; tries < 100 && !ready; tries++) {
          ready = await late.ready!().then(
            () => true,
            () => new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 50)),
          );
        }
        const heard = eventOn(late, 'from-other');
        await other.publish(liveEvent('default', 'from-other'));
        await heard;
        const heardThere = eventOn(other, 'from-late');
        await late.publish(liveEvent('default', 'from-late'));
        await heardThere;
      } finally {
        await other.close();
      }
    } finally {
      await late.close();
    }
  });

  it('keeps ids increasing after Redis restarts empty, so that no Last-Event-ID names a later event', async () => {
    const idOfOne = async () => {
      const hub = createLiveHub({ redisUrl: redis().url });
      try {
        await hub.ready?.();
        const heard = nextEvent(hub);
        await hub.publish(liveEvent('default', 'one'));
        return BigInt((await heard).id);
      } finally {
        await hub.close();
      }
    };
    const before = await idOfOne();
    await redis().restart();
    expect(await idOfOne()).toBeGreaterThan(before);
  });
});
