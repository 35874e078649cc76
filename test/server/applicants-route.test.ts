import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createAuditLog, type ListAuditEntry } from '../../src/server/audit/audit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { virtualClock } from './clock.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { errorOf } from './service-app.ts';
import { startListUpstream } from './list-upstream.ts';
import { pageOf } from './queue-fixture.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-applicants-'));
const candidates = await sampleCandidates({ now: new Date() });
const records = candidates.map((c) => c.record);
let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
});
afterAll(() => sandbox.close());

/** A page's data, each row's presence rooms checked and left out (queue-fixture.ts). */
const page = pageOf;
const readAudit = (file: string) =>
  readFileSync(file, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as ListAuditEntry);
const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };

async function sandboxApp(options: { statusKey?: boolean; auditFile?: string; perMinute?: number; views?: number } = {}) {
  const app = await startTestApp({
    upstream: {
      baseUrl: sandbox.url,
      clientId: sandbox.clientId,
      apiKey: SANDBOX_KEYS.full,
      ...(options.statusKey === false ? {} : { statusApiKey: SANDBOX_KEYS.status }),
    },
    access: gateway(),
    ...(options.auditFile ? { audit: createAuditLog(options.auditFile) } : {}),
    settings: { limits: { lookupsPerMinute: options.perMinute ?? 0, queueViewsPerMinute: options.views ?? 0 } },
  });
  await app.crawl();
  return app;
}

/** The waits and the crawler on one virtual clock: the crawler rests after a 429 (crawler-pool.ts), and the rest passes at once. */
function onOneClock() {
  const clock = virtualClock();
  return { pauseClock: clock, queueCrawl: { start: false, clock } };
}

/** A fake service answering the list with the given body (or status), its queue read once by the crawler. */
async function fakeApp(answer: { status?: number; body: unknown }, extra: { statusKey?: string } = {}) {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    const text = typeof answer.body === 'string' ? answer.body : JSON.stringify(answer.body);
    res.writeHead(answer.status ?? 200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
    res.end(text);
  };
  const app = await startTestApp({
    upstream: {
      baseUrl: upstream.url,
      clientId: 'client one',
      apiKey: 'full-key',
      // Without a status-level key, the crawler reads no list before a full lookup showed the key keeps data (crawler-full-key.test.ts).
      statusApiKey: extra.statusKey ?? 'status-key',
    },
    access: gateway(),
    ...onOneClock(),
  });
  await app.crawl();
  return {
    upstream,
    app,
    close: async () => {
      await app.close();
      await upstream.close();
    },
  };
}

