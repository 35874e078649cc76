import http from 'node:http';
import { describe, expect, it } from 'vitest';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { as, cleanupsAfterEach, lookupLater, proxyAccess, recordAsked } from './user-lookups.ts';

/**
 * What lookups a browser left, or could not send, cost everyone else (a resilience review): a full
 * answer is read to its end after the browser leaves (archive-watch.ts), and every request to the
 * service shares one agent of 256 connections.
 */
const cleanups = cleanupsAfterEach();

/** The full key: a `/keyed-` answer holds it, and is refused for it (answer-guard.ts), after which it is read on. */
const FULL_KEY = 'full-key-3f9a-c27e81d0';

/**
 * A service that answers `/slow-` and `/keyed-` lookups slowly and steadily: their status line and the
 * record's start at once, then a space every 100 ms (JSON's whitespace, so the body stays valid and never
 * idle long enough to be cut); anything else at once.
 */
async function slowService() {
  const upstream = await startFakeUpstream();
  const trickling = new Set<http.ServerResponse>();
  upstream.behave = (req, res) => {
    if (!/\/(slow|keyed)-/.test(req.url!)) {
      const body = JSON.stringify({ status: 'success', data: recordAsked(req.url!) });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      return void res.end(body);
    }
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': 10_000_000 });
    res.write(`{"status":"success","data":{"status":"approved"${req.url!.includes('/keyed-') ? `,"note":"${FULL_KEY}"` : ''}`);
    trickling.add(res);
    res.once('close', () => trickling.delete(res));
  };
  const drip = setInterval(() => {
    for (const res of trickling) res.write(' ');
  }, 100);
  cleanups.push(() => clearInterval(drip), upstream.close);
  const seen = (part: string) => upstream.seen.filter((request) => request.path.includes(part)).length;
  return { url: upstream.url, seen, trickling };
}

/**
 * A lookup the browser leaves as soon as it reached the service, or when it is answered without
 * reaching it (refused): 'reached', or the status it was answered with.
 */
function openThenLeave(port: number, id: string, headers: http.OutgoingHttpHeaders, reached: () => boolean): Promise<number | 'reached'> {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port, path: `/api/candidates/refId/${id}`, headers, agent: false }, (res) => {
      res.resume();
      res.on('close', () => settle(res.statusCode ?? 0));
    });
    req.on('error', () => {});
    const watch = setInterval(() => reached() && settle('reached'), 5);
    const settle = (outcome: number | 'reached') => {
      clearInterval(watch);
      req.destroy();
      resolve(outcome);
    };
  });
}

describe('attack: a user who opens and leaves lookups one after another against a slow service', () => {
  it('holds no more requests at the service than their cap (4), while their answers are read on; another user still reaches it', async () => {
    const service = await slowService();
    const app = await startTestApp({
      upstream: { baseUrl: service.url, clientId: 'c', apiKey: 'k' },
      access: proxyAccess(),
      // The wait for a slot, and the longest gap in a body: the service's trickle stays well within it.
      settings: { limits: { upstreamTimeoutMs: 1000 } },
    });
    cleanups.unshift(app.close);
    // Until a first full answer shows the key does not archive after extract, full lookups go one at a time.
    expect(await lookupLater(app.port, '/api/candidates/refId/first', as('sam'))).toBe(200);

    const leave = (id: string) => openThenLeave(app.port, id, as('eve'), () => service.seen(`/${id}`) > 0);
    // Four reach the service, and are left: their answers are read on to their ends, for willArchiveAtDate.
    expect(await Promise.all(['slow-1', 'slow-2', 'slow-3', 'slow-4'].map(leave))).toEqual(Array(4).fill('reached'));
    // Twenty more, each left as soon as it reaches the service: none does, as the four still hold the user's slots.
    const more = await Promise.all(Array.from({ length: 20 }, (_, i) => leave(`slow-more-${i}`)));
    expect(new Set(more)).toEqual(new Set([429]));
    expect(service.seen('/slow-')).toBe(4);
    expect(service.trickling.size).toBe(4);

    // Another user is not held back by them.
    expect(await lookupLater(app.port, '/api/candidates/refId/other', as('sam'))).toBe(200);
    expect(service.seen('/other')).toBe(1);
  }, 30_000);
});

