import { mkdtempSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { candidateEnvelopeSchema, type CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createAuditLog, type AuditEntry } from '../../src/server/audit/audit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { ARCHIVE_DEMO_REF_ID, archiveDemoCandidates } from '../../src/server/sandbox/queue-candidates.ts';
import { SANDBOX_ARCHIVE_KEY, SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { type Behaviour, startFakeUpstream } from './fake-upstream.ts';
import { getBytes, partsOf, recordPartOf } from './parts.ts';
import { ndjson, requestWithBody, startTestApp, type TestApp, testEnvironment } from './http.ts';
import { errorOf } from './service-app.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-archiving-'));
const record: CandidateRecord = (await sampleCandidates({ now: new Date() }))[0]!.record;
const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const gateway = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  vi.useRealTimers();
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A service whose full key archives after extract: every answer to it carries willArchiveAtDate 10 s
 * later (or whatever `archivesIn` says). The status key's answers carry no identity data.
 */
async function archivingService(
  options: { archivesInMs?: number; archivesAt?: string; statusKey?: boolean; accept?: boolean; delayMs?: number } = {},
) {
  const upstream = await startFakeUpstream();
  const answer = (req: http.IncomingMessage, res: http.ServerResponse) => {
    if (req.url!.includes('/applicants')) {
      const body = JSON.stringify({ status: 'success', data: { records: [], total: 0, skip: 0, limit: 50 } });
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      return res.end(body);
    }
    const full = req.headers.authorization === 'full-key';
    // The candidate asked for, whichever refId (another's record is refused: other-candidate.test.ts).
    const asked = /\/refId\/([^/?]+)$/.exec(req.url ?? '')?.[1];
    const refId = asked ? decodeURIComponent(asked) : record.refId;
    const data = full
      ? { ...record, refId, willArchiveAtDate: options.archivesAt ?? new Date(Date.now() + (options.archivesInMs ?? 10_000)).toISOString() }
      : { status: record.status, refId, recordId: record.recordId, isArchived: false, blockPassID: record.blockPassID };
    let body = Buffer.from(JSON.stringify({ status: 'success', data }));
    const headers: http.OutgoingHttpHeaders = { 'content-type': 'application/json' };
    if (/\bgzip\b/.test(String(req.headers['accept-encoding'] ?? ''))) {
      body = zlib.gzipSync(body);
      headers['content-encoding'] = 'gzip';
    }
    res.writeHead(200, { ...headers, 'content-length': body.length });
    res.end(body);
  };
  // A service that takes its time, so that lookups made at once are under way together.
  const archiving: Behaviour = (req, res) => void setTimeout(() => answer(req, res), options.delayMs ?? 0);
  upstream.behave = archiving;
  const auditFile = path.join(dir, `audit-${Math.random().toString(36).slice(2)}.jsonl`);
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', ...(options.statusKey ? { statusApiKey: 'status-key' } : {}) },
    access: gateway(),
    audit: createAuditLog(auditFile),
    settings: {
      limits: {
        // No test here is about the service's timeout: a loaded machine must not turn a held answer into a 504.
        upstreamTimeoutMs: 30_000,
      },
      keyArchivesOnExtract: options.accept ? 'accept' : 'refuse',
    },
  });
  cleanups.push(async () => {
    await app.close();
    await upstream.close();
  });
  const audit = () =>
    readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditEntry);
  return { upstream, app, audit, archiving };
}

const meta = async (app: TestApp) => apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', COMPLIANCE)).body));
const warnings = (app: TestApp) =>
  app.logs
    .map((line) => JSON.parse(line) as { level: string; msg: string })
    .filter((line) => line.level === 'warn')
    .map((line) => line.msg);
const LOOKUP = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;

