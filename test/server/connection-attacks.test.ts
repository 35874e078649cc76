import { readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { APP_REQUEST_HEADER, apiErrorBodySchema, apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { signatureOf } from '../../src/server/http/webhook-signature.ts';
import type { RunningServer } from '../../src/server/composition/start-server.ts';
import { cookieOf, rawRequest, signIn } from './http.ts';
import { scratchDir, startInProcess } from './in-process.ts';
import { testPasswordHash } from './passwords.ts';

/**
 * Issue 31, finding 3: clients nobody has signed in as, holding connections open (the production server,
 * `npm start` in this process, over real HTTP). The slow clients come from 127.0.0.2 and up (Linux routes
 * all of 127/8 to loopback), the health checker and the signed-in user from 127.0.0.1, as from other
 * machines. Short deadlines are configured, so that the test waits seconds, not the defaults' minutes.
 */
const running: RunningServer[] = [];
const sockets: net.Socket[] = [];
afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy();
  await Promise.all(running.splice(0).map((server) => server.stop('SIGTERM')));
});

/** Half of what this process may open, less room for the server's own files, at most 2000: the test runs anywhere. */
function slowClientsAffordable(): number {
  const soft = /^Max open files\s+(\d+)/m.exec(readFileSync('/proc/self/limits', 'utf8'))?.[1];
  return Math.max(100, Math.min(2000, Math.floor((Number(soft ?? 1024) - 600) / 2)));
}

async function start(limits: Record<string, number>, env: Record<string, string> = {}): Promise<number> {
  const usersFile = path.join(scratchDir, `users-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(
    usersFile,
    JSON.stringify({
      users: [
        { username: 'ana', passwordHash: await testPasswordHash('ana-pass'), role: 'compliance' },
        { username: 'sam', passwordHash: await testPasswordHash('sam-pass'), role: 'support' },
      ],
    }),
  );
  const configFile = path.join(scratchDir, `config-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(configFile, JSON.stringify({ signIn: { mode: 'users', usersFile }, limits }));
  const started = await startInProcess({ CONFIG_FILE: configFile, ...env });
  running.push(started.server);
  return started.port;
}

interface SlowClient {
  /** What the server sent before it closed the connection. */
  answer(): string;
  open(): boolean;
  closed: Promise<void>;
}

/**
 * A client that sends `first` (a request line and headers, never all of them; or all and part of a body),
 * then one more byte every `everyMs`, from `localAddress`, and never finishes.
 */
function slowClient(port: number, localAddress: string, first: string, everyMs = 1000): Promise<SlowClient> {
  const socket = net.connect({ host: '127.0.0.1', port, localAddress });
  sockets.push(socket);
  let answer = '';
  let open = true;
  let trickle: NodeJS.Timeout | undefined;
  socket.on('data', (chunk) => (answer += chunk.toString('latin1')));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) =>
    socket.once('close', () => {
      open = false;
      clearInterval(trickle);
      resolve();
    }),
  );
  const client = { answer: () => answer, open: () => open, closed };
  return new Promise((resolve) => {
    socket.once('connect', () => {
      socket.write(first);
      trickle = setInterval(() => socket.write('a'), everyMs);
      resolve(client);
    });
    // Closed before it was even connected: a refusal too.
    void closed.then(() => resolve(client));
  });
}

/** Opens `count` slow clients, `perAddress` from each address from 127.0.0.2 up, a batch at a time. */
async function slowClients(port: number, count: number, perAddress: number, first: string): Promise<SlowClient[]> {
  const clients: SlowClient[] = [];
  for (let start = 0; start < count; start += 100) {
    const batch = Array.from({ length: Math.min(100, count - start) }, (_, i) => start + i);
    clients.push(...(await Promise.all(batch.map((n) => slowClient(port, `127.0.0.${2 + Math.floor(n / perAddress)}`, first)))));
  }
  return clients;
}