describe('GET /api/applicants on the sandbox', () => {
  it('answers a page of the listed fields only, no-store, for both roles', async () => {
    const app = await sandboxApp({ statusKey: true });
    for (const who of [COMPLIANCE, SUPPORT]) {
      const res = await app.get('/api/applicants?skip=0&limit=50', who);
      expect(res.status, res.body).toBe(200);
      expect(res.headers['cache-control']).toBe('no-store');
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      const data = page(res);
      expect(data).toMatchObject({ total: records.length, skip: 0, limit: 50 });
      expect(data.records).toHaveLength(Math.min(50, records.length));
      const first = records.find((r) => r.recordId === data.records[0]!.recordId)!;
      expect(data.records[0]).toEqual({
        status: first.status,
        isArchived: false,
        recordId: first.recordId,
        refId: first.refId,
        blockPassID: first.blockPassID,
        since: first[`${first.status}Date`],
      });
      for (const record of JSON.parse(res.body).data.records) {
        expect(
          // `dateless`: the index read the record and it holds no date of its status (a sandbox sample has none).
          Object.keys(record).every((key) =>
            ['status', 'isArchived', 'recordId', 'refId', 'blockPassID', 'serviceID', 'since', 'dateless', 'rooms'].includes(key),
          ),
        ).toBe(true);
      }
    }
    await app.close();
  });

  it('filters by the documented statuses and pages by skip and limit', async () => {
    const app = await sandboxApp();
    const waiting = page(await app.get('/api/applicants?status=waiting', COMPLIANCE));
    expect(waiting.total).toBe(records.filter((r) => r.status === 'waiting').length);
    expect(waiting.records.every((r) => r.status === 'waiting')).toBe(true);
    const whole = page(await app.get('/api/applicants?skip=0&limit=6', COMPLIANCE));
    const second = page(await app.get('/api/applicants?skip=3&limit=3', COMPLIANCE));
    expect(second.records).toEqual(whole.records.slice(3, 6));
    // An empty status is all of them.
    expect(page(await app.get('/api/applicants?status=&skip=0&limit=5', COMPLIANCE)).total).toBe(records.length);
    await app.close();
  });

  it('writes one audit line per view, kind "list", and counts in a bucket of its own, not the lookups’', async () => {
    const auditFile = path.join(dir, 'audit-list.jsonl');
    const app = await sandboxApp({ auditFile, perMinute: 1, views: 3, statusKey: true });
    expect((await app.get('/api/applicants?status=inreview&skip=0&limit=50', SUPPORT)).status).toBe(200);
    expect((await app.get('/api/applicants?status=waiting&limit=1', SUPPORT)).status).toBe(200);
    // A lookup takes from the lookups' bucket, untouched by the views.
    expect((await app.get(`/api/candidates/refId/${records[0]!.refId}`, SUPPORT)).status).toBe(200);
    expect((await app.get('/api/applicants?status=approved', SUPPORT)).status).toBe(200);
    const limited = await app.get('/api/applicants', SUPPORT);
    expect(limited.status).toBe(429);
    expect(errorOf(limited).code).toBe('rate_limited');
    expect(limited.headers['retry-after']).toMatch(/^\d+$/);
    // Another user has their own bucket.
    expect((await app.get('/api/applicants', COMPLIANCE)).status).toBe(200);
    await app.close();

    const lists = readAudit(auditFile).filter((line) => line.kind === 'list' && line.user !== '(queue-index)');
    expect(lists).toHaveLength(5);
    expect(lists[0]).toMatchObject({
      user: 'sam',
      role: 'support',
      kind: 'list',
      filter: 'inreview',
      skip: 0,
      limit: 50,
      records: records.filter((r) => r.status === 'inreview').length,
      status: 200,
      code: null,
      // Read from the index: the service was not asked.
      upstreamStatus: null,
      level: null,
    });
    expect(lists[1]).toMatchObject({ filter: 'waiting', skip: 0, limit: 1, records: 1 });
    expect(lists[3]).toMatchObject({ filter: 'all', status: 429, code: 'rate_limited', upstreamStatus: null, level: null, records: null });
    expect(lists[4]).toMatchObject({ user: 'ana', filter: 'all', limit: 50, status: 200 });
    // Whom each view showed, by the ids its rows carried and nothing else of them (before: no one, for a
    // view of status-level fields only, so a lead could not tell who had seen a candidate in the queue).
    const inReview = records.filter((r) => r.status === 'inreview');
    const idsOf = (ids: { refId?: string; recordId?: string }) => `${ids.refId}/${ids.recordId}`;
    expect((lists[0]!.candidates as Array<{ refId?: string; recordId?: string }>).map(idsOf).sort()).toEqual(inReview.map(idsOf).sort());
    expect(lists[0]).toMatchObject({ personalData: false });
    const text = JSON.stringify(lists);
    for (const record of inReview) expect(text).not.toContain(String(record.inreviewDate));
    expect(lists[3]).not.toHaveProperty('candidates');
  });

  it('needs a signed-in user and only answers GET', async () => {
    const app = await sandboxApp();
    expect((await app.get('/api/applicants')).status).toBe(401);
    const { rawRequest } = await import('./http.ts');
    const post = await rawRequest(app.port, '/api/applicants', { method: 'POST', headers: COMPLIANCE });
    expect(post.status).toBe(405);
    await app.close();
  });
});

describe('GET /api/applicants parameters', () => {
  it.each([
    ['status=escalated', /status must be one of waiting, inreview, review_requested, approved, rejected, blocked, incomplete/],
    ['status=WAITING', /status must be one of/],
    ['status=waiting/../../refId/x', /status must be one of/],
    ['skip=-1', /skip must be a whole number/],
    ['skip=1.5', /skip must be a whole number/],
    ['skip=99999999999', /skip must be a whole number/],
    ['limit=0', /limit must be a whole number from 1 to 100/],
    ['limit=101', /limit must be a whole number from 1 to 100/],
    ['limit=ten', /limit must be a whole number/],
    ['limit=%2B5', /limit must be a whole number/],
    ['refId=abc', /Unknown parameter "refId"/],
    ['skip=0&skip=50', /"skip" is given more than once/],
  ])('?%s is a 400 that never reaches the service', async (search, message) => {
    const auditFile = path.join(dir, `audit-400-${search.replace(/\W/g, '_')}.jsonl`);
    const upstream = await startFakeUpstream();
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' },
      access: gateway(),
      audit: createAuditLog(auditFile),
    });
    const res = await app.get(`/api/applicants?${search}`, COMPLIANCE);
    expect(res.status).toBe(400);
    expect(errorOf(res)).toMatchObject({ code: 'bad_request' });
    expect(errorOf(res).message).toMatch(message);
    expect(upstream.seen).toHaveLength(0);
    expect(readAudit(auditFile)).toEqual([
      expect.objectContaining({ kind: 'list', filter: null, status: 400, code: 'bad_request', upstreamStatus: null }),
    ]);
    await app.close();
    await upstream.close();
  });

  it('the crawler asks the service the documented path, with the status-level key when there is one', async () => {
    const { upstream, close } = await fakeApp(
      { body: { status: 'success', data: { records: [], total: 0, skip: 0, limit: 100 } } },
      { statusKey: 'status-key' },
    );
    expect(upstream.seen.map((r) => r.path).sort()).toEqual(
      ['waiting', 'inreview', 'review_requested', 'incomplete', 'approved', 'rejected', 'blocked', '']
        .map((filter) => `/kyc/1.0/connect/client%20one/applicants${filter ? `/${filter}` : ''}?skip=0&limit=100`)
        .sort(),
    );
    expect(new Set(upstream.seen.map((r) => r.headers.authorization))).toEqual(new Set(['status-key']));
    expect(upstream.seen[0]!.headers['accept-encoding']).toBe('identity');
    await close();
  });
});