describe('a key that archives after extract', () => {
  it('is detected by the first full answer, warned once, then full lookups are refused before reaching the service', async () => {
    const { upstream, app, audit } = await archivingService({ statusKey: true });
    expect((await meta(app)).archivingKey).toBeUndefined();

    const first = await app.get(LOOKUP, COMPLIANCE);
    expect(first.status, first.body).toBe(200);
    expect(candidateEnvelopeSchema.parse(JSON.parse(first.body)).data.willArchiveAtDate).toBeDefined();
    expect((await meta(app)).archivingKey).toMatchObject({ accepted: false });
    // Support users have a status key here: nothing to say about them.
    expect((await meta(app)).archivingKey?.supportUsesFullKey).toBeUndefined();
    expect(warnings(app)).toHaveLength(1);
    expect(warnings(app)[0]).toMatch(
      /archives identity data after each full lookup.*1\d s after the lookup|archives identity data after each full lookup.*[89] s after the lookup/,
    );
    expect(warnings(app)[0]).toContain('set "archiveOnExtract": "accept" in CONFIG_FILE');
    // On the log of the lookup that found it: its request id and route shape.
    expect(app.logs.map((line) => JSON.parse(line)).find((line) => line.level === 'warn')).toMatchObject({
      reqId: first.headers['x-request-id'],
      route: '/api/candidates/refId/:id',
    });
    // No id, no key, no candidate data in the warning.
    for (const secret of [record.refId!, record.recordId!, 'full-key', record.identities!.email!.value]) {
      expect(warnings(app)[0]).not.toContain(secret);
    }

    const asked = upstream.seen.length;
    const second = await app.get(LOOKUP, COMPLIANCE);
    expect(second.status).toBe(409);
    expect(second.headers['cache-control']).toBe('no-store');
    expect(errorOf(second).code).toBe('archiving_key');
    expect(errorOf(second).message).toMatch(/archive after extract/);
    expect(errorOf(second).message).toContain('set "archiveOnExtract": "accept" for this environment in CONFIG_FILE');
    const byRecordId = await app.get(`/api/candidates/recordId/${record.recordId}`, COMPLIANCE);
    expect(byRecordId.status).toBe(409);
    expect(upstream.seen.length).toBe(asked);
    expect(warnings(app)).toHaveLength(1);
    expect(audit().at(-1)).toMatchObject({ kind: 'recordId', status: 409, code: 'archiving_key', upstreamStatus: null, level: null });

    // Status-level lookups (support users with the status key) and the queue are unaffected.
    const support = await app.get(LOOKUP, SUPPORT);
    expect(support.status).toBe(200);
    expect(JSON.parse(support.body).data.identities).toBeUndefined();
    expect((await app.get('/api/applicants', COMPLIANCE)).status).toBe(200);
    expect((await app.get('/api/applicants', SUPPORT)).status).toBe(200);
    // The queue is read from its index, which the crawler fills with the status key too.
    await app.crawl();
    const after = upstream.seen.slice(asked).map((r) => r.headers.authorization);
    expect(after.length).toBeGreaterThan(1);
    expect(new Set(after)).toEqual(new Set(['status-key']));
  });

  it('with "archiveOnExtract": "accept", is detected and said, but lookups go on', async () => {
    const { upstream, app } = await archivingService({ accept: true });
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    expect((await meta(app)).archivingKey).toMatchObject({ accepted: true });
    expect(warnings(app)).toHaveLength(1);
    expect(warnings(app)[0]).toContain('"archiveOnExtract": "accept" is set');
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    expect(upstream.seen).toHaveLength(2);
  });

  it('is detected whatever the browser accepts: the answer is asked for uncompressed', async () => {
    const { upstream, app } = await archivingService();
    const first = await app.get(LOOKUP, { ...COMPLIANCE, 'accept-encoding': 'gzip, deflate, br, zstd' });
    expect(first.status).toBe(200);
    expect(upstream.seen[0]!.headers['accept-encoding']).toBe('identity');
    expect(first.headers['content-encoding']).toBeUndefined();
    await expect.poll(async () => (await meta(app)).archivingKey).toMatchObject({ accepted: false });
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(409);
  });

  it('support users without a status key look with the full key: detected and refused the same way, and /api/meta says so', async () => {
    const { upstream, app } = await archivingService();
    const first = await app.get(LOOKUP, SUPPORT);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).data.identities).toBeUndefined();
    expect(JSON.parse(first.body).data.willArchiveAtDate).toBeDefined();
    expect(upstream.seen[0]!.headers.authorization).toBe('full-key');
    // For the operator's banner: support users need a status-level key.
    expect((await meta(app)).archivingKey).toMatchObject({ accepted: false, supportUsesFullKey: true });
    const second = await app.get(LOOKUP, SUPPORT);
    expect(second.status).toBe(409);
    expect(errorOf(second).code).toBe('archiving_key');
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(409);
    expect(upstream.seen).toHaveLength(1);
  });

  it('is detected on an answer in parts (Accept: multipart/mixed), which is then refused too', async () => {
    const { upstream, app } = await archivingService();
    const first = await getBytes(app.port, LOOKUP, COMPLIANCE);
    expect(first.status).toBe(200);
    expect(String(first.headers['content-type'])).toMatch(/^multipart\/mixed/);
    const record = recordPartOf(await partsOf(first));
    expect(JSON.parse(record!.body.toString('utf8')).data.willArchiveAtDate).toBeDefined();
    expect((await meta(app)).archivingKey).toMatchObject({ accepted: false });
    const second = await getBytes(app.port, LOOKUP, COMPLIANCE);
    expect(second.status).toBe(409);
    expect(JSON.parse(second.body.toString('utf8')).error.code).toBe('archiving_key');
    expect(upstream.seen).toHaveLength(1);
  });

  it('a batch without a status key looks with the full key: refused per id once the key is known', async () => {
    const { upstream, app } = await archivingService();
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    const asked = upstream.seen.length;
    const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: [record.refId, 'another'] }), {
      headers: COMPLIANCE,
    });
    const rows = res.body
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .filter((event) => event.type === 'row');
    expect(rows).toHaveLength(2);
    for (const row of rows) expect(row).toMatchObject({ ok: false, code: 'archiving_key' });
    expect(upstream.seen.length).toBe(asked);
  });

  it('an archive date weeks away that stays put (set by another key) is not mistaken for it, however often it is looked up', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { upstream, app } = await archivingService({ archivesAt: new Date(Date.now() + 20 * 24 * 3600_000).toISOString() });
    for (let i = 0; i < 3; i++) {
      expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
      vi.setSystemTime(Date.now() + 10 * 60_000);
    }
    expect(upstream.seen).toHaveLength(3);
    expect((await meta(app)).archivingKey).toBeUndefined();
    expect(warnings(app)).toEqual([]);
  });

  it('a key whose delay is days (no date within a day of the lookup) is detected by the next full lookup of the same candidate', async () => {
    vi.useFakeTimers({ toFake: ['Date'] });
    const { upstream, app } = await archivingService({ archivesInMs: 3 * 24 * 3600_000 });
    // One answer alone cannot tell it from a date another key set; looked up again at once, neither.
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    expect((await meta(app)).archivingKey).toBeUndefined();
    // Two minutes later, its date has moved two minutes with it: each lookup schedules the deletion anew.
    vi.setSystemTime(Date.now() + 2 * 60_000);
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    await vi.waitFor(async () => expect((await meta(app)).archivingKey).toMatchObject({ accepted: false }), { timeout: 5000 });
    expect(warnings(app)).toEqual([expect.stringMatching(/for deletion 3 days after the lookup\. Full lookups are refused from now on/)]);
    const refused = await app.get(LOOKUP, COMPLIANCE);
    expect(refused.status).toBe(409);
    expect(errorOf(refused).message).toMatch(/a set time after it is looked up/);
    expect(upstream.seen).toHaveLength(3);
  });
});