/** Resolves once `test` holds, looked at again each time one of `clients` closes. */
function untilClosed(clients: SlowClient[], test: () => boolean): Promise<void> {
  return new Promise((resolve) => {
    const check = () => {
      if (test()) resolve();
    };
    for (const client of clients) void client.closed.then(check);
    check();
  });
}

/** Resolves once every one of `clients` has been answered something. */
async function untilAnswered(clients: SlowClient[]): Promise<void> {
  while (clients.some((client) => client.answer() === '' && client.open())) await new Promise((resolve) => setTimeout(resolve, 10));
}

const SLOW_HEADERS = 'POST /webhooks/kyc HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Slow: ';

describe('slow clients nobody signed in as', () => {
  it('attack: thousands of slow-header connections still leave /healthz and a signed-in lookup answering', async () => {
    const count = slowClientsAffordable();
    const cap = Math.floor(count / 4);
    const port = await start({ headersTimeoutMs: 5000, requestTimeoutMs: 10_000, connectionsPerAddress: 40, anonymousConnections: cap });
    const cookie = cookieOf(await signIn(port, 'ana', 'ana-pass'));
    const meta = apiMetaSchema.parse(JSON.parse((await rawRequest(port, '/api/meta', { headers: { cookie } })).body));
    const sample = meta.samples![0]!;

    const clients = await slowClients(port, count, 40, SLOW_HEADERS);
    const openNow = () => clients.filter((client) => client.open()).length;
    // Never more held than the cap: the oldest made room for the newest.
    await untilClosed(clients, () => openNow() <= cap);

    const health = await rawRequest(port, '/healthz');
    const lookup = await rawRequest(port, `/api/status/${sample.kind}/${encodeURIComponent(sample.id)}`, { headers: { cookie } });
    const hanging = openNow();
    expect(health.status).toBe(200);
    expect(lookup.status).toBe(200);
    expect(hanging).toBeGreaterThan(0);

    // Those still held are answered 408 at the headers' deadline and closed; the others were closed for the
    // newer ones, with no answer. (How many reach their deadline depends on how fast the clients came: on a
    // loaded machine the first ones are answered 408 before the last ones are even connected.)
    await Promise.all(clients.map((client) => client.closed));
    const timedOut = clients.filter((client) => client.answer().startsWith('HTTP/1.1 408')).length;
    const cut = clients.filter((client) => client.answer() === '').length;
    expect(timedOut).toBeGreaterThanOrEqual(hanging);
    expect(cut).toBeGreaterThan(0);
    expect(timedOut + cut).toBe(count);
  }, 60_000);

  it('attack: one address’s connections past its cap are closed at once, while another address and /healthz get in', async () => {
    const port = await start({ headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, connectionsPerAddress: 20 });
    const held = await slowClients(port, 20, 20, SLOW_HEADERS);
    const beyond = await Promise.all(Array.from({ length: 10 }, () => slowClient(port, '127.0.0.2', SLOW_HEADERS)));
    await Promise.all(beyond.map((client) => client.closed));
    expect(beyond.map((client) => client.answer())).toEqual(Array(10).fill(''));
    expect(held.every((client) => client.open())).toBe(true);
    expect((await rawRequest(port, '/healthz', { localAddress: '127.0.0.3' })).status).toBe(200);
    expect((await rawRequest(port, '/healthz')).status).toBe(200);
  }, 30_000);

  it('attack: a flood from a few addresses at the cap of all does not close a user’s new connection before its request is read', async () => {
    const port = await start({ headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, connectionsPerAddress: 40, anonymousConnections: 20 });
    // The user's connection is made, its request not yet sent (a slow link, or a server busy reading).
    const user = net.connect({ host: '127.0.0.1', port, localAddress: '127.0.0.1' });
    sockets.push(user);
    let answer = '';
    user.on('data', (chunk) => (answer += chunk.toString('latin1')));
    user.on('error', () => undefined);
    let userOpen = true;
    const userClosed = new Promise<void>((resolve) =>
      user.once('close', () => {
        userOpen = false;
        resolve();
      }),
    );
    await new Promise((resolve) => user.once('connect', resolve));
    // Then sixty slow clients from two addresses, three times the cap of all: forty make room for newer ones.
    const flood = await slowClients(port, 60, 30, SLOW_HEADERS);
    await untilClosed(flood, () => flood.filter((client) => client.open()).length + (userOpen ? 1 : 0) <= 20);
    user.write('GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n');
    await userClosed;
    expect(answer.slice(0, 12)).toBe('HTTP/1.1 200');
  }, 30_000);

  it('a connection someone signed in on leaves the caps: a user behind a flooded address keeps theirs', async () => {
    const port = await start({ headersTimeoutMs: 30_000, requestTimeoutMs: 60_000, connectionsPerAddress: 3 });
    const cookie = cookieOf(await signIn(port, 'ana', 'ana-pass'));
    const request =
      `GET /api/meta HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n` +
      `${APP_REQUEST_HEADER.name}: ${APP_REQUEST_HEADER.value}\r\n\r\n`;
    // Three connections of the address's three, each answered a signed-in request and kept alive.
    const users = await Promise.all(Array.from({ length: 3 }, () => slowClient(port, '127.0.0.9', request, 60_000)));
    await untilAnswered(users);
    expect(users.map((user) => user.answer().slice(0, 12))).toEqual(Array(3).fill('HTTP/1.1 200'));
    // The address's cap is still whole: three slow clients are held, a fourth is closed at once.
    const held = await Promise.all(Array.from({ length: 3 }, () => slowClient(port, '127.0.0.9', SLOW_HEADERS)));
    const beyond = await slowClient(port, '127.0.0.9', SLOW_HEADERS);
    await beyond.closed;
    expect(beyond.answer()).toBe('');
    expect([...users, ...held].every((client) => client.open())).toBe(true);
  }, 30_000);

  it('attack: slow webhook uploads are cut at the body deadline', async () => {
    const port = await start(
      { headersTimeoutMs: 10_000, requestTimeoutMs: 120_000, webhookBodyTimeoutMs: 1500 },
      { KYC_WEBHOOK_SECRET: 'whsec-slow-upload-test' },
    );
    const body = JSON.stringify({ guid: 'g-slow', event: 'review.approved', refId: 'r' }).padEnd(2000, ' ');
    const headers =
      'POST /webhooks/kyc HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n' +
      `Content-Length: ${body.length}\r\nX-Hub-Signature: ${signatureOf(Buffer.from(body), 'whsec-slow-upload-test')}\r\n\r\n`;
    // The headers at once, then the body a byte a second, from a few addresses.
    const uploads = await Promise.all(Array.from({ length: 30 }, (_, n) => slowClient(port, `127.0.0.${2 + (n % 3)}`, headers)));
    await Promise.all(uploads.map((upload) => upload.closed));
    for (const upload of uploads) {
      const [head = '', json = ''] = upload.answer().split('\r\n\r\n');
      expect(head).toMatch(/^HTTP\/1\.1 408 /);
      expect(head.toLowerCase()).toContain('connection: close');
      expect(apiErrorBodySchema.parse(JSON.parse(json)).error.code).toBe('request_timeout');
    }
  }, 30_000);
});

