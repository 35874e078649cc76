import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.mjs';
import { subscriberConnection } from '../../src/server/state/redis-subscriber.ts';

/**
 * The subscriber connection's SUBSCRIBE after a reconnect (redis-subscriber.ts). A real redis-server answers
 * a SUBSCRIBE within microseconds, so the moment these tests need (a connection closed while that SUBSCRIBE
 * is under way, which CI's run under load hit once) cannot be made with one: a small server speaking
 * Redis's protocol (RESP2) stands in for it, and leaves a SUBSCRIBE unanswered when told to.
 * Reconnecting and resubscribing against a real redis-server are live-redis.test.ts's and
 * service-wait-shared.test.ts's.
 */

type Command = string[];

/** Complete commands (arrays of bulk strings) at the start of `buffer`, and the bytes after them. */
function readCommands(buffer: Buffer): { commands: Command[]; rest: Buffer } {
  const commands: Command[] = [];
  let at = 0;
  for (;;) {
    const text = buffer.toString('latin1', at);
    const head = /^\*(\d+)\r\n/.exec(text);
    if (!head) break;
    let offset = head[0].length;
    const args: string[] = [];
    for (let i = 0; i < Number(head[1]); i++) {
      const bulk = /^\$(\d+)\r\n/.exec(text.slice(offset));
      if (!bulk || text.length < offset + bulk[0].length + Number(bulk[1]) + 2) return { commands, rest: buffer.subarray(at) };
      offset += bulk[0].length;
      args.push(text.slice(offset, offset + Number(bulk[1])));
      offset += Number(bulk[1]) + 2;
    }
    commands.push(args);
    at += offset;
  }
  return { commands, rest: buffer.subarray(at) };
}

const bulk = (text: string) => `$${Buffer.byteLength(text)}\r\n${text}\r\n`;

/** A stand-in Redis on `port` (any when 0): answers the handshake, PING and SUBSCRIBE, unless `answerSubscribe` is off. */
async function fakeRedis(port = 0) {
  const sockets: net.Socket[] = [];
  const subscribes: Command[] = [];
  const state = { answerSubscribe: true };
  const server = net.createServer((socket) => {
    sockets.push(socket);
    let pending: Buffer = Buffer.alloc(0);
    socket.on('error', () => undefined);
    socket.on('data', (chunk) => {
      const read = readCommands(Buffer.concat([pending, chunk]));
      pending = read.rest;
      for (const [name = '', ...args] of read.commands) {
        const command = name.toLowerCase();
        if (command === 'hello') socket.write("-ERR unknown command 'HELLO'\r\n");
        else if (command === 'info') socket.write(bulk('# Server\r\nloading:0\r\n'));
        else if (command === 'ping') socket.write('+PONG\r\n');
        else if (command === 'subscribe') {
          subscribes.push(args);
          if (!state.answerSubscribe) continue;
          for (const [i, channel] of args.entries()) socket.write(`*3\r\n${bulk('subscribe')}${bulk(channel)}:${i + 1}\r\n`);
        } else socket.write('+OK\r\n');
      }
    });
  });
  // A port taken meanwhile fails the test at once (EADDRINUSE), rather than as an error event nobody hears.
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const listening = (server.address() as net.AddressInfo).port;
  return {
    url: `redis://127.0.0.1:${listening}`,
    port: listening,
    subscribes,
    state,
    /** Closes every connection from the server's side (Redis restarted, or a network cut). */
    dropConnections: () => {
      for (const socket of sockets.splice(0)) socket.destroy();
    },
    close: () => {
      for (const socket of sockets.splice(0)) socket.destroy();
      return new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

const OPTIONS = { maxRetriesPerRequest: 0, connectTimeout: 1000, retryStrategy: () => 50 };
const cleanups: Array<() => unknown> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const until = async (test: () => boolean) => {
  while (!test()) await new Promise((resolve) => setTimeout(resolve, 5));
};

describe('a subscriber connection', () => {
  it('closed while its SUBSCRIBE after a reconnect is under way leaves no rejection without a handler', async () => {
    const redis = await fakeRedis();
    cleanups.push(redis.close);
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown) => unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    cleanups.push(() => process.off('unhandledRejection', onUnhandled));

    const { subscriber, subscribed } = subscriberConnection(redis.url, OPTIONS, ['events', 'revocations']);
    subscriber.on('error', () => undefined);
    await subscribed();
    // Redis goes away and comes back, and this time leaves the SUBSCRIBE unanswered.
    redis.state.answerSubscribe = false;
    redis.dropConnections();
    await until(() => redis.subscribes.length === 2);
    expect(redis.subscribes).toEqual([
      ['events', 'revocations'],
      ['events', 'revocations'],
    ]);
    // The instance stops while it is under way.
    subscriber.disconnect();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(unhandled).toEqual([]);
  });

  it('subscribes on the first connection made, after a first SUBSCRIBE that no connection could take', async () => {
    // A port below the kernel's ephemeral range (free-port.mjs): one a server of ours had with listen(0) and
    // closed could be handed to another test file's listen(0) before this test listens on it again.
    const port = await freePort();
    // Nothing listens yet: the queued SUBSCRIBE is refused when the first connection fails.
    const { subscriber, subscribed } = subscriberConnection(`redis://127.0.0.1:${port}`, OPTIONS, ['events']);
    subscriber.on('error', () => undefined);
    cleanups.push(() => subscriber.disconnect());
    await expect(subscribed()).rejects.toThrow();
    const again = await fakeRedis(port);
    cleanups.push(again.close);
    await until(() => again.subscribes.length > 0);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(again.subscribes).toEqual([['events']]);
  });
});
