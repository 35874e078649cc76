import { describe, expect, it } from 'vitest';
import { freePort } from '../../scripts/free-port.mjs';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import { virtualClock } from './clock.ts';
import { startTestApp } from './http.ts';
import { errorOf, serviceAndApp } from './service-app.ts';

const KEY = 'fault-test-key-7f3a9c';
const CLIENT = 'client_for_faults';
// The service's waits (its 429) pass on this clock: a test moves it past one instead of waiting.
const clock = virtualClock();
const { upstream, app, lookup } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: CLIENT, apiKey: KEY },
  pauseClock: clock,
  settings: {
    limits: {
      upstreamTimeoutMs: 400,
      maxResponseBytes: 10_000,
    },
    // As behind a proxy with sign-in elsewhere (signIn.allowUnauthenticated): forwarding headers reach the handler.
    refuseProxied: false,
  },
}));

/** After every fault, a healthy lookup must still work: the server keeps serving. */
async function expectStillServing() {
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json' });
    res.end('{"status":"success","data":{"ok":true}}');
  };
  const res = await lookup();
  expect(res.status).toBe(200);
  expect(res.body).toBe('{"status":"success","data":{"ok":true}}');
}

describe('proxy request to the upstream', () => {
  it('asks for the exact lookup path with the key and no-cache, uncompressed, and passes on none of the browser headers', async () => {
    await app.get('/api/candidates/recordId/65f1c2a9', {
      accept: 'application/json',
      'accept-encoding': 'gzip',
      cookie: 'session=abc',
      authorization: 'Bearer browser-token',
      'x-forwarded-for': '10.0.0.1',
      referer: 'http://127.0.0.1/candidates',
      'user-agent': 'test-browser',
    });
    expect(upstream.seen).toHaveLength(1);
    const seen = upstream.seen[0]!;
    expect(seen.method).toBe('GET');
    expect(seen.path).toBe(`/kyc/1.0/connect/${CLIENT}/recordId/65f1c2a9`);
    expect(seen.headers.authorization).toBe(KEY);
    expect(seen.headers['cache-control']).toBe('no-cache');
    expect(seen.headers.accept).toBe('application/json');
    // Uncompressed whatever the browser accepts: each byte passed on is checked for the key (answer-guard.ts).
    expect(seen.headers['accept-encoding']).toBe('identity');
    for (const name of ['cookie', 'x-forwarded-for', 'referer', 'user-agent']) expect(seen.headers[name]).toBeUndefined();
  });

  it('asks for JSON alone whatever the browser accepts: parts, HTML, or a support user with the parts Accept', async () => {
    const support = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: CLIENT, apiKey: KEY, statusApiKey: 'fault-test-status-key-1b2c' },
      access: {
        mode: 'proxy',
        identify: async () => ({ user: 'agent', role: 'support' as const }),
        rateLimitKey: () => 'agent',
        handleSession: () => {},
      } as unknown as NonNullable<Parameters<typeof startTestApp>[0]['access']>,
    });
    try {
      await support.get('/api/candidates/refId/abc-123', { accept: PARTS_ACCEPT });
      await app.get('/api/candidates/refId/abc-123', { accept: PARTS_ACCEPT });
      await app.get('/api/candidates/refId/abc-123', { accept: 'text/html,application/xhtml+xml,*/*;q=0.8' });
      await app.get('/api/candidates/refId/abc-123', {});
    } finally {
      await support.close();
    }
    expect(upstream.seen.map((seen) => seen.headers.accept)).toEqual(Array(4).fill('application/json'));
  });

  it('keeps a path prefix of KYC_BASE_URL', async () => {
    const prefixed = await startTestApp({ upstream: { baseUrl: `${upstream.url}/gateway/v2`, clientId: CLIENT, apiKey: KEY } });
    await prefixed.get('/api/candidates/refId/x');
    await prefixed.close();
    expect(upstream.seen[0]!.path).toBe(`/gateway/v2/kyc/1.0/connect/${CLIENT}/refId/x`);
  });
});

