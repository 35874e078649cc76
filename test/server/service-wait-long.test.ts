import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_SERVICE_WAIT_SECONDS, waitWords, withoutWhen } from '../../src/server/upstream/service-wait.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { errorOf } from './service-app.ts';

/**
 * A 429 that asks for longer than this server waits (MAX_SERVICE_WAIT_SECONDS, 5 min): the cap stays, and
 * so does the Retry-After the browser gets, but the words say what the service asked. Before, a service
 * that asked for an hour was said as "Try again in 300 s.", an answer it had said it would not give.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** The app on a fake service that answers every lookup with this 429. */
async function limitedFor(body: unknown, headers: http.OutgoingHttpHeaders = {}) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    const text = JSON.stringify(body);
    res.writeHead(429, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };
  const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' } });
  cleanups.push(app.close, upstream.close);
  return app;
}

describe('a 429 that asks for longer than this server waits', () => {
  it('extra.retryAfter 3600: Retry-After 300 as before, and the words say the hour it asked for', async () => {
    const app = await limitedFor({ status: 'error', code: 429, message: 'Too many requests', extra: { retryAfter: 3600 } });
    const res = await app.get('/api/candidates/refId/abc');
    expect([res.status, res.headers['retry-after']]).toEqual([429, String(MAX_SERVICE_WAIT_SECONDS)]);
    expect(errorOf(res)).toEqual({
      code: 'upstream_rate_limited',
      message:
        'The KYC service is limiting requests (HTTP 429): "Too many requests". It asked to wait 60 min; this server asks again in 5 min.',
      retryAfterSeconds: MAX_SERVICE_WAIT_SECONDS,
    });
  });

  it('a Retry-After header of a day, with no body of the service: said in hours', async () => {
    const app = await limitedFor({}, { 'retry-after': '86400' });
    const error = errorOf(await app.get('/api/candidates/refId/abc'));
    expect(error.message).toBe('The KYC service is limiting requests (HTTP 429). It asked to wait 24 h; this server asks again in 5 min.');
    expect(error.retryAfterSeconds).toBe(MAX_SERVICE_WAIT_SECONDS);
  });

  it('a wait within the cap is said as before; the queue tab takes the "when" off either, keeping the wait asked', () => {
    expect(waitWords(30, 30)).toBe('Try again in 30 s.');
    expect(waitWords(300, 300)).toBe('Try again in 300 s.');
    expect(waitWords(300, 301)).toBe('It asked to wait 6 min; this server asks again in 5 min.');
    expect(waitWords(300, 10 * 86400)).toBe('It asked to wait 10 days; this server asks again in 5 min.');
    expect(withoutWhen('Limiting (HTTP 429). Try again in 30 s.')).toBe('Limiting (HTTP 429).');
    expect(withoutWhen('Limiting (HTTP 429). It asked to wait 60 min; this server asks again in 5 min.')).toBe(
      'Limiting (HTTP 429). It asked to wait 60 min.',
    );
  });
});
