import { mkdtempSync, readFileSync } from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { type RunningSandbox, SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { virtualClock } from './clock.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { APP_HEADERS, ndjson, requestWithBody, startTestApp, type TestApp } from './http.ts';

const candidates = await sampleCandidates({ now: new Date() });
const known = candidates.filter((c) => c.record.refId).map((c) => c.record.refId!);
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-batch-'));
let n = 0;
const auditFile = () => path.join(dir, `audit-${++n}.jsonl`);
const readAudit = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const proxyAccess = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const as = (user: string, role: string) => ({ 'x-user': user, 'x-role': role });
const post = (app: TestApp, body: unknown, headers: http.OutgoingHttpHeaders = {}) =>
  requestWithBody(app.port, '/api/batch', typeof body === 'string' ? body : JSON.stringify(body), { headers });

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
});
afterAll(() => sandbox.close());

const sandboxTarget = (statusKey = true) => ({
  baseUrl: sandbox.url,
  clientId: sandbox.clientId,
  apiKey: SANDBOX_KEYS.full,
  ...(statusKey ? { statusApiKey: SANDBOX_KEYS.status } : {}),
});

/** A service answering each refId with the record `dataFor` gives it, or 404 for none. */
async function serviceAnswering(dataFor: (id: string) => Record<string, unknown> | undefined) {
  const upstream = await startFakeUpstream();
  cleanups.push(upstream.close);
  upstream.behave = (req, res) => {
    const data = dataFor(decodeURIComponent(req.url!.split('/').pop()!));
    const body = JSON.stringify(data ? { status: 'success', data } : { status: 'error', message: 'not found' });
    res.writeHead(data ? 200 : 404, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  return upstream;
}

/** The app on `upstream` with a status-level key, writing its audit lines to a file of its own. */
async function auditedApp(upstream: { url: string }, settings?: Parameters<typeof startTestApp>[0]['settings']) {
  const file = auditFile();
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
    audit: createAuditLog(file),
    access: proxyAccess(),
    ...(settings ? { settings } : {}),
  });
  cleanups.push(app.close);
  return { app, file };
}

