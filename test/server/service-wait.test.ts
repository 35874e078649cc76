import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { virtualClock, withClockAhead } from './clock.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { APP_HEADERS, ndjson, type RawResponse, requestWithBody, startTestApp } from './http.ts';
import { errorOf } from './service-app.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { pageOf } from './queue-fixture.ts';

/**
 * The KYC service's 429 as it really answers (issue 30): its wait in the body, `extra.retryAfter`
 * (seconds), no Retry-After header. The wait is read in one place (upstream/service-wait.ts), kept by
 * the environment's upstream client, and obeyed by the lookup, every batch and the queue's crawler.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const PUBLISHED_429 = JSON.stringify({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 30 } });
const idOf = (req: http.IncomingMessage) => decodeURIComponent(req.url!.split('/').pop()!);

function answer(res: http.ServerResponse, status: number, body: string, headers: http.OutgoingHttpHeaders = {}) {
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body), ...headers });
  res.end(body);
}
const found = (res: http.ServerResponse, id: string) =>
  answer(res, 200, JSON.stringify({ status: 'success', data: { status: 'approved', refId: id, isArchived: false, blockPassID: 'b' } }));

/** A fake service and the app on it, the service's waits passing on a virtual clock; each request to the service noted with that clock's time. */
async function serviceAndApp(options: { batchConcurrency?: number } = {}) {
  const upstream = await startFakeUpstream();
  const clock = virtualClock();
  const asked: Array<{ id: string; at: number }> = [];
  let behave: (req: http.IncomingMessage, res: http.ServerResponse, id: string) => void = (_req, res, id) => found(res, id);
  upstream.behave = (req, res) => {
    const id = idOf(req);
    asked.push({ id, at: clock.now() });
    behave(req, res, id);
  };
  const audit = memoryAuditLog();
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    pauseClock: clock,
    audit,
    settings: options,
  });
  cleanups.push(app.close, upstream.close);
  return {
    upstream,
    app,
    clock,
    asked,
    audit,
    set behave(next: typeof behave) {
      behave = next;
    },
  };
}

/** A batch read as it streams: `onEvent` sees each line as it arrives. */
function streamBatch(
  port: number,
  ids: string[],
  onEvent: (event: Record<string, unknown>) => void,
): Promise<Array<Record<string, unknown>>> {
  return new Promise((resolve, reject) => {
    const events: Array<Record<string, unknown>> = [];
    const req = http.request(
      { host: '127.0.0.1', port, path: '/api/batch', method: 'POST', headers: { ...APP_HEADERS, 'content-type': 'application/json' } },
      (res) => {
        let buffered = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => {
          buffered += chunk;
          const lines = buffered.split('\n');
          buffered = lines.pop()!;
          for (const event of ndjson(lines.join('\n'))) {
            events.push(event);
            onEvent(event);
          }
        });
        res.on('end', () => resolve(events));
      },
    );
    req.on('error', reject);
    req.end(JSON.stringify({ kind: 'refId', ids }));
  });
}