describe('GET /api/applicants against what the service may answer', () => {
  it('reduces records to the listed fields, whatever else the service adds', async () => {
    const { app, close } = await fakeApp({
      body: {
        status: 'success',
        data: {
          records: [
            {
              status: 'waiting',
              isArchived: false,
              _id: 'rec-1',
              blockPassID: 'bp-1',
              refId: 'ref-1',
              identities: { email: { type: 'string', value: 'someone@example.org' } },
              customFields: { note: 'private' },
            },
            { status: 'some_new_status', isArchived: true, _id: 'rec-2', blockPassID: 'bp-2', refId: null },
          ],
          total: '2',
          skip: 0,
          limit: 50,
          debug: 'x',
        },
      },
    });
    const res = await app.get('/api/applicants', COMPLIANCE);
    expect(res.status).toBe(200);
    const data = page(res);
    expect(data.records).toEqual([
      { status: 'waiting', isArchived: false, recordId: 'rec-1', blockPassID: 'bp-1', refId: 'ref-1' },
      { status: 'some_new_status', isArchived: true, recordId: 'rec-2', blockPassID: 'bp-2' },
    ]);
    expect(data).toMatchObject({ total: 2, skip: 0, limit: 50, slaHours: 48 });
    expect(res.body).not.toContain('someone@example.org');
    await close();
  });

  it.each([
    ['records that are not a list', { status: 'success', data: { records: { status: 'waiting' }, total: 1 } }, /data\.records/],
    // Its reason is not kept in the index (it may name a candidate): only that the service refused.
    ['an error envelope with 200', { status: 'error', message: 'x' }, /^The KYC service refused the applicants list\.$/],
    ['a body that is not JSON', '<html>oops</html>', /is not JSON/],
  ])('%s is a 502 that names the problem', async (_name, body, message) => {
    const { app, close } = await fakeApp({ body });
    const res = await app.get('/api/applicants', COMPLIANCE);
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('upstream_error');
    expect(errorOf(res).message).toMatch(message);
    await close();
  });

  it('attack: the key with every character \\u-escaped in a listed field (a refId) is refused, never passed on', async () => {
    const escaped = [...'full-key'].map((char) => `\\u${char.charCodeAt(0).toString(16).padStart(4, '0')}`).join('');
    const body = `{"status":"success","data":{"records":[{"status":"waiting","isArchived":false,"refId":"${escaped}"}],"total":1}}`;
    const { app, close } = await fakeApp({ body });
    const res = await app.get('/api/applicants', COMPLIANCE);
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('KYC_BASE_URL') });
    expect(res.body).not.toContain('full-key');
    await close();
  });

  it('a list without framing, or compressed although none was asked for, is refused as a lookup would be', async () => {
    const upstream = await startFakeUpstream();
    const text = JSON.stringify({ status: 'success', data: { records: [], total: 0 } });
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 'status-key' },
      access: gateway(),
    });
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-encoding': 'gzip', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    await app.crawl();
    const compressed = await app.get('/api/applicants', COMPLIANCE);
    expect([compressed.status, errorOf(compressed).message]).toEqual([502, expect.stringContaining('compressed')]);
    upstream.behave = (_req, res) => {
      // HTTP/1.0 style: no length, no chunks, the end of the body is the end of the connection.
      res.socket!.end(`HTTP/1.1 200 OK\r\ncontent-type: application/json\r\nconnection: close\r\n\r\n${text}`);
    };
    await app.crawl();
    const unframed = await app.get('/api/applicants', COMPLIANCE);
    expect([unframed.status, errorOf(unframed).message]).toEqual([502, expect.stringContaining('without a length')]);
    await app.close();
    await upstream.close();
  });

  it('a service without the operation (404) is said so, not an error', async () => {
    const { app, close } = await fakeApp({ status: 404, body: { status: 'error', code: 404, message: 'Not Found' } });
    const res = await app.get('/api/applicants?status=waiting', COMPLIANCE);
    expect(res.status).toBe(404);
    expect(errorOf(res)).toEqual({ code: 'applicants_unavailable', message: 'This KYC service does not offer the applicants list.' });
    await close();
  });

  it('a 404 naming the client (an unknown client id) is said as that, not as a service without the list', async () => {
    const { app, close } = await fakeApp({ status: 404, body: { status: 'error', code: 404, message: 'Client not Found' } });
    const res = await app.get('/api/applicants?status=waiting', COMPLIANCE);
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_misconfigured', message: expect.stringContaining('KYC_CLIENT_ID') });
    await close();
  });

  it('a rejected key and a rate-limited service are told as for lookups', async () => {
    const unauthorized = await fakeApp({ status: 401, body: { status: 'error', code: 401, message: 'Unauthorized' } });
    expect(errorOf(await unauthorized.app.get('/api/applicants', COMPLIANCE)).code).toBe('upstream_unauthorized');
    await unauthorized.close();
    const limited = await fakeApp({ status: 429, body: {} });
    const res = await limited.app.get('/api/applicants', COMPLIANCE);
    expect(res.status).toBe(429);
    // The service gave no Retry-After: none is made up.
    expect(errorOf(res)).toEqual({ code: 'upstream_rate_limited', message: expect.stringContaining('Wait a minute') });
    expect(res.headers['retry-after']).toBeUndefined();
    await limited.close();
  });

  it('pages the index, whatever the service’s largest page is', async () => {
    const all = Array.from({ length: 130 }, (_, i) => ({ status: 'waiting', isArchived: false, _id: `rec-${i}`, blockPassID: `bp-${i}` }));
    const upstream = await startListUpstream(all);
    upstream.pageSize = 20;
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k', statusApiKey: 's' },
      access: gateway(),
    });
    await app.crawl();
    upstream.seen.length = 0;
    // Undated (the lookups find nothing): in the order the service listed them.
    const data = page(await app.get('/api/applicants?skip=100&limit=50', COMPLIANCE));
    expect(data.records.map((r) => r.recordId)).toEqual(all.slice(100, 130).map((r) => r._id));
    const first = page(await app.get('/api/applicants?limit=50', COMPLIANCE));
    expect(first.records.map((r) => r.recordId)).toEqual(all.slice(0, 50).map((r) => r._id));
    expect(upstream.seen).toHaveLength(0);
    await app.close();
    await upstream.close();
  });
});

