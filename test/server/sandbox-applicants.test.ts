import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { upstreamApplicantsEnvelopeSchema } from '../../src/kyc/contract/applicants.ts';
import { candidateEnvelopeSchema, type CandidateRecord, statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { BENCH_CANDIDATE_COUNT } from '../../src/server/sandbox/bench-people.ts';
import { sampleCandidates, type SandboxCandidate } from '../../src/server/sandbox/candidates.ts';
import { archiveDemoCandidates, QUEUE_CANDIDATE_COUNT, queueCandidates } from '../../src/server/sandbox/queue-candidates.ts';
import { samplesOf } from '../../src/server/composition/resolve-upstream.ts';
import { SANDBOX_SUPPORT_FIELDS } from '../../src/server/config/environments.ts';
import {
  SANDBOX_ARCHIVE_AFTER_SECONDS,
  SANDBOX_ARCHIVE_KEY,
  SANDBOX_CLIENT_ID,
  SANDBOX_KEYS,
  startSandbox,
  type RunningSandbox,
} from '../../src/server/sandbox/sandbox.ts';
import type { ListShape } from '../../src/server/config/file-schema.ts';
import type { OlderListRecord } from '../../src/server/sandbox/list-shapes.ts';
import { parseSandboxArgs } from '../../src/server/sandbox/sandbox-args.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { withClockAhead } from './clock.ts';
import { rawRequest, startTestApp } from './http.ts';
import { pageOf } from './queue-fixture.ts';

const now = new Date('2026-11-20T12:00:00.000Z');
const candidates = await sampleCandidates({ now });
const demo: SandboxCandidate = {
  record: { status: 'waiting', refId: 'archive-demo', recordId: 'archive-demo-record', isArchived: false, blockPassID: 'bp-demo' },
  summary: 'demo',
};
let sandbox: RunningSandbox;
let port: number;

beforeAll(async () => {
  sandbox = await startSandbox({ candidates, archiveKeyCandidates: [demo] });
  port = Number(new URL(sandbox.url).port);
});
afterAll(() => sandbox.close());

const get = (path: string, key: string | null = SANDBOX_KEYS.status) =>
  rawRequest(port, `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/${path}`, { headers: key === null ? {} : { authorization: key } });

async function list(path: string, key?: string) {
  const res = await get(path, key);
  expect(res.status, res.body).toBe(200);
  const data = upstreamApplicantsEnvelopeSchema.parse(JSON.parse(res.body)).data;
  // The older notes' shape, the sandbox's unless told (list-shapes.ts).
  return { ...data, records: data.records as OlderListRecord[] };
}

/** Every candidate of the service, the archive-after-extract demonstration included (it is there for every key). */
const records = [...candidates, demo].map((c) => c.record);
const withStatus = (status: string) => records.filter((r) => r.status === status);

describe('the sandbox list operation', () => {
  it('lists every candidate without a filter, in the documented shape, other statuses included', async () => {
    const page = await list('applicants?skip=0&limit=100');
    expect(page.total).toBe(records.length);
    expect(page.skip).toBe(0);
    expect(page.limit).toBe(100);
    expect(new Set(page.records.map((r) => r.status))).toEqual(new Set(records.map((r) => r.status)));
    const first = records[0]!;
    expect(page.records[0]).toEqual({
      status: first.status,
      isArchived: first.isArchived,
      _id: first.recordId,
      blockPassID: first.blockPassID,
      refId: first.refId,
    });
    // `refId` is left out for a candidate without one, as the facts doc says it may be.
    const noRef = page.records.find((r) => r._id === records.find((c) => !c.refId)!.recordId)!;
    expect(Object.keys(noRef).sort()).toEqual(['_id', 'blockPassID', 'isArchived', 'status']);
  });

  it.each(['waiting', 'inreview', 'approved', 'review_requested', 'rejected', 'blocked', 'incomplete'])('filters by %s', async (status) => {
    const page = await list(`applicants/${status}`);
    expect(page.total).toBe(withStatus(status).length);
    expect(page.records.map((r) => r._id)).toEqual(withStatus(status).map((r) => r.recordId));
  });

  it('pages by skip and limit, and serves at most 100', async () => {
    const first = await list('applicants?skip=0&limit=3');
    const second = await list('applicants?skip=3&limit=3');
    expect(first.records.map((r) => r._id)).toEqual(records.slice(0, 3).map((r) => r.recordId));
    expect(second.records.map((r) => r._id)).toEqual(records.slice(3, 6).map((r) => r.recordId));
    expect((await list('applicants?skip=1000')).records).toEqual([]);
    expect((await list('applicants?limit=5000')).limit).toBe(100);
  });

  it('accepts every status as a filter, and refuses an unknown one and counts that are not numbers', async () => {
    for (const path of ['applicants/escalated', 'applicants/WAITING', 'applicants?skip=-1', 'applicants?limit=ten']) {
      const res = await get(path);
      expect(res.status, path).toBe(400);
      expect(JSON.parse(res.body)).toMatchObject({ status: 'error', code: 400 });
    }
  });

  it('needs a known key and the right client', async () => {
    expect((await get('applicants', null)).status).toBe(401);
    expect((await get('applicants', 'nope')).status).toBe(401);
    const other = await rawRequest(port, '/kyc/1.0/connect/someone_else/applicants', { headers: { authorization: SANDBOX_KEYS.status } });
    expect(other.status).toBe(404);
  });
});

describe('the sandbox key that archives after extract', () => {
  const lookup = (kind: string, id: string, key: string) => get(`${kind}/${encodeURIComponent(id)}`, key);
  const parse = (body: string): CandidateRecord => candidateEnvelopeSchema.parse(JSON.parse(body)).data;

  it('announces the deletion 10 s after each full lookup, anew each time', async () => {
    const approved = records.find((r) => r.status === 'approved' && !r.isArchived && !r.willArchiveAtDate)!;
    const before = Date.now();
    const first = parse((await lookup('refId', approved.refId!, SANDBOX_ARCHIVE_KEY)).body);
    const after = Date.now();
    const at = Date.parse(first.willArchiveAtDate!);
    expect(at).toBeGreaterThanOrEqual(before + SANDBOX_ARCHIVE_AFTER_SECONDS * 1000);
    expect(at).toBeLessThanOrEqual(after + SANDBOX_ARCHIVE_AFTER_SECONDS * 1000);
    expect(first.identities).toBeDefined();
    // A lookup a minute later, on a clock moved ahead rather than waited for.
    const second = await withClockAhead(60_000, async () => parse((await lookup('refId', approved.refId!, SANDBOX_ARCHIVE_KEY)).body));
    expect(Date.parse(second.willArchiveAtDate!)).toBeGreaterThan(at);
  });

  it('other keys never see willArchiveAtDate set by it', async () => {
    const approved = records.find((r) => r.status === 'approved' && !r.isArchived && !r.willArchiveAtDate)!;
    const plain = parse((await lookup('refId', approved.refId!, SANDBOX_KEYS.full)).body);
    expect(plain.willArchiveAtDate).toBeUndefined();
  });

  it('its demonstration candidate is there for every key, as on the service; only that key gives it a date', async () => {
    for (const key of [SANDBOX_KEYS.status, SANDBOX_KEYS.identity, SANDBOX_KEYS.full]) {
      const found = await lookup('refId', 'archive-demo', key);
      expect(found.status).toBe(200);
      expect(parse(found.body).willArchiveAtDate).toBeUndefined();
      const all = await list('applicants?limit=100', key);
      expect(all.total).toBe(records.length);
      expect(all.records.map((r) => r.refId)).toContain('archive-demo');
    }
    expect(parse((await lookup('refId', 'archive-demo', SANDBOX_ARCHIVE_KEY)).body).willArchiveAtDate).toBeDefined();
    expect((await list('applicants?limit=100', SANDBOX_ARCHIVE_KEY)).total).toBe(records.length);
  });

  it('deletes the demonstration candidate once the deadline has passed, for every key, until the test reset', async () => {
    const [ada] = await archiveDemoCandidates(now);
    const own = await startSandbox({ candidates, archiveKeyCandidates: [ada!], archiveAfterMs: 300, testControls: true });
    try {
      const at = (path: string, key: string) =>
        rawRequest(Number(new URL(own.url).port), `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/${path}`, { headers: { authorization: key } });
      const demoPath = `refId/${ada!.record.refId}`;
      const first = parse((await at(demoPath, SANDBOX_ARCHIVE_KEY)).body);
      expect(first).toMatchObject({ isArchived: false });
      expect(first.identities).toBeDefined();
      // Other candidates are only told a date: the sandbox's samples stay whole for everyone else.
      const approved = records.find((r) => r.status === 'approved' && !r.isArchived)!;
      expect(parse((await at(`refId/${approved.refId}`, SANDBOX_ARCHIVE_KEY)).body).willArchiveAtDate).toBeDefined();
      // Past the deadline (300 ms), on a clock moved ahead rather than waited for: once archived, it stays so.
      await withClockAhead(300, async () => {
        for (const key of [SANDBOX_KEYS.status, SANDBOX_KEYS.full, SANDBOX_ARCHIVE_KEY]) {
          const archived = parse((await at(demoPath, key)).body);
          expect(archived.isArchived).toBe(true);
          expect(archived.identities).toBeUndefined();
        }
      });
      // Nothing left to delete: the date it was deleted at, not a new one.
      expect(parse((await at(demoPath, SANDBOX_ARCHIVE_KEY)).body).willArchiveAtDate).toBe(first.willArchiveAtDate);
      expect(parse((await at(`refId/${approved.refId}`, SANDBOX_KEYS.full)).body).identities).toBeDefined();
      const listed = upstreamApplicantsEnvelopeSchema.parse(JSON.parse((await at('applicants?limit=100', SANDBOX_KEYS.status)).body));
      expect((listed.data.records as OlderListRecord[]).find((r) => r.refId === ada!.record.refId)).toMatchObject({ isArchived: true });

      const reset = await rawRequest(Number(new URL(own.url).port), '/_test/reset', { method: 'POST' });
      expect(reset.status).toBe(200);
      const again = parse((await at(demoPath, SANDBOX_KEYS.full)).body);
      expect(again.isArchived).toBe(false);
      expect(again.identities).toBeDefined();
    } finally {
      await own.close();
    }
  });
});

const queue = await queueCandidates(now);

describe('the candidates that exist for the queue', () => {
  it('give large-image mode more than two pages of 50, more than 50 of them waiting', () => {
    expect(queue).toHaveLength(QUEUE_CANDIDATE_COUNT);
    const largeModeTotal = records.length + BENCH_CANDIDATE_COUNT + queue.length;
    expect(largeModeTotal).toBeGreaterThan(100);
    // Even without the benchmark candidates.
    expect(queue.filter((c) => c.record.status === 'waiting').length).toBeGreaterThan(50);
    for (const status of ['inreview', 'approved', 'rejected']) expect(queue.some((c) => c.record.status === status)).toBe(true);
  });

  it('hold operator notes in the sandbox\'s support fields wherever a support user asks "why": every rejected and review-requested candidate', () => {
    const all = [...candidates, ...queue].map((c) => c.record);
    const asking = all.filter((record) => record.status === 'rejected' || record.status === 'review_requested');
    expect(asking.length).toBeGreaterThan(4);
    for (const record of asking) {
      const notes = SANDBOX_SUPPORT_FIELDS.filter((field) => typeof record.customFields?.[field] === 'string');
      expect(notes.length, String(record.refId)).toBeGreaterThanOrEqual(2);
      expect(notes, String(record.refId)).toContain(record.status === 'rejected' ? 'rejectionReason' : 'reviewReason');
    }
  });

  it('pass the shared schema, carry no pictures, and are not offered as samples', async () => {
    for (const { record } of [...queue, ...(await archiveDemoCandidates(now))]) {
      expect(() => candidateEnvelopeSchema.parse({ status: 'success', data: record })).not.toThrow();
    }
    expect(queue.every((c) => Object.values(c.record.identities ?? {}).every((a) => a.type !== 'base64'))).toBe(true);
    const samples = samplesOf([...candidates, ...queue]);
    expect(samples).toHaveLength(candidates.length);
  });

  it('ids are unique across every candidate of large-image mode', async () => {
    const ids = [...records, ...queue.map((c) => c.record), ...(await archiveDemoCandidates(now)).map((c) => c.record)];
    for (const kind of ['refId', 'recordId'] as const) {
      const values = ids.map((r) => r[kind]).filter(Boolean);
      expect(new Set(values).size).toBe(values.length);
    }
  });
});

describe("the sandbox list's published shapes (sandbox.listShape, --list-shape)", () => {
  /** A sandbox of the sample candidates whose list answers in `shape`; the list of `key` read raw. */
  async function shaped(shape: ListShape) {
    const own = await startSandbox({ candidates, listShape: shape });
    const at = async (key: string) => {
      const res = await rawRequest(Number(new URL(own.url).port), `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/applicants?limit=100`, {
        headers: { authorization: key },
      });
      expect(res.status, res.body).toBe(200);
      return upstreamApplicantsEnvelopeSchema.parse(JSON.parse(res.body)).data.records as Array<Record<string, unknown>>;
    };
    return { own, at };
  }

  it('current: whole records without _id or recordId, as the key’s scope allows (status level for a status-only key)', async () => {
    const { own, at } = await shaped('current');
    try {
      const byStatusKey = await at(SANDBOX_KEYS.status);
      const byFullKey = await at(SANDBOX_KEYS.full);
      const samples = candidates.map((c) => c.record);
      expect(byFullKey).toHaveLength(samples.length);
      for (const [index, record] of samples.entries()) {
        const { recordId: _recordId, ...whole } = record;
        expect(byFullKey[index]).toEqual(whole);
        expect(byStatusKey[index]).toEqual(
          Object.fromEntries(Object.entries(statusLevelOf(record)).filter(([field]) => field !== 'recordId')),
        );
        expect(byStatusKey[index]!.identities).toBeUndefined();
        expect(byStatusKey[index]!.waitingDate).toBe(record.waitingDate);
      }
      // A candidate without a refId has no id at all in this shape, as such a service would list it.
      expect(byFullKey.filter((r) => r.refId === undefined)).toHaveLength(samples.filter((r) => !r.refId).length);
      expect(
        (await at(SANDBOX_KEYS.identity)).flatMap((r) => Object.values((r.identities as object | undefined) ?? {})),
      ).not.toContainEqual(expect.objectContaining({ type: 'base64' }));
    } finally {
      await own.close();
    }
  });

  it('recordId: the current documentation’s whole records with their recordId, as some extractors read it; the queue opens them by it', async () => {
    const { own, at } = await shaped('recordId');
    try {
      const samples = candidates.map((c) => c.record);
      const byFullKey = await at(SANDBOX_KEYS.full);
      expect(byFullKey).toEqual(samples);
      const byStatusKey = await at(SANDBOX_KEYS.status);
      expect(byStatusKey.map((r) => r.recordId)).toEqual(samples.map((r) => r.recordId));
      expect(byStatusKey.every((r) => r.identities === undefined)).toBe(true);
      // The queue's crawler reads the recordId: Kwame Mensah, who has no refId, is a row here (with `current` he has no id at all).
      const app = await startTestApp({
        upstream: { baseUrl: own.url, clientId: SANDBOX_CLIENT_ID, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
      });
      try {
        await app.crawl();
        const rows = pageOf(await app.get('/api/applicants?limit=100', {})).records;
        const noRefId = samples.filter((r) => !r.refId);
        expect(noRefId.length).toBeGreaterThan(0);
        for (const record of noRefId) expect(rows.map((r) => r.recordId)).toContain(record.recordId);
      } finally {
        await app.close();
      }
    } finally {
      await own.close();
    }
  });

  it('early: the older notes’ records without isArchived', async () => {
    const { own, at } = await shaped('early');
    try {
      const records = await at(SANDBOX_KEYS.status);
      expect(records).toHaveLength(candidates.length);
      expect(records.every((r) => !('isArchived' in r) && typeof r._id === 'string' && typeof r.status === 'string')).toBe(true);
    } finally {
      await own.close();
    }
  });

  it('is chosen with --list-shape or CONFIG_FILE’s sandbox.listShape; any other value is refused, naming the shapes', () => {
    expect(parseSandboxArgs(['--list-shape', 'current'], {})).toMatchObject({ listShape: 'current' });
    expect(parseSandboxArgs([], {}).listShape).toBeUndefined();
    expect(() => parseSandboxArgs(['--list-shape', 'newest'], {})).toThrow(/--list-shape must be one of older, early, current, recordId/);
    expect(parseConfig({}, { sandbox: { listShape: 'early' } }).sandbox.listShape).toBe('early');
    expect(() => parseConfig({}, { sandbox: { listShape: 'newest' } })).toThrow(/sandbox\.listShape/);
  });
});
