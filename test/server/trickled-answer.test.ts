import { createHmac } from 'node:crypto';
import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { rawRequest, startTestApp, testEnvironment } from './http.ts';
import { recordingHub } from './webhook-fixture.ts';

/**
 * A service whose answer never ends: a byte every 100 ms, so that the timer of the body's gaps
 * (limits.upstreamTimeoutMs) restarts each time. The whole answer's deadline (limits.upstreamAnswerTimeoutMs)
 * ends it: before it, one such answer held the archiving gate (every other full lookup of the instance
 * refused with 429 for as long as it trickled), a support lookup waited for ever, and a webhook's check or
 * the queue's crawl hung without a word.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const record = (id: string) =>
  `{"status":"success","data":{"status":"approved","refId":"${id}","recordId":"x","isArchived":false,"approvedDate":"2026-01-01T00:00:00.000Z"`;

const SECRET = 'whsec-trickle-0123456789abcdef';

/** `slow` ids trickle, and while `everything` is set every lookup and the list of waiting candidates; the others are answered at once (a list: empty). */
async function trickling(options: { everything?: boolean; statusKey?: boolean } = {}) {
  const upstream = await startFakeUpstream();
  let open = 0;
  const state = { everything: options.everything ?? false, status: 'approved' };
  upstream.behave = (req, res) => {
    const id = decodeURIComponent(req.url!.split('/').pop()!);
    res.writeHead(200, { 'content-type': 'application/json' });
    const list = req.url!.includes('/applicants');
    const slow = list ? state.everything && req.url!.includes('/applicants/waiting') : id.startsWith('slow') || state.everything;
    if (!slow) {
      return void res.end(
        list ? '{"status":"success","data":{"records":[],"total":0}}' : `${record(id).replace('approved', state.status)}}}`,
      );
    }
    open++;
    res.write(list ? '{"status":"success","data":{"records":[' : `${record(id)},"customFields":{"note":"`);
    const drip = setInterval(() => res.write('a'), 100);
    res.on('close', () => {
      clearInterval(drip);
      open--;
    });
  };
  const hub = recordingHub();
  const app = await startTestApp({
    environments: [
      {
        ...testEnvironment({
          baseUrl: upstream.url,
          clientId: 'c',
          apiKey: 'full-key-3f9a-c27e81d0',
          ...(options.statusKey ? { statusApiKey: 'status-key-5b1e-77c0a9' } : {}),
        }),
        webhookSecret: SECRET,
      },
    ],
    hub,
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    settings: { limits: { upstreamTimeoutMs: 1000, upstreamAnswerTimeoutMs: 1500 } },
  });
  cleanups.push(app.close, upstream.close);
  return { app, hub, state, open: () => open };
}

function deliver(port: number, fields: Record<string, unknown>) {
  const body = JSON.stringify({ clientId: 'c', refId: 'r', ...fields });
  const signature = createHmac('sha256', SECRET).update(body).digest('hex');
  const headers = { 'x-candidate-lookup': undefined, 'content-type': 'application/json', 'x-hub-signature': signature };
  return rawRequest(port, '/webhooks/kyc', { method: 'POST', headers, body });
}