describe('full lookups at once, before the key is known', () => {
  it('only one reaches a service whose key archives; the others are refused once its answer is seen', async () => {
    const { upstream, app } = await archivingService({ delayMs: 300 });
    const users = ['ana', 'bea', 'cai', 'dov'].map((user) => ({ 'x-user': user, 'x-role': 'compliance' }));
    const answers = await Promise.all([...users, ...users].map((headers) => app.get(LOOKUP, headers)));
    expect(answers.map((res) => res.status).sort()).toEqual([200, 409, 409, 409, 409, 409, 409, 409]);
    expect(upstream.seen).toHaveLength(1);
  });

  it('a batch without a status key sends one id, and refuses the rest once its answer is seen', async () => {
    const { upstream, app } = await archivingService({ delayMs: 200 });
    const ids = ['a', 'b', 'c', 'd', 'e', 'f'];
    const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids }), { headers: COMPLIANCE });
    const rows = ndjson(res.body).filter((event) => event.type === 'row');
    expect(rows.filter((row) => row.ok)).toHaveLength(1);
    expect(rows.filter((row) => row.code === 'archiving_key')).toHaveLength(ids.length - 1);
    expect(upstream.seen).toHaveLength(1);
  });

  it('once a full answer showed an ordinary key, full lookups go at once again', async () => {
    const { upstream, app, archiving } = await archivingService({ archivesInMs: 20 * 24 * 3600_000 });
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    // The service holds each lookup until three are with it at once, which only lookups sent together can
    // be (one after the other, each would wait for the one before: its own 5 s, then answered anyway).
    const held: Array<() => void> = [];
    let together = 0;
    upstream.behave = (req, res) => {
      const timer = setTimeout(() => {
        held.splice(held.indexOf(answer), 1);
        answer();
      }, 5000);
      const answer = () => {
        clearTimeout(timer);
        archiving(req, res);
      };
      held.push(answer);
      together = Math.max(together, held.length);
      if (held.length === 3) for (const go of held.splice(0)) go();
    };
    const answers = await Promise.all(['ana', 'bea', 'cai'].map((user) => app.get(LOOKUP, { 'x-user': user, 'x-role': 'compliance' })));
    expect(answers.map((res) => res.status)).toEqual([200, 200, 200]);
    expect(together).toBe(3);
    expect(upstream.seen).toHaveLength(4);
  });

  it('a first lookup the service fails (a 500) tells its failure to those waiting behind it; the next one made checks again', async () => {
    const { upstream, app, archiving } = await archivingService({ delayMs: 200 });
    let failFirst = true;
    const behave: Behaviour = (req, res) => {
      if (!failFirst) return archiving(req, res);
      failFirst = false;
      setTimeout(() => {
        res.writeHead(500, { 'content-type': 'application/json', 'content-length': 2 });
        res.end('{}');
      }, 200);
    };
    upstream.behave = behave;
    const answers = await Promise.all(['ana', 'bea', 'cai'].map((user) => app.get(LOOKUP, { 'x-user': user, 'x-role': 'compliance' })));
    // Before: the next one waiting was sent into the same service (archiving-wait.test.ts).
    expect(answers.map((res) => res.status)).toEqual([502, 502, 502]);
    expect(new Set(answers.map((res) => JSON.parse(res.body).error.message)).size).toBe(1);
    expect(upstream.seen).toHaveLength(1);
    expect((await app.get(LOOKUP, { 'x-user': 'dan', 'x-role': 'compliance' })).status).toBe(200);
    expect((await app.get(LOOKUP, { 'x-user': 'eve', 'x-role': 'compliance' })).status).toBe(409);
    expect(upstream.seen).toHaveLength(2);
  });
});

