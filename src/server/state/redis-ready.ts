import type { Redis } from 'ioredis';

/**
 * Whether a Redis connection can take a command now, the one rule of every user of Redis here (the shared
 * store, the live hub, the service's shared wait): at once when it is up, or when it is known to be down
 * (an error or a close since it was last ready, or ended), so that a request never waits on a Redis that
 * is away; only before the connection has been made or refused, or while it is being made again after
 * `waitWhileDown` callers asked, does it wait for it, at most `timeoutMs`. One wait per connection is
 * shared by every caller meanwhile: a burst of requests at start adds three listeners in all, not three
 * each. Commands are never queued by ioredis here (`enableOfflineQueue: false`), hence the wait.
 */
export function redisReadiness(redis: Redis, options: { timeoutMs: number; waitWhileDown?: boolean }): () => Promise<boolean> {
  let down = false;
  redis.on('ready', () => (down = false));
  redis.on('error', () => (down = true));
  redis.on('close', () => (down = true));
  let waiting: Promise<boolean> | undefined;
  const wait = () =>
    new Promise<boolean>((resolve) => {
      const settle = (up: boolean) => {
        clearTimeout(timer);
        redis.off('ready', onReady);
        redis.off('error', onFailed);
        redis.off('end', onFailed);
        waiting = undefined;
        resolve(up);
      };
      const onReady = () => settle(true);
      // Waiting through a reconnection, an error of one attempt is not the end of the wait.
      const onFailed = () => settle(false);
      const timer = setTimeout(onFailed, options.timeoutMs);
      redis.once('ready', onReady);
      if (!options.waitWhileDown) redis.once('error', onFailed);
      redis.once('end', onFailed);
    });
  return () => {
    if (redis.status === 'ready') return Promise.resolve(true);
    if (redis.status === 'end' || (down && !options.waitWhileDown)) return Promise.resolve(false);
    waiting ??= wait();
    return waiting;
  };
}
