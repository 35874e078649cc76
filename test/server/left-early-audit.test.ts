import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { APP_HEADERS, startTestApp, type TestApp } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';

/**
 * Who looked at whom, truly: a lookup the browser gave up on (its page closed, its batch cancelled) is
 * written as cancelled, not as a failure of the service a lead would then believe in.
 */
const ENVELOPE =
  '{"status":"success","data":{"status":"approved","refId":"r","recordId":"65f1c2a9e4b0d3a1f0c9b811","isArchived":false,"blockPassID":"b"}}';
const HEADERS = { 'x-user': 'ana', 'x-role': 'compliance' };
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A service that answers `delayMs` after a request arrives (for as long as its caller is still there);
 * `arrived(n)` settles once `n` requests have reached it.
 */
async function slowService(delayMs: number) {
  const upstream = await startFakeUpstream();
  let count = 0;
  const waiting: Array<{ n: number; resolve: () => void }> = [];
  const arrived = (n: number) => new Promise<void>((resolve) => (count >= n ? resolve() : waiting.push({ n, resolve })));
  upstream.behave = (_req, res) => {
    count++;
    for (const waiter of waiting.filter((w) => w.n <= count)) waiter.resolve();
    setTimeout(() => {
      if (res.destroyed) return;
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(ENVELOPE) });
      res.end(ENVELOPE);
    }, delayMs);
  };
  const audit = memoryAuditLog();
  const app = await startTestApp({
    // A status key: a batch's requests are then cut when it is cancelled (a full key's are read to their end).
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    audit,
  });
  cleanups.push(async () => {
    await app.close();
    await upstream.close();
  });
  return { app, audit, arrived };
}

/**
 * A request the browser abandons once `underWay` settles: once the service has it, not after a fixed
 * time (on a loaded machine the app may not even have asked the service after 150 ms, and then no lookup
 * was under way to be written).
 */
function abandoned(app: TestApp, path: string, underWay: Promise<void>, body?: string): void {
  const req = http.request({
    host: '127.0.0.1',
    port: app.port,
    path,
    method: body ? 'POST' : 'GET',
    headers: { ...APP_HEADERS, ...HEADERS, ...(body ? { 'content-type': 'application/json' } : {}) },
  });
  req.on('error', () => {});
  req.end(body);
  void underWay.then(() => req.destroy());
}

describe('a lookup the browser left before its answer', () => {
  it('attack on the trail: a page closed while the service was slow is written as cancelled (499), not as a failure of the service', async () => {
    const { app, audit, arrived } = await slowService(600);
    abandoned(app, '/api/candidates/refId/r', arrived(1));
    await expect.poll(() => audit.lines.length, { timeout: 5000 }).toBe(1);
    expect(audit.lines[0]).toMatchObject({ kind: 'refId', id: 'r', status: 499, code: 'cancelled' });
  });

  it('a batch cancelled mid-way writes its rows under way as cancelled, never as the service unreachable', async () => {
    const { app, audit, arrived } = await slowService(600);
    abandoned(app, '/api/batch', arrived(3), JSON.stringify({ kind: 'refId', ids: ['a', 'b', 'c'] }));
    // Each of the three rows was under way (a user's three slots): each is written, as a cancel, none blaming the service.
    await expect.poll(() => audit.lines.length, { timeout: 5000 }).toBe(3);
    for (const line of audit.lines) expect(line).toMatchObject({ batch: true, status: 499, code: 'cancelled' });
  });
});