describe("the service's wait on a lookup", () => {
  it('a 429 with only extra.retryAfter: 30: the lookup answers 429 with Retry-After: 30 and retryAfterSeconds 30', async () => {
    const env = await serviceAndApp();
    env.behave = (_req, res) => answer(res, 429, PUBLISHED_429);
    const res = await env.app.get('/api/candidates/refId/abc');
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('30');
    expect(errorOf(res)).toEqual({
      code: 'upstream_rate_limited',
      message: 'The KYC service is limiting requests (HTTP 429): "Too many requests". Try again in 30 s.',
      retryAfterSeconds: 30,
    });
  });

  it('a 429 with only extra.retryAfter: 30: a lookup during the wait is refused here with the seconds left, and the service is not asked', async () => {
    const env = await serviceAndApp();
    env.behave = (_req, res) => answer(res, 429, PUBLISHED_429);
    await env.app.get('/api/candidates/refId/abc');
    env.behave = (_req, res, id) => found(res, id);
    await env.clock.sleep(12_000);
    const during = await env.app.get('/api/candidates/refId/other');
    expect([during.status, during.headers['retry-after']]).toEqual([429, '18']);
    expect(errorOf(during)).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 18 });
    expect(errorOf(during).message).toMatch(/asked to wait: nothing was sent to it\. Try again in 18 s\./);
    // The queue is read from its index (issue 32): it answers, and asks the service nothing.
    expect((await env.app.get('/api/applicants')).status).toBe(200);
    expect(env.asked.map((a) => a.id)).toEqual(['abc']);
    // Audited as refused before the service: no upstream status, not reached.
    const refused = env.audit.lines.find((line) => 'id' in line && line.id === 'other');
    expect(refused).toMatchObject({ status: 429, code: 'upstream_rate_limited', upstreamStatus: null });
    await env.clock.sleep(18_000);
    expect((await env.app.get('/api/candidates/refId/other')).status).toBe(200);
    expect(env.asked.map((a) => a.id)).toEqual(['abc', 'other']);
  });

  it('a header-only 429 keeps working, and with both a header and a body the longer wait is taken', async () => {
    const env = await serviceAndApp();
    env.behave = (_req, res) => answer(res, 429, '{}', { 'retry-after': '12' });
    const headerOnly = await env.app.get('/api/candidates/refId/a');
    expect([headerOnly.headers['retry-after'], errorOf(headerOnly).retryAfterSeconds]).toEqual(['12', 12]);
    await env.clock.sleep(12_000);
    env.behave = (_req, res) => answer(res, 429, PUBLISHED_429, { 'retry-after': '7' });
    expect(errorOf(await env.app.get('/api/candidates/refId/b')).retryAfterSeconds).toBe(30);
    await env.clock.sleep(30_000);
    env.behave = (_req, res) => answer(res, 429, JSON.stringify({ extra: { retryAfter: '5' } }), { 'retry-after': '40' });
    expect(errorOf(await env.app.get('/api/candidates/refId/c')).retryAfterSeconds).toBe(40);
  });

  it('the cap: a wait over 300 s (a day in the header, milliseconds read as seconds in the body) is cut to 300 s', async () => {
    const env = await serviceAndApp();
    env.behave = (_req, res) => answer(res, 429, JSON.stringify({ status: 'error', extra: { retryAfter: 30_000 } }));
    const body = await env.app.get('/api/candidates/refId/a');
    expect([body.headers['retry-after'], errorOf(body).retryAfterSeconds]).toEqual(['300', 300]);
    await env.clock.sleep(300_000);
    env.behave = (_req, res) => answer(res, 429, '', { 'retry-after': '86400' });
    expect(errorOf(await env.app.get('/api/candidates/refId/b')).retryAfterSeconds).toBe(300);
    // The environment waits those 300 s, not a day.
    await env.clock.sleep(300_000);
    env.behave = (_req, res, id) => found(res, id);
    expect((await env.app.get('/api/candidates/refId/c')).status).toBe(200);
  });

  it('attack: a Retry-After of 11 digits (no wait in the body) counts as no wait, and the next lookup goes straight to the service', async () => {
    const env = await serviceAndApp();
    env.behave = (_req, res) => answer(res, 429, '{"status":"error","code":429}', { 'retry-after': '99999999999' });
    const told = await env.app.get('/api/candidates/refId/a');
    // Capped as the same wait in the body is: 300 s, held here.
    expect([told.status, told.headers['retry-after'], errorOf(told).retryAfterSeconds]).toEqual([429, '300', 300]);
    env.behave = (_req, res, id) => found(res, id);
    const during = await env.app.get('/api/candidates/refId/b');
    expect([during.status, errorOf(during).code]).toEqual([429, 'upstream_rate_limited']);
    expect(env.asked.map((a) => a.id)).toEqual(['a']);
  });

  it.each([
    ['not JSON', (res: http.ServerResponse) => answer(res, 429, '<html>Too many requests</html>', { 'content-type': 'text/html' })],
    // A retryAfter at the body's top is read as extra's is (test/unit/service-wait.test.ts): here there is none.
    ['JSON without extra', (res: http.ServerResponse) => answer(res, 429, '{"status":"error","extra":null,"retry":30}')],
    ['a negative or non-number wait', (res: http.ServerResponse) => answer(res, 429, '{"extra":{"retryAfter":-5}}')],
    [
      'larger than 4 KiB, the wait past it',
      (res: http.ServerResponse) => answer(res, 429, JSON.stringify({ pad: 'x'.repeat(10_000), extra: { retryAfter: 30 } })),
    ],
    [
      'larger than 4 KiB without a length',
      (res: http.ServerResponse) => {
        res.writeHead(429, { 'content-type': 'application/json' });
        res.write(`{"pad":"${'x'.repeat(64 * 1024)}`);
        res.end('","extra":{"retryAfter":30}}');
      },
    ],
    [
      'a body that never ends',
      (res: http.ServerResponse) => {
        res.writeHead(429, { 'content-type': 'application/json', 'content-length': 100 });
        res.write('{"extra":');
      },
    ],
  ])(
    'a 429 whose body is %s: no wait is read from it, the answer says to wait a minute, and the server keeps serving',
    async (name, behave) => {
      const env = await serviceAndApp();
      env.behave = (_req, res) => behave(res);
      const res = await env.app.get('/api/candidates/refId/a');
      expect(res.status).toBe(429);
      expect(res.headers['retry-after']).toBeUndefined();
      // Of a body longer than what is read (4 KiB), the page is told that its message is too long to show.
      const said = name.startsWith('larger than 4 KiB') ? ' (its message is too long to show)' : '';
      expect(errorOf(res)).toEqual({
        code: 'upstream_rate_limited',
        message: `The KYC service is limiting requests (HTTP 429)${said}. Wait a minute, then try again.`,
      });
      // No wait was asked for: nothing is held back.
      env.behave = (_req, res2, id) => found(res2, id);
      expect((await env.app.get('/api/candidates/refId/b')).status).toBe(200);
    },
  );

  it("the sandbox's rate-limited-demo answers the published 429 (its wait in the body, no Retry-After), and the lookup after the wait finds it", async () => {
    const sandbox = await startSandbox({ candidates: await sampleCandidates({ now: new Date(), pictures: false }) });
    const app = await startTestApp({ upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full } });
    cleanups.push(app.close, sandbox.close);
    const limited = await app.get('/api/candidates/refId/rate-limited-demo');
    expect([limited.status, limited.headers['retry-after']]).toEqual([429, '30']);
    expect(errorOf(limited)).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 30 });
    // The sandbox itself, as the service answers: the wait left in the body only.
    const raw = await new Promise<RawResponse>((resolve, reject) => {
      const path = `/kyc/1.0/connect/${sandbox.clientId}/refId/rate-limited-demo`;
      http
        .get(`${sandbox.url}${path}`, { headers: { authorization: SANDBOX_KEYS.status } }, (res) => {
          let body = '';
          res.setEncoding('utf8');
          res.on('data', (chunk: string) => (body += chunk));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, cut: false }));
        })
        .on('error', reject);
    });
    expect(raw.status).toBe(429);
    expect(raw.headers['retry-after']).toBeUndefined();
    expect(JSON.parse(raw.body)).toEqual({
      status: 'error',
      code: 429,
      message: 'Too many requests',
      extra: { retryAfter: expect.any(Number) },
    });
    expect(JSON.parse(raw.body).extra.retryAfter).toBeGreaterThanOrEqual(29);
    const after = await withClockAhead(31_000, () => app.get('/api/candidates/refId/rate-limited-demo'));
    expect(after.status).toBe(200);
    expect(JSON.parse(after.body).data).toMatchObject({ status: 'waiting', refId: 'rate-limited-demo' });
  });
});

