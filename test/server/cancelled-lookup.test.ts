import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { startFakeUpstream } from './fake-upstream.ts';
import { APP_HEADERS, startTestApp } from './http.ts';

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const answer = (res: http.ServerResponse, id: string) => {
  const body = JSON.stringify({ status: 'success', data: { status: 'waiting', refId: id } });
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) }).end(body);
};

describe('a batch cancelled while the service is slow', () => {
  it('ends its lookups at the service and never sends them again (their resets read as stale kept-alive sockets)', async () => {
    const upstream = await startFakeUpstream();
    const arrived: string[] = [];
    let slowSeen = 0;
    let allSeen: () => void = () => {};
    upstream.behave = (req, res) => {
      const id = req.url!.split('/').pop()!;
      arrived.push(id);
      if (id.startsWith('warm')) return answer(res, id);
      if (++slowSeen === 4) allSeen();
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k-12345678', statusApiKey: 's-12345678' },
    });
    cleanups.push(app.close, upstream.close);
    // Kept-alive sockets to the service, which the slow lookups then reuse.
    await Promise.all(['warm-1', 'warm-2', 'warm-3', 'warm-4'].map((id) => app.get(`/api/candidates/refId/${id}`, {})));
    const atService = new Promise<void>((resolve) => (allSeen = resolve));
    const body = JSON.stringify({ kind: 'refId', ids: ['slow-1', 'slow-2', 'slow-3', 'slow-4'] });
    const headers = { ...APP_HEADERS, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) };
    const batch = http.request({ host: '127.0.0.1', port: app.port, path: '/api/batch', method: 'POST', headers, agent: false });
    batch.on('error', () => {});
    batch.end(body);
    await atService;
    batch.destroy();
    // Anything sent again goes out at once on the reset; a lookup after it comes later.
    upstream.behave = (req, res) => {
      arrived.push(req.url!.split('/').pop()!);
      answer(res, 'after');
    };
    await new Promise((resolve) => setTimeout(resolve, 300));
    expect((await app.get('/api/candidates/refId/after', {})).status).toBe(200);
    expect(arrived.filter((id) => id.startsWith('slow')).sort()).toEqual(['slow-1', 'slow-2', 'slow-3', 'slow-4']);
  });

  it('a lookup the browser left before any answer is logged 499 aborted, not a 200 that never happened (resilience review)', async () => {
    const upstream = await startFakeUpstream();
    let arrivedAt: () => void = () => {};
    const atService = new Promise<void>((resolve) => (arrivedAt = resolve));
    upstream.behave = () => arrivedAt();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k-12345678', statusApiKey: 's-12345678' },
    });
    cleanups.push(app.close, upstream.close);
    const lookup = http.request({
      host: '127.0.0.1',
      port: app.port,
      path: '/api/candidates/refId/left',
      headers: APP_HEADERS,
      agent: false,
    });
    lookup.on('error', () => {});
    lookup.end();
    await atService;
    lookup.destroy();
    await expect
      .poll(() => app.requests().find((line) => line.route === '/api/candidates/refId/:id'))
      .toMatchObject({ status: 499, aborted: true });
  });
});
