import { afterAll, describe, expect, it } from 'vitest';
import type http from 'node:http';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, type RawResponse } from './http.ts';
import { errorOf, serviceAndApp } from './service-app.ts';

/**
 * The service's error answers as the page gets them (upstream-api-facts.md, "Errors and limits"): its
 * own reason (`{"status":"error","message":…}`) quoted, cut and cleaned, never with a key in it; a
 * gateway's wait passed on without pausing the environment as the service's 429 does.
 */

const KEY = 'errs-full-key-5b8e1d7c';
const STATUS_KEY = 'errs-status-key-9c2f4a61';
const { upstream, app, lookup } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'client_errs', apiKey: KEY, statusApiKey: STATUS_KEY },
  settings: { limits: { upstreamTimeoutMs: 2000 } },
}));

function answer(status: number, body: string, headers: http.OutgoingHttpHeaders = {}) {
  upstream.behave = (_req, res) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(body);
  };
}

/** What the service said, as the page's message quotes it: the text between the quotes. */
const quotedIn = (message: string) => /: "(.*)"\.$/s.exec(message)?.[1];

describe("the service's own reason for an error", () => {
  it('a 400 with the error envelope: its message is quoted in the failure, with the status', async () => {
    answer(400, '{"status":"error","message":"Invalid refId","code":400}');
    const res = await lookup();
    expect(res.status).toBe(502);
    const error = errorOf(res);
    expect(error).toMatchObject({ code: 'upstream_error', upstreamStatus: 400 });
    expect(error.message).toBe('The KYC service answered with an error (HTTP 400): "Invalid refId".');
  });

  it('a 500, a 401 and a 429 with the envelope say its reason too; a body that is not the envelope adds nothing', async () => {
    answer(500, '{"status":"error","message":"Database unavailable","code":500}');
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 500): "Database unavailable".');
    answer(401, '{"status":"error","message":"Unauthorized","code":401}');
    expect(errorOf(await lookup())).toMatchObject({
      code: 'upstream_unauthorized',
      message: expect.stringContaining('(HTTP 401): "Unauthorized". An administrator must check KYC_API_KEY'),
    });
    answer(429, '{"status":"error","message":"Daily quota exceeded","code":429}');
    expect(errorOf(await lookup())).toMatchObject({
      code: 'upstream_rate_limited',
      message: 'The KYC service is limiting requests (HTTP 429): "Daily quota exceeded". Wait a minute, then try again.',
    });
    answer(500, '{"error":"Database unavailable"}');
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 500).');
    answer(500, '<html><body>Internal error</body></html>', { 'content-type': 'text/html' });
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 500).');
  });
});

describe("the service's reason nested in an error object", () => {
  const nested = (message: unknown) => JSON.stringify({ status: 'error', error: { message, code: 'E_DB' } });

  it('a 500 whose message is in error.message is quoted as a flat one is, not dropped to "(HTTP 500)"', async () => {
    answer(500, nested('Internal'));
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 500): "Internal".');
  });

  it('the same envelope answered with a success status, at full level and at status level: its message named alike', async () => {
    answer(200, JSON.stringify({ status: 'error', code: 500, error: { message: 'Internal', code: 'E_DB' } }));
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 500): "Internal".');
    expect(errorOf(await app.get('/api/status/refId/abc-123', {})).message).toBe(
      'The KYC service answered with an error (HTTP 500): "Internal".',
    );
  });

  it('a flat message wins over a nested one; an error.message that is no text adds nothing', async () => {
    answer(500, JSON.stringify({ status: 'error', message: 'Flat', error: { message: 'Nested' } }));
    expect(quotedIn(errorOf(await lookup()).message)).toBe('Flat');
    answer(500, nested({ text: 'x' }));
    expect(errorOf(await lookup()).message).toBe('The KYC service answered with an error (HTTP 500).');
  });

  it('attack: a nested message of 10 000 characters with a direction override and the API key is bounded and withheld as a flat one', async () => {
    answer(500, nested(`\u202eBad ${'z'.repeat(10_000)}`));
    const long = quotedIn(errorOf(await lookup()).message) ?? '';
    expect(Array.from(long).length).toBeLessThanOrEqual(200);
    expect(long).not.toContain('\u202e');
    answer(500, nested(`Rejected ${KEY}`));
    const res = await lookup();
    expect(res.body).not.toContain(KEY);
    expect(errorOf(res).message).toContain("its message is not shown: it holds this server's API key");
  });
});

