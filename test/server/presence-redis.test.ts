import { Redis } from 'ioredis';
import { describe, expect, it } from 'vitest';
import type { TestStream } from './event-source.ts';
import type { Instance } from './instance.ts';
import { hasRedisServer, NO_REDIS_MESSAGE } from './redis-fixture.ts';
import { announce, sandboxAndRedis, sessionOf } from './redis-instances-fixture.ts';

/**
 * Presence between two instances on one real redis-server, read as someone with SUBSCRIBE on that Redis
 * reads it: the user names go by, and must not go beside the ids of the candidates they look at.
 */
const CANDIDATE = { refId: 'cust_000482', recordId: '65f1c2a9e4b0d3a1f0c9b802' };
const { instance, streamOn: openOn, redis } = sandboxAndRedis();

/** The live stream of `cookie`'s user on `at`, once the server has named it (the page announces with its name). */
async function streamOn(at: Instance, cookie: string): Promise<TestStream> {
  const stream = await openOn(at, cookie);
  await stream.until(() => stream.streamId() !== undefined);
  return stream;
}

describe.skipIf(!hasRedisServer)(`presence on Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('attack: whoever subscribes to the presence channel during a lookup reads who, never which candidate, and the viewer is still seen across instances', async () => {
    const [one, two] = [await instance(), await instance()];
    const listener = new Redis(redis().url);
    const heard: string[] = [];
    try {
      listener.on('message', (_channel: string, message: string) => heard.push(message));
      await listener.subscribe('candidate-lookup:presence');
      const [ana, sam] = [await sessionOf(one, 'ana'), await sessionOf(two, 'sam')];
      const [anaStream, samStream] = [await streamOn(one, ana), await streamOn(two, sam)];
      await Promise.all([one.hub.ready?.(), two.hub.ready?.()]);

      // Ana opens the candidate as her page does: the lookup, then the announcement of both its ids.
      const lookup = await one.request(`/api/candidates/refId/${CANDIDATE.refId}`, { headers: { cookie: ana } });
      expect(lookup.status).toBe(200);
      expect(lookup.body).toContain(CANDIDATE.recordId);
      const rooms = await announce(one, ana, anaStream, CANDIDATE);

      // Sam, on the other instance, sees her on that candidate: his page holds the same rooms for it.
      await samStream.until(() => samStream.viewers()?.length === 1);
      expect(samStream.viewers()).toEqual([{ user: 'ana', environment: 'default', rooms }]);
      anaStream.close();
      await samStream.until(() => samStream.viewers()?.length === 0);

      // The channel carried Ana's name (colleagues are shown it), and nothing that names the candidate.
      expect(heard.some((message) => message.includes('"here"') && message.includes('"ana"'))).toBe(true);
      for (const message of heard) {
        expect(message).not.toContain(CANDIDATE.refId);
        expect(message).not.toContain(CANDIDATE.recordId);
      }
    } finally {
      listener.disconnect();
    }
  });
});
