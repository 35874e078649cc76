import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { ndjson, requestWithBody, startTestApp } from './http.ts';

/**
 * The batch budget (limits.batchIdsPerMinute) over real HTTP: a batch pays its first id before its body is
 * read, and a batch refused once its ids are read gives that id back (once a minute at most), so that a
 * refusal does not shrink what the user can look up next, and a flood of them still spends the budget.
 */
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const sam = { 'x-user': 'sam', 'x-role': 'support' };
const ids = (count: number, from = 0) => Array.from({ length: count }, (_, i) => `id${from + i}`);

/** A server with a batch budget of `perMinute` ids, in front of a service that knows every id. */
async function budgetApp(perMinute: number) {
  const upstream = await startFakeUpstream();
  upstream.behave = (req, res) => {
    const refId = decodeURIComponent(req.url!.split('/').pop()!);
    const body = JSON.stringify({ status: 'success', data: { status: 'approved', refId, isArchived: false } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    audit: memoryAuditLog(),
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    settings: { limits: { batchIdsPerMinute: perMinute } },
  });
  cleanups.push(app.close, upstream.close);
  const post = (body: unknown, headers: http.OutgoingHttpHeaders = sam) =>
    requestWithBody(app.port, '/api/batch', typeof body === 'string' ? body : JSON.stringify(body), { headers });
  return { post, upstream };
}

describe('the batch budget', () => {
  it('gives the first id back to a batch refused for its size: split to the budget, the list is looked up', async () => {
    const { post, upstream } = await budgetApp(4);
    // The refusal used to keep the id it paid: the list split to the budget then found 3 of 4 left.
    const refused = await post({ kind: 'refId', ids: ids(6) });
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.body).error).toEqual({
      code: 'bad_request',
      message: 'This server looks up at most 4 ids a minute in batches: split the list, or look up the first 4 now.',
      idsAtMost: 4,
    });
    expect(upstream.seen).toHaveLength(0);
    // The whole budget is left for the list split to its size.
    const first = await post({ kind: 'refId', ids: ids(4) });
    expect(first.status).toBe(200);
    expect(ndjson(first.body).at(-1)).toEqual({ type: 'done', found: 4, failed: 0 });
  });

  it('gives the first id back to a batch refused for more than is left: a smaller one that fits still starts', async () => {
    const { post } = await budgetApp(4);
    expect((await post({ kind: 'refId', ids: ids(2) })).status).toBe(200);
    const refused = await post({ kind: 'refId', ids: ids(3, 2) });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.message).toMatch(/^Your batch budget is used up for now: 3 ids can start in \d+ s\.$/);
    // 2 of 4 are used: the 2 left take a batch of 2, which the refusal's kept id would have cut to 1.
    const fits = await post({ kind: 'refId', ids: ids(2, 2) });
    expect(fits.status).toBe(200);
    expect(ndjson(fits.body).at(-1)).toEqual({ type: 'done', found: 2, failed: 0 });
    expect((await post({ kind: 'refId', ids: ids(1, 4) })).status).toBe(429);
  });

  it('says in its answer what is left of the budget and when it is whole again, so the page offers the next part only then', async () => {
    const { post } = await budgetApp(4);
    // The page offered the next 4 at once after the first 4, and pressing it met the budget's refusal.
    const two = await post({ kind: 'refId', ids: ids(2) });
    expect(two.status).toBe(200);
    expect(two.headers['ratelimit-limit']).toBe('4');
    expect(two.headers['ratelimit-remaining']).toBe('2');
    const rest = await post({ kind: 'refId', ids: ids(2, 2) });
    expect(rest.headers['ratelimit-remaining']).toBe('0');
    const whole = Number(rest.headers['ratelimit-reset']);
    // The budget's minute, counted from its first id: whole again within it, and no sooner than the refusal says.
    expect(whole).toBeGreaterThan(0);
    expect(whole).toBeLessThanOrEqual(60);
    const refused = await post({ kind: 'refId', ids: ids(1, 4) });
    expect(refused.status).toBe(429);
    expect(JSON.parse(refused.body).error.retryAfterSeconds).toBeLessThanOrEqual(whole);
  });

  it('says nothing of a budget there is not (limits.batchIdsPerMinute 0)', async () => {
    const { post } = await budgetApp(0);
    const answer = await post({ kind: 'refId', ids: ids(3) });
    expect(answer.status).toBe(200);
    expect(Object.keys(answer.headers).filter((name) => name.startsWith('ratelimit-'))).toEqual([]);
  });

  it('gives the budget’s size with a refusal for its minute (429), so that the page offers a batch that fits, not a Retry of more', async () => {
    const { post } = await budgetApp(4);
    expect((await post({ kind: 'refId', ids: ids(4) })).status).toBe(200);
    // Refused unread (its first id finds the budget spent): a Retry of 6 ids after the wait met a 400 for its size.
    const unread = JSON.parse((await post({ kind: 'refId', ids: ids(6, 4) })).body).error;
    expect(unread).toMatchObject({ code: 'rate_limited', idsAtMost: 4 });
    expect(unread.message).toMatch(/^Your batch budget is used up for now: a batch can start in \d+ s\.$/);
  });

  it('attack: batch after batch over the budget spends it, once a minute given back at most, and is then refused unread', async () => {
    const { post, upstream } = await budgetApp(4);
    const statuses: number[] = [];
    for (let tries = 0; tries < 8; tries++) statuses.push((await post({ kind: 'refId', ids: ids(5) })).status);
    // The first refusal gives its id back; the next four each keep theirs; then the budget is spent and
    // the next is refused before its body is read (429), where every one had its body read and written.
    expect(statuses).toEqual([400, 400, 400, 400, 400, 429, 429, 429]);
    expect(upstream.seen).toHaveLength(0);
  });

  it('attack: bodies that are not batches keep the id they paid, so a flood of them spends the budget', async () => {
    const { post, upstream } = await budgetApp(3);
    // Not JSON, and JSON not of a batch's shape: the app never sends either; each costs its first id.
    expect((await post('{"kind":"refId","ids":[')).status).toBe(400);
    expect((await post({ kind: 'refId', ids: 'id0' })).status).toBe(400);
    expect((await post({ kind: 'refId', ids: [] })).status).toBe(400);
    const spent = await post({ kind: 'refId', ids: ids(1) });
    expect(spent.status).toBe(429);
    expect(JSON.parse(spent.body).error.code).toBe('rate_limited');
    expect(upstream.seen).toHaveLength(0);
  });
});
