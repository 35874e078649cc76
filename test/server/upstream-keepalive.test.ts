import net from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { startTestApp, type TestApp } from './http.ts';

/**
 * The race a kept-alive connection runs: the service closes an idle socket just as this server sends
 * the next request on it. A minimal HTTP server on a raw socket makes that moment exact, every time:
 * it answers a connection's first request with keep-alive, and what it does with the next one's bytes
 * is the test's choice.
 */
const BODY = '{"status":"success","data":{"ok":true}}';
const ANSWER = `HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: ${BODY.length}\r\nConnection: keep-alive\r\n`;

type Later = 'reset' | 'reset after answer bytes' | 'answer';

interface RawUpstream {
  url: string;
  /** Requests received, per connection in the order the connections came. */
  requests: number[];
  /** Settles when the first connection is closed, and says whether this server had closed it. */
  firstClosed: Promise<{ byClient: boolean }>;
  close(): Promise<void>;
}

async function rawUpstream(options: { first: 'answer' | 'reset'; later: Later; keepAliveHeader?: string }): Promise<RawUpstream> {
  const requests: number[] = [];
  const sockets = new Set<net.Socket>();
  let closedFirst: (value: { byClient: boolean }) => void = () => {};
  const firstClosed = new Promise<{ byClient: boolean }>((resolve) => (closedFirst = resolve));
  const server = net.createServer((socket) => {
    const index = requests.push(0) - 1;
    sockets.add(socket);
    let closedHere = false;
    socket.on('error', () => {});
    socket.on('end', () => socket.end());
    socket.on('close', () => {
      sockets.delete(socket);
      if (index === 0) closedFirst({ byClient: !closedHere });
    });
    socket.on('data', (chunk: Buffer) => {
      // Each request here is a GET without a body, sent in one piece.
      if (!chunk.includes('\r\n\r\n')) return;
      requests[index]! += 1;
      const what = requests[index] === 1 ? options.first : options.later;
      if (what === 'answer') return void socket.write(`${ANSWER}${options.keepAliveHeader ?? ''}\r\n${BODY}`);
      closedHere = true;
      if (what === 'reset after answer bytes') return void socket.end('HTTP/1.1 200 OK\r\nContent-', () => socket.resetAndDestroy());
      socket.resetAndDestroy();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    firstClosed,
    close: () =>
      new Promise<void>((resolve) => {
        for (const socket of sockets) socket.destroy();
        server.close(() => resolve());
      }),
  };
}

let upstream: RawUpstream | undefined;
let app: TestApp | undefined;
afterEach(async () => {
  await app?.close();
  await upstream?.close();
  app = upstream = undefined;
});

async function appFor(options: Parameters<typeof rawUpstream>[0]) {
  upstream = await rawUpstream(options);
  app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'client', apiKey: 'keep-alive-test-key' } });
  return { upstream, app };
}
const lookup = (app: TestApp) => app.get('/api/candidates/refId/abc-123', { accept: 'application/json' });

describe('a kept-alive connection reset by the service as the next request arrives', () => {
  it('a lookup sent on a kept-alive socket the service is closing succeeds by asking again once', async () => {
    const { upstream, app } = await appFor({ first: 'answer', later: 'reset' });
    expect((await lookup(app)).status).toBe(200);
    const second = await lookup(app);
    expect(second.status).toBe(200);
    expect(second.body).toBe(BODY);
    // The second request went out on the first connection (reset there), then again on a new one.
    expect(upstream.requests).toEqual([2, 1]);
  });

  it('a reset on a fresh connection is not asked again: the service could not be reached', async () => {
    const { upstream, app } = await appFor({ first: 'reset', later: 'reset' });
    const res = await lookup(app);
    expect(res.status).toBe(502);
    expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error).toMatchObject({ code: 'upstream_unreachable' });
    expect(upstream.requests).toEqual([1]);
  });

  it('a reset after bytes of the answer came is not asked again', async () => {
    const { upstream, app } = await appFor({ first: 'answer', later: 'reset after answer bytes' });
    expect((await lookup(app)).status).toBe(200);
    const res = await lookup(app);
    expect(res.status).toBe(502);
    expect(upstream.requests).toEqual([2]);
  });
});

describe('idle kept-alive sockets are dropped before the service drops them', () => {
  it("drops an idle socket itself, before Node's servers close theirs (5 s)", { timeout: 10_000 }, async () => {
    const { upstream, app } = await appFor({ first: 'answer', later: 'answer' });
    expect((await lookup(app)).status).toBe(200);
    // This upstream never closes an idle socket: only this server's own idle timeout can.
    expect(await upstream.firstClosed).toEqual({ byClient: true });
  });

  it('honours the service\'s "Keep-Alive: timeout=N" (dropped a second before N): sooner than its own idle timeout', async () => {
    // Side by side, each answered once: one service says timeout=2, the other says nothing (4 s of its own).
    const told = await rawUpstream({ first: 'answer', later: 'answer', keepAliveHeader: 'Keep-Alive: timeout=2\r\n' });
    const silent = await rawUpstream({ first: 'answer', later: 'answer' });
    const apps = await Promise.all(
      [told, silent].map((service) =>
        startTestApp({ upstream: { baseUrl: service.url, clientId: 'client', apiKey: 'keep-alive-test-key' } }),
      ),
    );
    try {
      const closed: string[] = [];
      const watch = (service: RawUpstream, name: string) =>
        service.firstClosed.then((how) => {
          closed.push(name);
          return how;
        });
      expect((await Promise.all(apps.map(lookup))).map((res) => res.status)).toEqual([200, 200]);
      const [toldClose, silentClose] = await Promise.all([watch(told, 'told'), watch(silent, 'silent')]);
      expect([toldClose, silentClose]).toEqual([{ byClient: true }, { byClient: true }]);
      // Both answered at once, so the one dropped after 1 s goes first: its header was read.
      expect(closed).toEqual(['told', 'silent']);
    } finally {
      await Promise.all(apps.map((one) => one.close()));
      await Promise.all([told.close(), silent.close()]);
    }
  });
});