describe('proxy against a faulty upstream', () => {
  it('streams a success body back unchanged with only the allowed headers', async () => {
    const body = JSON.stringify({ status: 'success', data: { status: 'approved', note: 'é'.repeat(2000) } });
    upstream.behave = (_req, res) => {
      res.writeHead(200, {
        'content-type': 'application/json; charset=utf-8',
        'set-cookie': 'upstream=1',
        server: 'kyc/1.0',
        'x-request-id': 'r1',
      });
      res.write(body.slice(0, 100));
      setTimeout(() => res.end(body.slice(100)), 50);
    };
    const res = await lookup();
    expect(res.status).toBe(200);
    expect(res.body).toBe(body);
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    for (const name of ['set-cookie', 'server']) expect(res.headers[name]).toBeUndefined();
    // The request id is this server's own, never the upstream's.
    expect(res.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });

  it('maps 404 to not_found', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"status":"error","message":"Resource not Found","code":404}');
    };
    const res = await lookup();
    expect(res.status).toBe(404);
    expect(errorOf(res)).toEqual({ code: 'not_found', message: 'No candidate with refId "abc-123".' });
    await expectStillServing();
  });

  it('maps a 404 that names the client (the client id is unknown) to upstream_misconfigured, not to "no such candidate"', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end('{"status":"error","code":404,"message":"Client not Found"}');
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('upstream_misconfigured');
    expect(errorOf(res).message).toMatch(/does not know this server's client id .* KYC_CLIENT_ID/);
    await expectStillServing();
  });

  it('maps a 404 web page (an address that is not the KYC Connect API) to upstream_misconfigured for a lookup', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(404, { 'content-type': 'text/html; charset=utf-8' });
      res.end('<!DOCTYPE html><html><body>Cannot GET /kyc/1.0/connect</body></html>');
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_misconfigured', message: expect.stringMatching(/web page .* KYC_BASE_URL/) });
    await expectStillServing();
  });

  it('keeps a 404 with another message, or none, or a body that is not JSON, as no such candidate', async () => {
    for (const [type, body] of [
      ['application/json', '{"status":"error","message":"Record not found","code":404}'],
      ['application/json', ''],
      ['text/plain', 'Not Found'],
      ['application/json', '{"message":{"client":"x"}}'],
    ]) {
      upstream.behave = (_req, res) => {
        res.writeHead(404, { 'content-type': type! });
        res.end(body);
      };
      expect(errorOf(await lookup()).code, body).toBe('not_found');
    }
    await expectStillServing();
  });

  it.each([401, 403])('maps %i to 502 upstream_unauthorized without echoing the key', async (status) => {
    upstream.behave = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', 'www-authenticate': 'Key' });
      res.end(`{"message":"key ${KEY} is invalid"}`);
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('upstream_unauthorized');
    expect(errorOf(res).message).toContain('API key');
    expect(res.body + JSON.stringify(res.headers)).not.toContain(KEY);
    expect(res.headers['www-authenticate']).toBeUndefined();
    await expectStillServing();
  });

  it('maps 429 to upstream_rate_limited and keeps Retry-After', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(429, { 'retry-after': '30' });
      res.end('slow down');
    };
    const res = await lookup();
    expect(res.status).toBe(429);
    expect(res.headers['retry-after']).toBe('30');
    expect(errorOf(res)).toMatchObject({ code: 'upstream_rate_limited', retryAfterSeconds: 30 });
    expect(errorOf(res).message).toContain('30 s');
    // The service's wait is the environment's: until it ends, nothing more is sent to it.
    await clock.sleep(10_000);
    const during = await lookup();
    expect([during.status, during.headers['retry-after'], errorOf(during).retryAfterSeconds]).toEqual([429, '20', 20]);
    expect(upstream.seen).toHaveLength(1);
    await clock.sleep(20_000);
    await expectStillServing();
  });

  it('maps a 500 with an HTML body to upstream_error without passing the HTML on', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(500, { 'content-type': 'text/html' });
      res.end('<html><body><script>alert(1)</script>Internal error</body></html>');
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(res.headers['content-type']).toMatch(/^application\/json/);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_error', upstreamStatus: 500 });
    expect(res.body).not.toContain('<script>');
    await expectStillServing();
  });

  it('maps a redirect to upstream_redirected instead of following it', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(302, { location: 'http://127.0.0.1:1/elsewhere' });
      res.end();
    };
    const res = await lookup();
    expect(errorOf(res)).toMatchObject({ code: 'upstream_redirected', upstreamStatus: 302 });
    expect(upstream.seen).toHaveLength(1);
  });

  it('answers upstream_timeout when no answer comes in time', async () => {
    let given!: Promise<void>;
    upstream.behave = (req) => {
      given = new Promise((resolve) => req.socket.once('close', () => resolve()));
    }; // never answers
    const res = await lookup();
    expect(res.status).toBe(504);
    // The server's own 400 ms ended it (what the message says), and its request to the service went with it.
    expect(errorOf(res)).toMatchObject({ code: 'upstream_timeout', message: 'The KYC service did not answer within 0.4 s.' });
    await given;
    await expectStillServing();
  });

  it('answers upstream_unreachable when the connection is reset before an answer', async () => {
    upstream.behave = (req) => req.socket.destroy();
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_unreachable' });
    expect(errorOf(res).message).toContain('reset');
    await expectStillServing();
  });

  it('answers upstream_unreachable when nothing listens', async () => {
    // Free, and below the kernel's ephemeral range: a port our own listen(0) had and closed could be handed
    // to another test file's server meanwhile, which would answer.
    const port = await freePort();
    const down = await startTestApp({ upstream: { baseUrl: `http://127.0.0.1:${port}`, clientId: CLIENT, apiKey: KEY } });
    const res = await down.get('/api/candidates/refId/abc');
    await down.close();
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_unreachable' });
    expect(errorOf(res).message).toContain('connection refused');
  });

  it('answers response_too_large when the declared length is over the limit', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 20_000 });
      res.end('x'.repeat(20_000));
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('response_too_large');
    // This server's 10 000 bytes, in a reader's words (it said "<1 MB"), and whose the next step is.
    expect(errorOf(res).message).toContain(
      'larger than the 9.8 kB this server accepts (limits.maxResponseBytes). Nothing is wrong with the id',
    );
    expect(errorOf(res).message).toContain('Tell whoever runs Candidate Lookup: they can raise limits.maxResponseBytes.');
    await expectStillServing();
  });

  it('cuts the connection when an undeclared body grows over the limit', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' }); // chunked, no length
      // Its id first, as the service writes it: the answer begins only once the id is known (asked-id-watch.ts).
      res.write('{"status":"success","data":{"refId":"abc-123","filler":"');
      const chunk = 'x'.repeat(4000);
      let sent = 0;
      const timer = setInterval(() => {
        if (res.destroyed || sent++ > 10) {
          clearInterval(timer);
          res.end();
          return;
        }
        res.write(chunk);
      }, 5);
    };
    const res = await lookup();
    expect(res.cut).toBe(true);
    expect(res.body.length).toBeLessThanOrEqual(14_000);
    await expectStillServing();
  });

  it('cuts the connection when the upstream body stops mid-way', async () => {
    upstream.behave = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 5000 });
      res.write('{"status":"success","data":{"refId":"abc-123",');
      setTimeout(() => req.socket.destroy(), 30);
    };
    const res = await lookup();
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    // What arrived, less the last bytes held back until the body shows they do not start the key.
    expect(res.body.length).toBeGreaterThan(0);
    expect('{"status":"success","data":{"refId":"abc-123",'.startsWith(res.body)).toBe(true);
    await expectStillServing();
  });

  it('cuts the connection when the body stalls longer than the timeout', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 5000 });
      res.write(`{"status":"success","data":{"refId":"abc-123","filler":"${'x'.repeat(200)}`);
    };
    const res = await lookup();
    expect(res.cut).toBe(true);
    await expectStillServing();
  });

  it('passes on a body that trickles in steadily, however slowly overall', async () => {
    // Its own server with a 1 s timeout: 25 pieces 100 ms apart take 2.5 s in all, never idle for long.
    const patient = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: CLIENT, apiKey: KEY },
      settings: {
        limits: {
          upstreamTimeoutMs: 1000,
        },
      },
    });
    const body = JSON.stringify({ status: 'success', data: { status: 'approved', filler: 'x'.repeat(2400) } });
    const pieces = 25;
    const size = Math.ceil(body.length / pieces);
    let sent = 0;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      const timer = setInterval(() => {
        res.write(body.slice(sent * size, (sent + 1) * size));
        if (++sent === pieces) {
          clearInterval(timer);
          res.end();
        }
      }, 100);
    };
    const res = await patient.get('/api/candidates/refId/abc-123');
    await patient.close();
    // Every piece sent, each at least 100 ms after the one before: 2.4 s at the least, past the timeout, and still whole.
    expect(sent).toBe(pieces);
    expect(res.cut).toBe(false);
    expect(res.body).toBe(body);
  });

  it('closes the connection before any header: upstream_unreachable', async () => {
    upstream.behave = (req) => {
      req.socket.end();
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('upstream_unreachable');
    await expectStillServing();
  });

  it('a response that never ends is cut after the idle timeout', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write('{"status":"success","data":{"refId":"abc-123","status":"waiting"');
    };
    const res = await lookup();
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    await expectStillServing();
  });

  it('answers other lookups promptly while one upstream request hangs', async () => {
    upstream.behave = (req, res) => {
      if (req.url?.endsWith('/hangs')) return; // never answered
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end('{"status":"success","data":{}}');
    };
    // Its own server with a 5 s timeout, so the hanging lookup surely outlasts the others.
    const patient = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: CLIENT, apiKey: KEY },
      settings: {
        limits: {
          upstreamTimeoutMs: 5000,
        },
      },
    });
    // Until a first full answer shows the key does not archive after extract, full lookups go one at a time.
    expect((await patient.get('/api/candidates/refId/first')).status).toBe(200);
    let hangingDone = false;
    const hanging = patient.get('/api/candidates/refId/hangs').finally(() => (hangingDone = true));
    const others = await Promise.all(Array.from({ length: 20 }, (_, i) => patient.get(`/api/candidates/refId/other-${i}`)));
    expect(others.map((r) => r.status)).toEqual(Array(20).fill(200));
    // The other twenty were answered while the first was still waiting for the upstream.
    expect(hangingDone).toBe(false);
    expect(upstream.seen.filter((r) => r.path.endsWith('/hangs'))).toHaveLength(1);
    const hung = await hanging;
    await patient.close();
    expect(hung.status).toBe(504);
  });
});