describe('the sandbox key that archives after extract, through the proxy', () => {
  it('the first lookup of its demonstration candidate is answered and detected, the second refused', async () => {
    const sandbox = await startSandbox({
      candidates: await sampleCandidates({ now: new Date() }),
      archiveKeyCandidates: await archiveDemoCandidates(new Date()),
    });
    const app = await startTestApp({
      upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_ARCHIVE_KEY, statusApiKey: SANDBOX_KEYS.status },
      access: gateway(),
    });
    cleanups.push(async () => {
      await app.close();
      await sandbox.close();
    });
    const first = await app.get(`/api/candidates/refId/${ARCHIVE_DEMO_REF_ID}`, COMPLIANCE);
    expect(first.status, first.body).toBe(200);
    const at = Date.parse(candidateEnvelopeSchema.parse(JSON.parse(first.body)).data.willArchiveAtDate!);
    expect(at - Date.now()).toBeGreaterThan(5_000);
    expect(at - Date.now()).toBeLessThanOrEqual(10_000);
    expect((await app.get(`/api/candidates/refId/${ARCHIVE_DEMO_REF_ID}`, COMPLIANCE)).status).toBe(409);
    // Support users look with the status key, which does not archive; the candidate is there for it too.
    expect((await app.get(LOOKUP, SUPPORT)).status).toBe(200);
    const support = await app.get(`/api/candidates/refId/${ARCHIVE_DEMO_REF_ID}`, SUPPORT);
    expect(support.status).toBe(200);
    expect(JSON.parse(support.body).data).toMatchObject({ refId: ARCHIVE_DEMO_REF_ID, status: 'waiting' });
    expect(JSON.parse(support.body).data.identities).toBeUndefined();
  });
});

describe('per environment', () => {
  it("one environment's archiving key leaves the others' full lookups alone", async () => {
    const { upstream: archiving } = await archivingService();
    const plain = await startSandbox({ candidates: await sampleCandidates({ now: new Date() }) });
    const app = await startTestApp({
      environments: [
        testEnvironment(
          { baseUrl: plain.url, clientId: plain.clientId, apiKey: SANDBOX_KEYS.full },
          { name: 'production', label: 'Production' },
        ),
        testEnvironment({ baseUrl: archiving.url, clientId: 'c', apiKey: 'full-key' }, { name: 'staging', label: 'Staging' }),
      ],
      access: gateway(),
    });
    cleanups.push(async () => {
      await app.close();
      await plain.close();
    });
    expect((await app.get(`/api/e/staging${LOOKUP.slice(4)}`, COMPLIANCE)).status).toBe(200);
    expect((await app.get(`/api/e/staging${LOOKUP.slice(4)}`, COMPLIANCE)).status).toBe(409);
    expect(warnings(app)).toHaveLength(1);
    expect(warnings(app)[0]).toContain('of Staging');
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    expect((await meta(app)).archivingKey).toBeUndefined();
    const stagingMeta = apiMetaSchema.parse(JSON.parse((await app.get('/api/e/staging/meta', COMPLIANCE)).body));
    expect(stagingMeta.archivingKey).toMatchObject({ accepted: false });
  });
});