describe('batch status lookup', () => {
  it('answers every id at status level, found, unknown or invalid, with an audit line each marked batch (the invalid ones counted in one)', async () => {
    const file = auditFile();
    const app = await startTestApp({ upstream: sandboxTarget(), audit: createAuditLog(file), access: proxyAccess() });
    cleanups.push(app.close);
    const ids = [...known, 'nobody-here', '..', 'bad\nline'];
    const res = await post(app, { kind: 'refId', ids }, as('ana', 'compliance'));
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-store');
    const events = ndjson(res.body);
    expect(events.at(-1)).toEqual({ type: 'done', found: known.length, failed: 3 });
    const rows = events.filter((e) => e.type === 'row');
    expect(rows.map((r) => r.index).sort((a, b) => Number(a) - Number(b))).toEqual(ids.map((_, i) => i));
    const byIndex = new Map(rows.map((r) => [r.index as number, r]));
    for (const [index, refId] of known.entries()) {
      const record = candidates.find((c) => c.record.refId === refId)!.record;
      const row = byIndex.get(index)!;
      expect(row).toMatchObject({ ok: true, status: record.status, refId, recordId: record.recordId ?? null });
      // The allowlist: nothing but status-level fields, whatever the role; and to a compliance user the
      // queue index's triage (batch-triage.test.ts), here nothing known yet: nobody looked them up in full.
      for (const key of Object.keys(row)) {
        expect([
          'type',
          'index',
          'ok',
          'status',
          'statusDate',
          'submitCount',
          'isArchived',
          'refId',
          'recordId',
          'foundBy',
          'triage',
        ]).toContain(key);
      }
      expect(row.triage).toEqual({ known: false });
      if (record.submitCount !== undefined) expect(row.submitCount).toBe(record.submitCount);
      // The archive flag, as the service said it (an archived candidate's identity data is gone).
      expect(row.isArchived).toBe(record.isArchived);
    }
    expect(byIndex.get(known.length)).toMatchObject({ ok: false, code: 'not_found' });
    expect(byIndex.get(known.length + 1)).toMatchObject({ ok: false, code: 'invalid_id' });
    expect(byIndex.get(known.length + 2)).toMatchObject({
      ok: false,
      code: 'invalid_id',
      message: expect.stringMatching(/control character/),
    });
    for (const key of Object.values(SANDBOX_KEYS)) expect(res.body).not.toContain(key);

    const [counted, ...lines] = readAudit(file);
    // The invalid ids first, counted, before any row was answered; never their text.
    expect(counted).toMatchObject({ kind: 'refusals', user: 'ana', env: 'default', batch: true, count: 2, codes: { invalid_id: 2 } });
    expect(lines).toHaveLength(ids.length - 2);
    expect(lines.every((l) => l.batch === true && l.user === 'ana' && l.env === 'default' && l.kind === 'refId')).toBe(true);
    expect(lines.map((l) => l.id).sort()).toEqual([...known, 'nobody-here'].sort());
    expect(lines.find((l) => l.id === known[0])).toMatchObject({ status: 200, code: null, upstreamStatus: 200, level: 'status' });
    expect(lines.find((l) => l.id === 'nobody-here')).toMatchObject({ status: 404, code: 'not_found', upstreamStatus: 404 });
  });

  it('never needs the full key when a status key is configured, and reduces to the allowlist when it is not', async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(upstream.close);
    const full = {
      status: 'approved',
      refId: 'r1',
      recordId: '65f1c2a9e4b0d3a1f0c9b801',
      isArchived: false,
      blockPassID: 'b',
      approvedDate: '2026-01-02T03:04:05.000Z',
      identities: { given_name: { type: 'string', value: 'SECRET-NAME' } },
      customFields: { riskLevel: 'SECRET-RISK' },
    };
    upstream.behave = (_req, res) => {
      const body = JSON.stringify({ status: 'success', data: full });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    for (const statusApiKey of ['status-key', undefined]) {
      upstream.seen.length = 0;
      const app = await startTestApp({
        upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', ...(statusApiKey ? { statusApiKey } : {}) },
        access: proxyAccess(),
      });
      cleanups.push(app.close);
      const res = await post(app, { kind: 'refId', ids: ['r1', 'r2', 'r3'] }, as('ana', 'compliance'));
      const rows = ndjson(res.body).filter((e) => e.type === 'row');
      expect(rows).toHaveLength(3);
      expect(rows[0]).toMatchObject({ ok: true, status: 'approved', statusDate: '2026-01-02T03:04:05.000Z', recordId: full.recordId });
      expect(res.body).not.toContain('SECRET');
      expect(upstream.seen.map((s) => s.headers.authorization)).toEqual(Array(3).fill(statusApiKey ?? 'full-key'));
      // Reduced bodies are read whole: never ask for compression.
      expect(upstream.seen.every((s) => s.headers['accept-encoding'] === 'identity')).toBe(true);
    }
  });

  it('looks up an id sent more than once once: one request to the service, one audit line, one id of the budget, a row for each place', async () => {
    const upstream = await serviceAnswering((id) => (id === 'nobody' ? undefined : { status: 'approved', refId: id, isArchived: false }));
    // A budget of 3 ids a minute: 6 places of 3 ids fit in it.
    const { app, file } = await auditedApp(upstream, { limits: { batchIdsPerMinute: 3 } });
    const ids = ['r1', 'r2', 'r1', 'nobody', 'r1', 'nobody'];
    const res = await post(app, { kind: 'refId', ids }, as('ana', 'compliance'));
    expect(res.status).toBe(200);
    const events = ndjson(res.body);
    const rows = events.filter((e) => e.type === 'row').sort((a, b) => Number(a.index) - Number(b.index));
    // Every place of the request has its row, as docs/api.md says: the answer's shape is unchanged.
    expect(rows.map((r) => [r.index, r.ok, r.refId ?? r.code])).toEqual([
      [0, true, 'r1'],
      [1, true, 'r2'],
      [2, true, 'r1'],
      [3, false, 'not_found'],
      [4, true, 'r1'],
      [5, false, 'not_found'],
    ]);
    expect(events.at(-1)).toEqual({ type: 'done', found: 4, failed: 2 });
    expect(upstream.seen.map((s) => s.path.split('/').pop()).sort()).toEqual(['nobody', 'r1', 'r2']);
    expect(
      readAudit(file)
        .map((l) => l.id)
        .sort(),
    ).toEqual(['nobody', 'r1', 'r2']);
  });

  it('attack: 500 copies of one id in a batch cost one request to the service and one audit line, not 500', async () => {
    const upstream = await serviceAnswering((id) => ({ status: 'waiting', refId: id, isArchived: false }));
    const { app, file } = await auditedApp(upstream);
    const res = await post(app, { kind: 'refId', ids: Array(500).fill('r1') }, as('eve', 'support'));
    const events = ndjson(res.body);
    expect(events.filter((e) => e.type === 'row' && e.ok === true)).toHaveLength(500);
    expect(events.at(-1)).toEqual({ type: 'done', found: 500, failed: 0 });
    expect(upstream.seen).toHaveLength(1);
    expect(readAudit(file)).toHaveLength(1);
  });

  it('names in a row the fields the answer held but could not be read (never their values), not blank as if not sent', async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(upstream.close);
    upstream.behave = (_req, res) => {
      const data = { status: 'approved', refId: 'r1', isArchived: 'SECRET-MAYBE', approvedDate: '2026-01-03 00:00:00', submitCount: 2 };
      const body = JSON.stringify({ status: 'success', data });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 'status-key' },
      access: proxyAccess(),
    });
    cleanups.push(app.close);
    const res = await post(app, { kind: 'refId', ids: ['r1'] }, as('ana', 'compliance'));
    const [row] = ndjson(res.body).filter((e) => e.type === 'row');
    expect(row).toMatchObject({ ok: true, status: 'approved', submitCount: 2, unread: ['isArchived', 'approvedDate'] });
    expect(res.body).not.toContain('SECRET');
  });

  it('streams rows as they finish, with bounded concurrency', async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(upstream.close);
    let running = 0;
    let most = 0;
    upstream.behave = (req, res) => {
      running++;
      most = Math.max(most, running);
      const id = decodeURIComponent(req.url!.split('/').pop()!);
      // Later ids answer sooner: rows arrive out of input order, each with its index.
      setTimeout(
        () => {
          running--;
          const body = JSON.stringify({ status: 'success', data: { status: 'waiting', refId: id, isArchived: false, blockPassID: 'b' } });
          res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
          res.end(body);
        },
        Number(id.slice(2)) % 2 === 0 ? 30 : 5,
      );
    };
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      settings: {
        batchConcurrency: 4,
      },
    });
    cleanups.push(app.close);
    const ids = Array.from({ length: 24 }, (_, i) => `id${i}`);
    const res = await post(app, { kind: 'refId', ids });
    const rows = ndjson(res.body).filter((e) => e.type === 'row');
    expect(rows.map((r) => r.refId)).not.toEqual(ids);
    expect(rows.every((r) => r.refId === ids[r.index as number])).toBe(true);
    expect(most).toBe(4);
  });

  /** Eight ids through a service that refuses id3 twice with 429 (with this Retry-After, if any), two lookups at a time. */
  async function batchRateLimitedTwice(retryAfter?: string) {
    const upstream = await startFakeUpstream();
    cleanups.push(upstream.close);
    let limited = 0;
    upstream.behave = (req, res) => {
      const id = decodeURIComponent(req.url!.split('/').pop()!);
      if (id === 'id3' && limited < 2) {
        limited++;
        res.writeHead(429, { ...(retryAfter === undefined ? {} : { 'retry-after': retryAfter }), 'content-length': 2 });
        return res.end('{}');
      }
      const body = JSON.stringify({ status: 'success', data: { status: 'approved', refId: id, isArchived: false, blockPassID: 'b' } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const file = auditFile();
    // The pauses pass on a clock of their own: `elapsed` is the time they would have taken.
    const clock = virtualClock();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      audit: createAuditLog(file),
      pauseClock: clock,
      settings: {
        batchConcurrency: 2,
      },
    });
    cleanups.push(app.close);
    const ids = Array.from({ length: 8 }, (_, i) => `id${i}`);
    const res = await post(app, { kind: 'refId', ids });
    return { events: ndjson(res.body), elapsed: clock.elapsed(), limited, file };
  }

  it("backs off on the service's 429, honouring Retry-After, without failing the batch", async () => {
    const { events, elapsed, file } = await batchRateLimitedTwice('1');
    expect(events.filter((e) => e.type === 'wait')).toEqual([
      { type: 'wait', seconds: 1 },
      { type: 'wait', seconds: 1 },
    ]);
    expect(events.at(-1)).toEqual({ type: 'done', found: 8, failed: 0 });
    expect(elapsed).toBeGreaterThanOrEqual(2000);
    // Every try reached the service, so every try has its line: two refused, then the one that worked.
    const id3 = readAudit(file).filter((l) => l.id === 'id3');
    expect(id3.map((l) => l.code)).toEqual(['upstream_rate_limited', 'upstream_rate_limited', null]);
  });

  it('backs off by itself, 1 then 2 s, on a 429 without Retry-After, rather than waiting a made-up minute', async () => {
    const { events, elapsed, limited } = await batchRateLimitedTwice();
    expect(events.filter((e) => e.type === 'wait')).toEqual([
      { type: 'wait', seconds: 1 },
      { type: 'wait', seconds: 2 },
    ]);
    expect(events.at(-1)).toEqual({ type: 'done', found: 8, failed: 0 });
    expect(limited).toBe(2);
    expect(elapsed).toBeGreaterThanOrEqual(3000);
    expect(elapsed).toBeLessThan(10_000);
  });

  it('stops starting lookups when the browser goes away', async () => {
    const upstream = await startFakeUpstream();
    cleanups.push(upstream.close);
    // The service holds every lookup: those under way when the browser goes are the batch's first two (its
    // concurrency; at status level with a status key, so that no first full answer is awaited before the rest).
    upstream.behave = () => {};
    const audit = memoryAuditLog();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 'sk' },
      audit,
      settings: {
        limits: {
          upstreamTimeoutMs: 60_000,
        },
        batchConcurrency: 2,
      },
    });
    cleanups.push(app.close);
    const body = JSON.stringify({ kind: 'refId', ids: Array.from({ length: 100 }, (_, i) => `id${i}`) });
    const req = http.request({
      host: '127.0.0.1',
      port: app.port,
      path: '/api/batch',
      method: 'POST',
      headers: { ...APP_HEADERS, 'content-type': 'application/json' },
    });
    req.on('error', () => {});
    req.end(body);
    await expect.poll(() => upstream.seen.length, { timeout: 10_000 }).toBe(2);
    req.destroy();
    // Both are cancelled with the browser's request, each with its audit line: a batch that went on would start the next one then.
    await expect
      .poll(() => audit.lines.flatMap((line) => ('batch' in line && line.batch === true && 'id' in line ? [line.id] : [])).sort(), {
        timeout: 10_000,
      })
      .toEqual(['id0', 'id1']);
    // A lookup after that, through the same server to the same service: by its answer, the batch has had every turn to start another.
    upstream.behave = (_req, res) => {
      const answer = JSON.stringify({
        status: 'success',
        data: { status: 'approved', refId: 'after', isArchived: false, blockPassID: 'b' },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(answer) });
      res.end(answer);
    };
    expect((await app.get('/api/candidates/refId/after')).status).toBe(200);
    expect(upstream.seen.map((seen) => seen.path.split('/').pop())).toEqual(['id0', 'id1', 'after']);
  });

  it.each([
    ['more than 500 ids', { kind: 'refId', ids: Array.from({ length: 501 }, (_, i) => `id${i}`) }, 400, /at most 500 ids/],
    ['no ids', { kind: 'refId', ids: [] }, 400, /the list of ids is empty/],
    ['an unknown kind', { kind: 'email', ids: ['a'] }, 400, /kind/],
    ['ids that are not strings', { kind: 'refId', ids: [1, 2] }, 400, /ids/],
    ['a body that is not JSON', '{"kind":', 400, /not valid JSON/],
  ])('refuses %s', async (_, body, status, message) => {
    const upstream = await startFakeUpstream();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' } });
    cleanups.push(app.close, upstream.close);
    const res = await post(app, body);
    expect(res.status).toBe(status);
    expect(JSON.parse(res.body).error.message).toMatch(message);
    expect(upstream.seen).toHaveLength(0);
  });

  it('refuses a body over its 1 MiB as 413 body_too_large, asking the service nothing', async () => {
    const upstream = await startFakeUpstream();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' } });
    cleanups.push(app.close, upstream.close);
    const res = await post(app, { kind: 'refId', ids: ['x'.repeat(1024 * 1024)] });
    expect(res.status).toBe(413);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'body_too_large', message: expect.stringMatching(/at most 500 ids/) });
    expect(upstream.seen).toHaveLength(0);
  });

  it('refuses other methods, other content types and anyone not signed in', async () => {
    const upstream = await startFakeUpstream();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    const body = JSON.stringify({ kind: 'refId', ids: ['a'] });
    expect((await requestWithBody(app.port, '/api/batch', body, { method: 'PUT', headers: as('ana', 'support') })).status).toBe(405);
    const text = await requestWithBody(app.port, '/api/batch', body, {
      headers: { ...as('ana', 'support'), 'content-type': 'text/plain' },
    });
    expect(text.status).toBe(415);
    expect(JSON.parse(text.body).error.code).toBe('unsupported_media_type');
    expect((await requestWithBody(app.port, '/api/batch', body)).status).toBe(401);
    expect(upstream.seen).toHaveLength(0);
  });

  it('has its own budget, reserved whole, refused with Retry-After and one audit line', async () => {
    const upstream = await startFakeUpstream();
    upstream.behave = (_req, res) => {
      res.writeHead(404, { 'content-length': 2 });
      res.end('{}');
    };
    const file = auditFile();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: proxyAccess(),
      audit: createAuditLog(file),
      settings: {
        limits: {
          lookupsPerMinute: 1,
          batchIdsPerMinute: 10,
        },
      },
    });
    cleanups.push(app.close, upstream.close);
    const ids = (count: number) => Array.from({ length: count }, (_, i) => `id${i}`);
    // The per-user lookup limit (1 a minute) does not apply to batches: they have their own.
    expect((await post(app, { kind: 'refId', ids: ids(8) }, as('sam', 'support'))).status).toBe(200);
    const refused = await post(app, { kind: 'refId', ids: ids(5) }, as('sam', 'support'));
    expect(refused.status).toBe(429);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(18);
    expect(JSON.parse(refused.body).error).toMatchObject({ code: 'rate_limited', message: expect.stringMatching(/batch budget/) });
    // Another user's budget is untouched.
    expect((await post(app, { kind: 'refId', ids: ids(5) }, as('ana', 'support'))).status).toBe(200);
    const tooBig = await post(app, { kind: 'refId', ids: ids(11) }, as('bob', 'support'));
    expect(tooBig.status).toBe(400);
    expect(JSON.parse(tooBig.body).error).toMatchObject({ message: expect.stringMatching(/at most 10 ids a minute/), idsAtMost: 10 });
    expect(upstream.seen).toHaveLength(13);
    const lines = readAudit(file);
    expect(lines.filter((l) => l.batchSize === 5)).toEqual([
      expect.objectContaining({ user: 'sam', status: 429, code: 'rate_limited', id: '', batch: true }),
    ]);
  });

  it('in refId mode, tries an id not found as a refId that has the form of a recordId as a recordId, as the search box does', async () => {
    const file = auditFile();
    const app = await startTestApp({ upstream: sandboxTarget(), audit: createAuditLog(file), access: proxyAccess() });
    cleanups.push(app.close);
    const noRefId = candidates.find((c) => !c.record.refId)!.record;
    const unknownHex = 'abcdefabcdefabcdefabcdef';
    const ids = [known[0]!, noRefId.recordId!, unknownHex, 'nobody-here'];
    const events = ndjson((await post(app, { kind: 'refId', ids }, as('sam', 'support'))).body);
    const byIndex = new Map(events.filter((e) => e.type === 'row').map((r) => [r.index as number, r]));
    expect(byIndex.get(0)).toMatchObject({ ok: true, refId: known[0] });
    expect(byIndex.get(0)).not.toHaveProperty('foundBy');
    expect(byIndex.get(1)).toMatchObject({ ok: true, status: noRefId.status, recordId: noRefId.recordId, foundBy: 'recordId' });
    expect(byIndex.get(2)).toMatchObject({ ok: false, code: 'not_found', message: `No candidate with refId or recordId "${unknownHex}".` });
    // Not the form of a recordId: not tried as one.
    expect(byIndex.get(3)).toMatchObject({ ok: false, code: 'not_found', message: 'No candidate with refId "nobody-here".' });
    expect(events.at(-1)).toEqual({ type: 'done', found: 2, failed: 2 });
    // Each lookup audited under its own kind, as the search box's two are.
    const lines = readAudit(file).map((l) => [l.kind, l.id, l.code]);
    expect(lines.sort()).toEqual(
      [
        ['refId', known[0], null],
        ['refId', noRefId.recordId, 'not_found'],
        ['recordId', noRefId.recordId, null],
        ['refId', unknownHex, 'not_found'],
        ['recordId', unknownHex, 'not_found'],
        ['refId', 'nobody-here', 'not_found'],
      ].sort(),
    );
    // In recordId mode a recordId's form is not tried the other way.
    const byRecord = ndjson((await post(app, { kind: 'recordId', ids: [unknownHex] }, as('sam', 'support'))).body);
    expect(byRecord[0]).toMatchObject({ ok: false, code: 'not_found', message: `No candidate with recordId "${unknownHex}".` });
  });

  it('in recordId mode, tries an id without the form of a recordId as a refId: a pasted list mixes both', async () => {
    const file = auditFile();
    const app = await startTestApp({ upstream: sandboxTarget(), audit: createAuditLog(file), access: proxyAccess() });
    cleanups.push(app.close);
    const withRecordId = candidates.find((c) => c.record.refId && c.record.recordId)!.record;
    const ids = [known[0]!, withRecordId.recordId!, 'nobody-here'];
    const events = ndjson((await post(app, { kind: 'recordId', ids }, as('sam', 'support'))).body);
    const byIndex = new Map(events.filter((e) => e.type === 'row').map((r) => [r.index as number, r]));
    expect(byIndex.get(0)).toMatchObject({ ok: true, refId: known[0], foundBy: 'refId' });
    expect(byIndex.get(1)).toMatchObject({ ok: true, recordId: withRecordId.recordId });
    expect(byIndex.get(1)).not.toHaveProperty('foundBy');
    expect(byIndex.get(2)).toMatchObject({ ok: false, code: 'not_found', message: 'No candidate with refId or recordId "nobody-here".' });
    expect(events.at(-1)).toEqual({ type: 'done', found: 2, failed: 1 });
    const lines = readAudit(file).map((l) => [l.kind, l.id, l.code]);
    expect(lines.sort()).toEqual(
      [
        ['recordId', known[0], 'not_found'],
        ['refId', known[0], null],
        ['recordId', withRecordId.recordId, null],
        ['recordId', 'nobody-here', 'not_found'],
        ['refId', 'nobody-here', 'not_found'],
      ].sort(),
    );
  });

  it('stops after 5 lookups in a row found the service unreachable, says how many were not looked up, and the rest can be retried', async () => {
    const down = await startSandbox({ candidates, testControls: true });
    cleanups.push(() => down.close());
    const control = (path: string, body: unknown) =>
      fetch(`${down.url}${path}`, { method: 'POST', body: JSON.stringify(body) }).then((r) => expect(r.status).toBe(200));
    const file = auditFile();
    const app = await startTestApp({
      upstream: { baseUrl: down.url, clientId: down.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
      audit: createAuditLog(file),
      settings: {
        batchConcurrency: 2,
      },
    });
    cleanups.push(app.close);
    // Three answers, then the service is gone.
    await control('/_test/outage', { after: 3 });
    // Each id once: a repeated id is looked up once, and its rows would count as many lookups.
    const ids = [...known];
    expect(ids.length).toBeGreaterThan(10);
    const events = ndjson((await post(app, { kind: 'refId', ids })).body);
    const rows = events.filter((e) => e.type === 'row');
    const failed = rows.filter((r) => r.ok === false);
    expect(rows.filter((r) => r.ok === true)).toHaveLength(3);
    expect(failed.every((r) => r.code === 'upstream_unreachable')).toBe(true);
    // Five in a row, and the one lookup that was under way beside them (two at a time): no more.
    expect(failed.length).toBeGreaterThanOrEqual(5);
    expect(failed.length).toBeLessThanOrEqual(6);
    const stopped = events.find((e) => e.type === 'stopped');
    expect(stopped).toEqual({
      type: 'stopped',
      code: 'upstream_unreachable',
      message: expect.stringMatching(/could not be reached/),
      inARow: 5,
      notLookedUp: ids.length - rows.length,
    });
    expect(events.at(-1)).toEqual({ type: 'done', found: 3, failed: failed.length });
    expect(readAudit(file)).toHaveLength(rows.length);

    // The service is back: the ids without a row and those that failed are looked up again, all found.
    await control('/_test/reset', {});
    const answered = new Set(rows.filter((r) => r.ok === true).map((r) => r.index as number));
    const rest = ids.filter((_, i) => !answered.has(i));
    const retried = ndjson((await post(app, { kind: 'refId', ids: rest })).body);
    expect(retried.at(-1)).toEqual({ type: 'done', found: rest.length, failed: 0 });
  });

  it('finishes 200 ids against the sandbox with no errors (the figure is printed, not asserted)', async () => {
    const app = await startTestApp({ upstream: sandboxTarget() });
    cleanups.push(app.close);
    const ids = Array.from({ length: 200 }, (_, i) => known[i % known.length]! + (i < known.length ? '' : `-x${i}`));
    const started = performance.now();
    const res = await post(app, { kind: 'refId', ids });
    const ms = performance.now() - started;
    const done = ndjson(res.body).at(-1);
    expect(done).toEqual({ type: 'done', found: known.length, failed: 200 - known.length });
    expect(ndjson(res.body).filter((e) => e.type === 'row' && e.ok === false && e.code !== 'not_found')).toEqual([]);
    console.log(`batch of 200 ids against the sandbox: ${Math.round(ms)} ms`);
  });
});