describe('a gateway status with a wait (502, 503, 504)', () => {
  it('a 503 with Retry-After and an empty body: the wait is passed on, and the next lookup is still sent at once', async () => {
    answer(503, '', { 'retry-after': '20' });
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(res.headers['retry-after']).toBe('20');
    const error = errorOf(res);
    expect(error).toMatchObject({ code: 'upstream_error', upstreamStatus: 503, retryAfterSeconds: 20 });
    expect(error.message).toContain('It asked to be tried again in 20 s.');
    // Not the service's 429 wait: that one holds every request of the environment back without asking.
    answer(200, '{"status":"success","data":{"ok":true}}');
    expect((await lookup()).status).toBe(200);
    expect(upstream.seen).toHaveLength(2);
  });

  it("a 504 whose body gives the wait (extra.retryAfter) passes it on too; a 500's wait is not", async () => {
    answer(504, '{"status":"error","message":"Upstream timed out","code":504,"extra":{"retryAfter":15}}');
    expect(errorOf(await lookup())).toMatchObject({
      retryAfterSeconds: 15,
      message: 'The KYC service answered with an error (HTTP 504): "Upstream timed out". It asked to be tried again in 15 s.',
    });
    answer(500, '', { 'retry-after': '20' });
    expect(errorOf(await lookup()).retryAfterSeconds).toBeUndefined();
  });
});

describe("attack: an error message that holds this server's API key (a proxy that echoes the request's headers)", () => {
  it.each([
    ['the full key as sent', JSON.stringify({ status: 'error', message: `Bad header Authorization: ${KEY}`, code: 400 })],
    ['the status-level key', JSON.stringify({ status: 'error', message: `key=${STATUS_KEY}`, code: 400 })],
    [
      'the key JSON-escaped',
      `{"status":"error","message":"key ${[...KEY].map((c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`).join('')}","code":400}`,
    ],
    [
      'the key split by zero-width and bidi characters',
      JSON.stringify({ status: 'error', message: `k ${KEY.slice(0, 6)}\u200b${KEY.slice(6, 12)}\u202e${KEY.slice(12)}`, code: 400 }),
    ],
    ['the key split by a line break', JSON.stringify({ status: 'error', message: `k ${KEY.slice(0, 9)}\n${KEY.slice(9)}`, code: 400 })],
    ['the key in base64', JSON.stringify({ status: 'error', message: `k ${Buffer.from(`x:${KEY}`).toString('base64')}`, code: 400 })],
  ])('%s: the message is withheld, and no part of the key reaches the browser', async (_name, body) => {
    answer(400, body);
    const res = await lookup();
    expect(errorOf(res)).toMatchObject({ code: 'upstream_error', upstreamStatus: 400 });
    expect(errorOf(res).message).toBe(
      "The KYC service answered with an error (HTTP 400) (its message is not shown: it holds this server's API key).",
    );
    for (const key of [KEY, STATUS_KEY]) expect(res.body).not.toContain(key.slice(0, 12));
  });

  it('a message of 3 000 characters with a direction override and controls: cut to 200, nothing hidden or reordering left', async () => {
    const message = `\u202eRefused\u0007\u2066 ${'x'.repeat(3000)}`;
    answer(400, JSON.stringify({ status: 'error', message, code: 400 }));
    const said = quotedIn(errorOf(await lookup()).message);
    expect(said).toBeDefined();
    expect(Array.from(said!).length).toBeLessThanOrEqual(200);
    expect(said).toMatch(/^Refused x+…$/);
    expect(said).not.toMatch(/[\p{C}]/u);
  });

  it('a message of 10 000 characters: it does not end within what an error answer is read for, so it is said to be too long, nothing of it shown', async () => {
    answer(400, JSON.stringify({ status: 'error', message: `\u202e${'y'.repeat(10_000)}`, code: 400 }));
    const res = await lookup();
    expect(errorOf(res).message).toBe('The KYC service answered with an error (HTTP 400) (its message is too long to show).');
    expect(res.body).not.toContain('yyyy');
  });
});