describe("the service's wait in a batch", () => {
  it('a batch makes no request to that environment for 30 s after a 429 with only extra.retryAfter: 30, then resumes and finishes', async () => {
    const env = await serviceAndApp({ batchConcurrency: 3 });
    // The first three ids are asked at once; once all three are under way, id0 is refused (once), and id1
    // and id2 are answered only when the batch has said it waits: their workers meet the wait afterwards.
    const held: Array<() => void> = [];
    let limited = false;
    env.behave = (_req, res, id) => {
      if (limited || !['id0', 'id1', 'id2'].includes(id)) return found(res, id);
      if (id === 'id0') held.unshift(() => answer(res, 429, PUBLISHED_429));
      else held.push(() => found(res, id));
      if (held.length < 3) return;
      limited = true;
      held.shift()!();
    };
    const ids = Array.from({ length: 8 }, (_, i) => `id${i}`);
    const start = env.clock.now();
    const events = await streamBatch(env.app.port, ids, (event) => {
      if (event.type === 'wait') for (const release of held.splice(0)) release();
    });
    expect(events.filter((e) => e.type === 'wait')).toEqual([{ type: 'wait', seconds: 30 }]);
    // Before the wait, only the three lookups under way when the 429 came; every other request, id0's
    // second try too, 30 s or more after it, whichever row it was for.
    const during = env.asked.filter((a) => a.at < start + 30_000);
    expect(during.map((a) => a.id).sort()).toEqual(['id0', 'id1', 'id2']);
    expect(env.asked.filter((a) => a.id === 'id0')).toHaveLength(2);
    expect(env.asked).toHaveLength(9);
    expect(events.at(-1)).toEqual({ type: 'done', found: 8, failed: 0 });
  });

  it("a batch started during the wait another user's lookup was told makes no request until it ends, and says it waits", async () => {
    const env = await serviceAndApp();
    env.behave = (_req, res) => answer(res, 429, PUBLISHED_429);
    const start = env.clock.now();
    expect((await env.app.get('/api/candidates/refId/someone')).status).toBe(429);
    env.behave = (_req, res, id) => found(res, id);
    await env.clock.sleep(5_000);
    const res = await requestWithBody(env.app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['a', 'b', 'c'] }));
    const events = ndjson(res.body);
    expect(events[0]).toEqual({ type: 'wait', seconds: 25 });
    const batchAsked = env.asked.slice(1);
    expect(batchAsked.map((a) => a.id).sort()).toEqual(['a', 'b', 'c']);
    expect(batchAsked.every((a) => a.at >= start + 30_000)).toBe(true);
    expect(events.at(-1)).toEqual({ type: 'done', found: 3, failed: 0 });
  });
});