describe('attack: a batch of candidates whose slow answers are refused (the key in them), each read on to its end', () => {
  it('counts the answers read on against the user: the batch holds no more requests at the service than the cap (4)', async () => {
    const service = await slowService();
    const app = await startTestApp({
      // No status key: the batch's rows are asked with the full key, and their answers read to their ends.
      upstream: { baseUrl: service.url, clientId: 'c', apiKey: FULL_KEY },
      access: proxyAccess(),
      settings: { limits: { upstreamTimeoutMs: 1000 } },
    });
    cleanups.unshift(app.close);
    expect(await lookupLater(app.port, '/api/candidates/refId/first', as('sam'))).toBe(200);

    const ids = Array.from({ length: 8 }, (_, i) => `keyed-${i}`);
    const body = JSON.stringify({ kind: 'refId', ids });
    const headers = { ...as('eve'), 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const rows = await new Promise<string>((resolve) => {
      const batch = http.request(
        { host: '127.0.0.1', port: app.port, path: '/api/batch', method: 'POST', headers, agent: false },
        (res) => {
          let text = '';
          res.on('data', (chunk: Buffer) => (text += chunk.toString()));
          res.on('end', () => resolve(text));
        },
      );
      batch.end(body);
    });
    const codes = rows
      .split('\n')
      .filter((line) => line.includes('"type":"row"'))
      .map((line) => (JSON.parse(line) as { code?: string }).code);
    expect(codes.filter((code) => code === 'upstream_error')).toHaveLength(4);
    expect(codes.filter((code) => code === 'rate_limited')).toHaveLength(4);
    expect(service.seen('/keyed-')).toBe(4);
    expect(service.trickling.size).toBe(4);
    expect(await lookupLater(app.port, '/api/candidates/refId/other', as('sam'))).toBe(200);
  }, 30_000);
});

describe('attack: every connection to the service held by slow answers', () => {
  it('tells a lookup that could not get one that this server is busy (503 server_busy), not that the service did not answer', async () => {
    const service = await slowService();
    const app = await startTestApp({
      upstream: { baseUrl: service.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: proxyAccess(),
      settings: { limits: { upstreamTimeoutMs: 1000 } },
    });
    cleanups.unshift(app.close);
    // 64 users, each at their cap of 4 status-level lookups: the agent's 256 connections, all answering slowly.
    // Their browsers wait on, and are answered when the app closes.
    const slow = Array.from({ length: 256 }, (_, i) =>
      lookupLater(app.port, `/api/status/refId/slow-${i}`, as(`user-${Math.floor(i / 4)}`, 'support')),
    );
    await expect.poll(() => service.trickling.size, { timeout: 20_000 }).toBe(256);

    const answer = await new Promise<{ status: number; body: string; retryAfter?: string }>((resolve) => {
      http.get(
        { host: '127.0.0.1', port: app.port, path: '/api/status/refId/late', headers: as('sam', 'support'), agent: false },
        (res) => {
          let body = '';
          res.on('data', (chunk: Buffer) => (body += chunk.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, retryAfter: res.headers['retry-after'] }));
        },
      );
    });
    expect(answer.status).toBe(503);
    expect(JSON.parse(answer.body).error).toMatchObject({ code: 'server_busy', message: expect.stringMatching(/^This server has/) });
    expect(answer.retryAfter).toBe('5');
    expect(service.seen('/late')).toBe(0);
    // The slow ones were not cut for it.
    expect(service.trickling.size).toBe(256);
    cleanups.push(async () => void (await Promise.all(slow)));
  }, 60_000);
});
