import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import type http from 'node:http';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, type RawResponse, type TestApp } from './http.ts';

/**
 * How the bodies of the service's error answers are read (upstream-api-facts.md, "Errors and limits"):
 * within a deadline of their own, at most 4 KiB of them and as far as that goes.
 */

const KEY = 'bodies-full-key-3e7a9c15';
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'client_bodies', apiKey: KEY },
    // The request's own deadlines are long here: the error body's own deadline is what ends a trickle.
    settings: { limits: { upstreamTimeoutMs: 20_000, upstreamAnswerTimeoutMs: 60_000 } },
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});
beforeEach(() => {
  upstream.seen.length = 0;
});

const errorOf = (res: RawResponse) => apiErrorBodySchema.parse(JSON.parse(res.body)).error;
const lookup = () => app.get('/api/candidates/refId/abc-123', { accept: 'application/json' });

function answer(status: number, body: string, headers: http.OutgoingHttpHeaders = {}) {
  upstream.behave = (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };
}

describe('an error body over 4 KiB', () => {
  it('its message, read whole in the first 4 KiB, is quoted; the rest is never read', async () => {
    answer(400, JSON.stringify({ status: 'error', message: 'Invalid refId', code: 400, extra: { trace: 't'.repeat(20_000) } }));
    const error = errorOf(await lookup());
    expect(error).toMatchObject({ code: 'upstream_error', upstreamStatus: 400 });
    expect(error.message).toBe('The KYC service answered with an error (HTTP 400): "Invalid refId".');
  });

  it("a 429's wait and message, before a long remainder, are honoured", async () => {
    const body = { status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 1 }, trace: 'u'.repeat(20_000) };
    answer(429, JSON.stringify(body));
    const error = errorOf(await lookup());
    expect(error).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 1 });
    expect(error.message).toBe('The KYC service is limiting requests (HTTP 429): "Too many requests". Try again in 1 s.');
    // The wait is the environment's: let it pass before the next test asks.
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });

  it('a message that does not end within the first 4 KiB, or a long page that is no envelope: said to be too long to show', async () => {
    answer(500, JSON.stringify({ status: 'error', message: 'v'.repeat(6000), code: 500 }));
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 500) (its message is too long to show).');
    answer(502, `<html><body>${'Bad gateway '.repeat(1000)}</body></html>`, { 'content-type': 'text/html' });
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 502) (its message is too long to show).');
  });
});

describe('attack: a trickling 429 body holds a lookup', () => {
  /** A 429 whose body, read whole, would ask to wait 30 s: sent a byte every 150 ms, within each gap's deadline. */
  const BODY = '{"status":"error","code":429,"message":"Too many requests","extra":{"retryAfter":30}}';

  it('the answer is given from the status alone while the service is still trickling, as for an empty body', async () => {
    answer(429, '');
    const fromStatus = errorOf(await lookup());
    expect(fromStatus).toEqual({
      code: 'upstream_rate_limited',
      message: 'The KYC service is limiting requests (HTTP 429). Wait a minute, then try again.',
    });
    let sent = 0;
    upstream.behave = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(BODY) });
      const timer = setInterval(() => {
        if (res.destroyed || sent === BODY.length) return clearInterval(timer);
        res.write(BODY[sent++]);
      }, 150);
      res.once('close', () => clearInterval(timer));
    };
    const res = await lookup();
    const sentWhenAnswered = sent;
    expect(errorOf(res)).toEqual(fromStatus);
    expect(sentWhenAnswered).toBeGreaterThan(0);
    expect(sentWhenAnswered).toBeLessThan(BODY.length);
  }, 30_000);

  it("a Retry-After header is still honoured when the body's wait is never read", async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(429, { 'content-type': 'application/json', 'retry-after': '1' });
      res.write('{"status":"error",');
      // The rest never comes: the connection stays open until this server gives up on it.
    };
    const res = await lookup();
    expect(res.headers['retry-after']).toBe('1');
    expect(errorOf(res)).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 1 });
    expect(errorOf(res).message).toBe('The KYC service is limiting requests (HTTP 429). Try again in 1 s.');
    // The wait is the environment's: let it pass before the next test asks.
    await new Promise((resolve) => setTimeout(resolve, 1100));
  });
});

describe("the words for a 408 and a 409 of the service (the contract's titles: a 4xx upstream_error reads as a refusal that trying again will not change)", () => {
  it('a 408: the service timed out waiting for the request, answered as a timeout that trying again may get past', async () => {
    answer(408, '{"status":"error","message":"Request Timeout","code":408}');
    const res = await lookup();
    expect(res.status).toBe(504);
    expect(errorOf(res)).toEqual({
      code: 'upstream_timeout',
      message: 'The KYC service timed out waiting for this server\'s request (HTTP 408): "Request Timeout".',
    });
  });

  it('a 409: a conflict with the state of what was asked for, not a malformed request', async () => {
    answer(409, '');
    const error = errorOf(await lookup());
    expect(error).toMatchObject({ code: 'upstream_error', upstreamStatus: 409 });
    expect(error.message).toBe('The KYC service reported a conflict with the current state of what was asked for (HTTP 409).');
  });
});