describe("the service's wait and the queue's crawler", () => {
  it("a user's lookup told to wait holds the crawler's lookups until the wait ends, not its pages of the list", async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(upstream.close);
    const clock = virtualClock();
    const asked: Array<{ path: string; at: number }> = [];
    let limitNext = true;
    upstream.behave = (req, res) => {
      asked.push({ path: req.url!, at: clock.now() });
      if (limitNext) {
        limitNext = false;
        return answer(res, 429, PUBLISHED_429);
      }
      if (!req.url!.includes('/applicants')) return found(res, idOf(req));
      // No date: the crawler looks the record up for it.
      const records = req.url!.includes('/applicants/waiting') ? [{ status: 'waiting', _id: 'rec-1', refId: 'ref-1' }] : [];
      answer(res, 200, JSON.stringify({ status: 'success', data: { records, total: records.length } }));
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      pauseClock: clock,
      queueCrawl: { start: false, clock },
    });
    cleanups.push(app.close);
    expect((await app.get('/api/candidates/refId/abc')).status).toBe(429);
    const toldAt = clock.now();
    await app.crawl();
    const crawled = asked.slice(1);
    const pages = crawled.filter((request) => request.path.includes('/applicants'));
    const lookups = crawled.filter((request) => !request.path.includes('/applicants'));
    // The list's wait is its own (service-wait.ts): its first page is asked at once.
    expect(pages[0]?.at).toBeLessThan(toldAt + 30_000);
    expect(lookups.length).toBeGreaterThan(0);
    for (const request of lookups) expect(request.at).toBeGreaterThanOrEqual(toldAt + 30_000);
    expect(pageOf(await app.get('/api/applicants?status=waiting')).total).toBe(1);
  });
});