/** A lookup read to its end: its status, whether the answer ended whole, and its body. */
function lookup(port: number, path: string, user: string, role: string) {
  return new Promise<{ status: number | undefined; complete: boolean; body: string }>((resolve) => {
    const headers = { 'x-candidate-lookup': '1', 'x-user': user, 'x-role': role, accept: 'application/json' };
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('close', () => resolve({ status: res.statusCode, complete: res.complete, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', () => resolve({ status: undefined, complete: false, body: '' }));
    req.end();
  });
}

describe('attack: a service that trickles its answer a byte at a time, for ever', () => {
  it('the first full lookup is cut at the whole answer’s deadline, and then lets every other lookup through', async () => {
    const { app, open } = await trickling();
    const slow = await lookup(app.port, '/api/candidates/refId/slow-1', 'mallory', 'compliance');
    // Its status line had gone (the start was a candidate envelope): cut, so that it never looks whole.
    expect(slow.complete).toBe(false);
    await expect.poll(open, { timeout: 10_000 }).toBe(0);
    // Before: 429 "Another full lookup is showing whether this server's API key deletes identity data", for ever.
    const other = await lookup(app.port, '/api/candidates/refId/ok-1', 'bob', 'compliance');
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body).data.refId).toBe('ok-1');
  });

  it('a support lookup of it is answered 504 upstream_timeout, naming the limit', async () => {
    const { app, open } = await trickling();
    const slow = await lookup(app.port, '/api/candidates/refId/slow-2', 'sam', 'support');
    expect(slow.status).toBe(504);
    expect(JSON.parse(slow.body).error).toMatchObject({
      code: 'upstream_timeout',
      message: 'The KYC service did not finish its answer within 1.5 s (limits.upstreamAnswerTimeoutMs).',
    });
    // The service's connection is closed too (its close reaches the fake service a turn later).
    await expect.poll(open, { timeout: 10_000 }).toBe(0);
    expect((await lookup(app.port, '/api/candidates/refId/ok-2', 'sam', 'support')).status).toBe(200);
  });

  it('a webhook whose status check trickles is not lost: the check ends, and the change is heard once the service answers', async () => {
    // With a status-level key: without one, no delivery is checked before a full lookup showed the key keeps data.
    const { app, hub, state, open } = await trickling({ everything: true, statusKey: true });
    expect((await deliver(app.port, { guid: 'g1', status: 'rejected', event: 'review.rejected' })).status).toBe(200);
    // Its check is trickling.
    await expect.poll(open, { timeout: 10_000 }).toBe(1);
    // The service answers again, now with the status the delivery announced.
    state.everything = false;
    state.status = 'rejected';
    // Before: the check hung on the trickle, and a later delivery of the same candidate waited on it: nothing was ever published.
    expect((await deliver(app.port, { guid: 'g2', status: 'rejected', event: 'review.rejected' })).status).toBe(200);
    await expect.poll(() => hub.events.some((event) => JSON.stringify(event).includes('rejected')), { timeout: 20_000 }).toBe(true);
  });

  it('a list page that trickles ends the crawl with the reason, which the queue shows', async () => {
    // With a status-level key: without one, no list is read before a full lookup showed the key keeps data.
    const { app } = await trickling({ everything: true, statusKey: true });
    await app.crawl();
    const queue = await app.get('/api/applicants?status=waiting', { 'x-user': 'ana', 'x-role': 'compliance' });
    expect(queue.body).toContain('did not finish its answer within 1.5 s');
  });

  it("a large answer a slow browser reads for longer than the deadline still arrives whole: only the service's time counts", async () => {
    const upstream = await startFakeUpstream();
    // 16 MB (more than the sockets' buffers hold), sent at once by the service: only this server's reading
    // of it, held back by the browser, takes time.
    const body = `${record('big')},"customFields":{"note":"${'a'.repeat(16 * 1024 * 1024)}"}}}`;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key-3f9a-c27e81d0' },
      // The deadline counts the time the answer flows (answer-deadline.ts): on a loaded machine this server's
      // own reading of 16 MB can take a second of that (1 s cut 40 MB at 10 MB there), so 3 s, and the
      // browser's pauses add 4.8 s.
      settings: { limits: { upstreamTimeoutMs: 3000, upstreamAnswerTimeoutMs: 3000 } },
    });
    cleanups.push(app.close, upstream.close);
    let pauses = 0;
    const read = await new Promise<{ complete: boolean; bytes: number }>((resolve) => {
      const req = http.request(
        {
          host: '127.0.0.1',
          port: app.port,
          path: '/api/candidates/refId/big',
          headers: { 'x-candidate-lookup': '1', accept: 'application/json' },
          agent: false,
        },
        (res) => {
          let bytes = 0;
          // 1 MB, then a pause of 300 ms: about 4.8 s for the whole answer, past the 3 s deadline.
          res.on('data', (chunk: Buffer) => {
            const before = bytes;
            bytes += chunk.length;
            if (Math.floor(bytes / 1_048_576) > Math.floor(before / 1_048_576)) {
              pauses += 1;
              res.pause();
              setTimeout(() => res.resume(), 300);
            }
          });
          res.on('close', () => resolve({ complete: res.complete, bytes }));
        },
      );
      req.end();
    });
    // Read in more than ten pauses of 300 ms: longer than the deadline. It was cut there before, part-way through.
    expect(pauses).toBeGreaterThan(10);
    expect(read).toMatchObject({ complete: true, bytes: Buffer.byteLength(body) });
  });
});