describe("the service's refusal of a page of its applicants list (the queue's crawler)", () => {
  const cleanups: Array<() => Promise<void>> = [];
  afterAll(async () => {
    for (const cleanup of cleanups.splice(0)) await cleanup();
  });

  /** The applicants page after one read of the list, every page answered so. */
  async function queueAfter(status: number, body: string): Promise<string> {
    const list = await startFakeUpstream();
    list.behave = (_req, res) => {
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const listApp = await startTestApp({ upstream: { baseUrl: list.url, clientId: 'c', apiKey: KEY, statusApiKey: STATUS_KEY } });
    cleanups.push(listApp.close, list.close);
    await listApp.crawl();
    return (await listApp.get('/api/applicants?status=waiting', {})).body;
  }

  // The crawler's failure is kept in the index and shown to every user: the service's words are not (they may name a candidate).
  it('the error envelope answered with a success status: said as the status it states (crawler-stated-errors), not a schema report, without its reason', async () => {
    const page = await queueAfter(200, '{"status":"error","message":"Invalid refId","code":400}');
    expect(page).toContain('The KYC service answered with an error (HTTP 400).');
    expect(page).not.toContain('Invalid refId');
    expect(page).not.toContain('✖');
    expect(page).not.toContain('expected shape');
  });

  it('the error envelope answered with a success status and no code: said as a refusal, without its reason', async () => {
    const page = await queueAfter(200, '{"status":"error","message":"Invalid refId"}');
    expect(page).toContain('The KYC service refused the applicants list.');
    expect(page).not.toContain('Invalid refId');
  });

  it('the error envelope with an error status: the status, not the reason', async () => {
    const page = await queueAfter(403, '{"status":"error","message":"List not enabled for this client","code":403}');
    expect(page).toContain('(HTTP 403). An administrator must check');
    expect(page).not.toContain('List not enabled');
  });

  it.each([
    ['no data', '{"status":"success"}', 'it has no data.'],
    ['records that are not a list', '{"status":"success","data":{"records":{}}}', 'its data.records is not a list.'],
    ['another status', '{"status":"ok","data":{"records":[]}}', 'its status is not what a list holds there.'],
    ['not an object', '[1,2]', 'it is not a JSON object.'],
  ])('a page of another shape (%s): one sentence naming the field at fault', async (_name, body, fault) => {
    const page = await queueAfter(200, body);
    expect(page).toContain(`The applicants list of the KYC service does not have the expected shape: ${fault}`);
    expect(page).not.toContain('✖');
  });

  it('attack: a refusal of 10 000 characters behind a direction override: none of it reaches the page', async () => {
    const page = await queueAfter(200, JSON.stringify({ status: 'error', message: `\u202eNo\u2067 list\u0000 ${'z'.repeat(10_000)}` }));
    // A tab never read whole: the page is the failure of its first read.
    const { message } = errorOf({ body: page } as RawResponse);
    expect(message).toBe('The KYC service refused the applicants list.');
  });

  it('attack: a refusal that holds the API key: the key never reaches the page', async () => {
    const page = await queueAfter(200, JSON.stringify({ status: 'error', message: `Rejected key ${STATUS_KEY}`, code: 401 }));
    expect(page).not.toContain(STATUS_KEY.slice(0, 12));
    expect(page).not.toContain(KEY.slice(0, 12));
  });
});
