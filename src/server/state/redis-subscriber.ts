import { Redis, type RedisOptions } from 'ioredis';

/**
 * A connection of its own for SUBSCRIBE (it takes the connection for itself), subscribed to `channels` on
 * every connection: the first, and again after each reconnect, by this module rather than by ioredis's
 * own `autoResubscribe`. The SUBSCRIBE that ioredis sends after a reconnect has no handler of anyone's:
 * an instance that closes the connection while that SUBSCRIBE is under way (stopping just as Redis came
 * back) ends it in an unhandled rejection, "Connection is closed." (CI's run of the unit and server tests
 * under load, `service-wait-shared.test.ts`, 2 of 25 runs of that file beside two busy processes). Here
 * every SUBSCRIBE has its handler.
 *
 * `subscribed()` is the latest connection's subscription (the first until a connection is made): fulfilled
 * once subscribed, rejected when that failed. Commands are queued while it is not connected (the
 * SUBSCRIBE waits for the connection).
 */
export function subscriberConnection(
  url: string,
  options: RedisOptions,
  channels: readonly string[],
): { subscriber: Redis; subscribed: () => Promise<unknown> } {
  const subscriber = new Redis(url, { ...options, enableOfflineQueue: true, autoResubscribe: false });
  const subscribe = () => {
    const sent = subscriber.subscribe(...channels);
    sent.catch(() => undefined);
    return sent;
  };
  let current = subscribe();
  let firstSettled = false;
  current.then(
    () => (firstSettled = true),
    () => (firstSettled = true),
  );
  // A connection made while the SUBSCRIBE queued above is still under way sends that one (it leaves the
  // queue as the connection is ready); every other connection subscribes anew, that one refused included.
  subscriber.on('ready', () => {
    if (firstSettled) current = subscribe();
  });
  return { subscriber, subscribed: () => current };
}