describe("the service's error envelope answered with a success status", () => {
  /** The lookup at each level and form: the full record, in parts, and the status level. */
  const lookups: Array<[string, () => Promise<RawResponse>]> = [
    ['full', () => app.get('/api/candidates/refId/abc-123', { accept: 'application/json' })],
    ['in parts', () => app.get('/api/candidates/refId/abc-123', { accept: PARTS_ACCEPT })],
    ['status level', () => app.get('/api/status/refId/abc-123', { accept: 'application/json' })],
  ];

  it.each(lookups)('a 200 carrying the error envelope is read as the error it states (%s)', async (_level, ask) => {
    answer(200, '{"status":"error","message":"Resource not Found","code":404}');
    const notFound = await ask();
    expect(notFound.status).toBe(404);
    expect(errorOf(notFound)).toEqual({ code: 'not_found', message: 'No candidate with refId "abc-123".' });
    // As the same 404 answered with its status says it.
    answer(404, '{"status":"error","message":"Resource not Found","code":404}');
    expect(errorOf(await ask())).toEqual(errorOf(notFound));

    answer(200, '{"status":"error","message":"Invalid refId","code":400}');
    const refused = errorOf(await ask());
    expect(refused).toEqual({
      code: 'upstream_error',
      upstreamStatus: 400,
      message: 'The KYC service answered with an error (HTTP 400): "Invalid refId".',
    });
    answer(200, '{"status":"error","message":"Client not Found","code":404}');
    expect(errorOf(await ask()).code).toBe('upstream_misconfigured');
    answer(200, '{"status":"error","message":"Unauthorized","code":"401"}');
    expect(errorOf(await ask()).code).toBe('upstream_unauthorized');

    // Without a usable code: an error naming the service's message, never a record.
    for (const body of [
      '{"status":"error","message":"Something went wrong"}',
      '{"status":"error","message":"Something went wrong","code":200}',
      '{"code":"E_FAIL","status":"error","message":"Something went wrong"}',
    ]) {
      answer(200, body);
      const res = await ask();
      expect(res.status).toBe(502);
      expect(errorOf(res), body).toEqual({
        code: 'upstream_error',
        message: 'The KYC service answered with an error: "Something went wrong".',
      });
    }
  });

  it.each(lookups)('one over 4 KiB, or with an extra wait, reads as its non-2xx twin would (%s)', async (_level, ask) => {
    answer(200, JSON.stringify({ status: 'error', message: 'Invalid refId', code: 400, trace: 'w'.repeat(10_000) }));
    expect(errorOf(await ask()).message).toBe('The KYC service answered with an error (HTTP 400): "Invalid refId".');
    // A message that does not end in the first 4 KiB: too long to show, or (the status level reads the
    // whole body, within its own bound) its first 200 characters.
    answer(200, JSON.stringify({ status: 'error', code: 500, message: 'z'.repeat(10_000) }));
    const long = errorOf(await ask());
    expect(long).toMatchObject({ code: 'upstream_error', upstreamStatus: 500 });
    expect(long.message).toMatch(
      /^The KYC service answered with an error \(HTTP 500\)(?: \(its message is too long to show\)|: "z{199}…")\.$/,
    );
    answer(200, JSON.stringify({ status: 'error', message: 'Gateway busy', code: 503, extra: { retryAfter: 9 } }));
    expect(errorOf(await ask())).toEqual({
      code: 'upstream_error',
      upstreamStatus: 503,
      retryAfterSeconds: 9,
      message: 'The KYC service answered with an error (HTTP 503): "Gateway busy". It asked to be tried again in 9 s.',
    });
  });

  it("attack: an error envelope with a success status that holds this server's key: refused for the key, nothing of it shown", async () => {
    for (const [, ask] of lookups) {
      answer(200, JSON.stringify({ status: 'error', message: `echo ${KEY}`, code: 400 }));
      const res = await ask();
      expect(res.status).toBe(502);
      expect(res.body).not.toContain(KEY.slice(0, 12));
    }
  });
});

describe('a 429 stated inside a 200', () => {
  it('holds the environment back as a real 429 does: the next lookup, at either level, is not sent into the wait', async () => {
    const service = await startFakeUpstream();
    const held = await startTestApp({ upstream: { baseUrl: service.url, clientId: 'client_stated', apiKey: KEY } });
    try {
      service.behave = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 30 } }));
      };
      const first = await held.get('/api/candidates/refId/abc-123', { accept: 'application/json' });
      expect(errorOf(first)).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 30 });
      expect(service.seen).toHaveLength(1);
      // Before, the service was asked again at once, by anyone: only a 429 status line set the wait.
      for (const path of ['/api/candidates/refId/abc-124', '/api/status/refId/abc-125']) {
        const next = await held.get(path, { accept: 'application/json' });
        expect(next.status).toBe(429);
        expect(errorOf(next)).toMatchObject({ code: 'upstream_rate_limited' });
      }
      expect(service.seen).toHaveLength(1);
    } finally {
      await held.close();
      await service.close();
    }
  });
});