/** What the server sent a slow client: its status line, headers (lower case) and JSON error code. */
function answerOf(client: SlowClient): { status: string; head: string; code?: string; message?: string } {
  const [head = '', json = ''] = client.answer().split('\r\n\r\n');
  const status = head.slice(9, 12);
  if (!json) return { status, head: head.toLowerCase() };
  const { code, message } = apiErrorBodySchema.parse(JSON.parse(json)).error;
  return { status, head: head.toLowerCase(), code, message };
}

/** A batch POSTed as `cookie`'s user whose body (1500 bytes said) comes a byte a second and never whole. */
function slowBatch(cookie: string): string {
  return (
    `POST /api/batch HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: ${cookie}\r\n${APP_REQUEST_HEADER.name}: ${APP_REQUEST_HEADER.value}\r\n` +
    'Content-Type: application/json\r\nContent-Length: 1500\r\n\r\n{'
  );
}

describe('slow bodies from someone signed in', () => {
  it('attack: one user’s slow bodies cannot hold the server', async () => {
    // Node's own deadline for a whole request far off: only the cap and the body's deadline act here.
    const port = await start({ headersTimeoutMs: 10_000, requestTimeoutMs: 120_000, openRequestsPerUser: 20, apiBodyTimeoutMs: 5000 });
    const sam = cookieOf(await signIn(port, 'sam', 'sam-pass'));
    const ana = cookieOf(await signIn(port, 'ana', 'ana-pass'));
    const meta = apiMetaSchema.parse(JSON.parse((await rawRequest(port, '/api/meta', { headers: { cookie: ana } })).body));
    const sample = meta.samples![0]!;

    // Sixty slow batches of one support user, three times their cap, from one address.
    const clients = await Promise.all(Array.from({ length: 60 }, () => slowClient(port, '127.0.0.2', slowBatch(sam))));
    const refused = () => clients.filter((client) => client.answer().startsWith('HTTP/1.1 429'));
    await untilClosed(clients, () => refused().length >= 40);
    // Past the cap: refused at once, with the wait the app shows, and closed without their body being read.
    await Promise.all(refused().map((client) => client.closed));
    for (const client of refused()) {
      const answer = answerOf(client);
      expect(answer).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/at most 20/) });
      expect(answer.head).toContain('connection: close');
      expect(answer.head).toContain('retry-after:');
    }
    // Meanwhile another user's lookup and the health check answer, and the user's own requests wait for room.
    expect(
      (await rawRequest(port, `/api/status/${sample.kind}/${encodeURIComponent(sample.id)}`, { headers: { cookie: ana } })).status,
    ).toBe(200);
    expect((await rawRequest(port, '/healthz')).status).toBe(200);
    expect((await rawRequest(port, '/api/meta', { headers: { cookie: sam } })).status).toBe(429);

    // The twenty held are answered 408 at the body's deadline and closed; then the user gets in again.
    await Promise.all(clients.map((client) => client.closed));
    const held = clients.filter((client) => !client.answer().startsWith('HTTP/1.1 429'));
    expect(held).toHaveLength(20);
    for (const client of held) {
      const answer = answerOf(client);
      expect(answer).toMatchObject({ status: '408', code: 'request_timeout' });
      expect(answer.head).toContain('connection: close');
    }
    expect((await rawRequest(port, '/api/meta', { headers: { cookie: sam } })).status).toBe(200);
  }, 30_000);

  it('attack: batches whose bodies never come spend the batch budget before they are read, and are refused unread', async () => {
    const port = await start({ headersTimeoutMs: 10_000, requestTimeoutMs: 120_000, batchIdsPerMinute: 3, apiBodyTimeoutMs: 3000 });
    const sam = cookieOf(await signIn(port, 'sam', 'sam-pass'));
    // Four slow batches: each takes its first id before its body is read, so one of them finds the budget of
    // three spent and is refused at once, and closed; the three others are cut at the body's deadline.
    const clients = await Promise.all(Array.from({ length: 4 }, () => slowClient(port, '127.0.0.2', slowBatch(sam))));
    const refused = () => clients.filter((client) => client.answer().startsWith('HTTP/1.1 429'));
    await untilClosed(clients, () => refused().length > 0);
    const [first] = refused();
    await first!.closed;
    expect(answerOf(first!)).toMatchObject({ status: '429', code: 'rate_limited', message: expect.stringMatching(/batch budget/) });
    expect(answerOf(first!).head).toContain('connection: close');
    await Promise.all(clients.map((client) => client.closed));
    expect(clients.map((client) => answerOf(client).code).sort()).toEqual(['rate_limited', ...Array(3).fill('request_timeout')]);
  }, 30_000);
});