describe('GET /api/applicants per environment', () => {
  it('/api/e/<name>/applicants lists that environment, and its audit line names it', async () => {
    const auditFile = path.join(dir, 'audit-env.jsonl');
    const staging = await startFakeUpstream();
    staging.behave = (_req, res) => {
      const text = JSON.stringify({
        status: 'success',
        data: { records: [{ status: 'waiting', isArchived: false, _id: 'staging-1' }], total: 1 },
      });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    };
    const app = await startTestApp({
      environments: [
        testEnvironment(
          { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
          { name: 'production' },
        ),
        testEnvironment(
          { baseUrl: staging.url, clientId: 'staging_client', apiKey: 'staging-key', statusApiKey: 'staging-status-key' },
          { name: 'staging' },
        ),
      ],
      access: gateway(),
      audit: createAuditLog(auditFile),
    });
    await app.crawl();
    expect(page(await app.get('/api/applicants', COMPLIANCE)).total).toBe(records.length);
    const res = await app.get('/api/e/staging/applicants?status=waiting', COMPLIANCE);
    expect(page(res).records).toEqual([{ status: 'waiting', isArchived: false, recordId: 'staging-1' }]);
    // The crawler read each environment's own list, with its own key.
    expect(staging.seen.map((r) => [r.path, r.headers.authorization])).toContainEqual([
      '/kyc/1.0/connect/staging_client/applicants/waiting?skip=0&limit=100',
      'staging-status-key',
    ]);
    expect((await app.get('/api/e/nowhere/applicants', COMPLIANCE)).status).toBe(404);
    // Refused for its environment, and audited as a page of the list all the same.
    const views = readAudit(auditFile).filter((line) => line.user === 'ana');
    expect(views.map((line) => line.env)).toEqual(['production', 'staging', 'nowhere']);
    expect(views.at(-1)).toMatchObject({ kind: 'list', status: 404, code: 'no_such_environment', filter: null });
    await app.close();
    await staging.close();
  });
});
