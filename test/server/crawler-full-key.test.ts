import type http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { apiErrorBodySchema, apiMetaSchema } from '../../src/kyc/contract/api.ts';
import type { ArchivingFindings } from '../../src/server/archiving/archiving-findings.ts';
import { createArchivingGuard } from '../../src/server/archiving/archiving-guard.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { crawlerFullKeyWithheld } from '../../src/server/lookup/crawler-full-key.ts';
import { StoreUnavailableError } from '../../src/server/state/store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { COMPLIANCE, gateway, pageOf, SUPPORT } from './queue-fixture.ts';

/**
 * The queue's crawler reads the service's list; without a status-level key it can only read it with the
 * full key, and the current documentation's list records are whole. Found by the facts review (29
 * November): with a key that archives after extract, the crawler read every tab at start, before anyone
 * had opened a candidate, and went on every minute after the server had refused that key for lookups.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const soon = () => new Date(Date.now() + 10_000).toISOString();
const waiting = (n: number) => ({
  status: 'waiting',
  refId: `whole-${n}`,
  isArchived: false,
  waitingDate: '2026-11-01T10:00:00.000Z',
  identities: { given_name: { type: 'string', value: `Name ${n}` } },
});

/**
 * A service answering whole records with the full key. `lookupArchives`: a lookup's answer carries
 * willArchiveAtDate 10 s later; `listArchives`: so do the list's records. Once a record's date has
 * passed, it comes back archived, without identities, as the real service's would.
 */
async function wholeRecordService(options: { lookupArchives: boolean; listArchives: boolean; listDate?: unknown }) {
  const upstream = await startFakeUpstream();
  const deletedAt = new Map<string, number>();
  const recordOf = (n: number, archives: boolean) => {
    const at = deletedAt.get(`whole-${n}`);
    if (at !== undefined && at <= Date.now()) return { ...waiting(n), isArchived: true, identities: undefined };
    if (!archives) return waiting(n);
    const date = soon();
    deletedAt.set(`whole-${n}`, Date.parse(date));
    return { ...waiting(n), willArchiveAtDate: date };
  };
  upstream.behave = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const list = req.url!.includes('/applicants');
    const records = [0, 1, 2].map((n) =>
      options.listDate === undefined ? recordOf(n, options.listArchives) : { ...waiting(n), willArchiveAtDate: options.listDate },
    );
    const data = list
      ? { records: req.url!.includes('/applicants/waiting') || req.url!.includes('/applicants?') ? records : [], total: 3 }
      : recordOf(Number(req.url!.split('whole-')[1]), options.lookupArchives);
    const body = JSON.stringify({ status: 'success', data });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  return upstream;
}

async function appOn(upstream: Awaited<ReturnType<typeof startFakeUpstream>>, accept = false) {
  const audit = memoryAuditLog();
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key' },
    access: gateway(),
    audit,
    settings: { keyArchivesOnExtract: accept ? 'accept' : 'refuse' },
  });
  cleanups.push(async () => {
    await app.close();
    await upstream.close();
  });
  return { app, audit };
}

const listRequests = (upstream: { seen: ReadonlyArray<{ path: string }> }) => upstream.seen.filter((r) => r.path.includes('/applicants'));
const lookupRequests = (upstream: { seen: ReadonlyArray<{ path: string }> }) => upstream.seen.filter((r) => r.path.includes('/refId/'));
/** What the queue's tab says: a tab never read is answered with the crawler's failure, one read before names it in its state. */
async function queueSays(
  app: Awaited<ReturnType<typeof appOn>>['app'],
): Promise<{ status: number; code?: string; message?: string; withheld?: true }> {
  const res = await app.get('/api/applicants?status=waiting', SUPPORT);
  if (res.status === 200) {
    const error = pageOf(res).index?.error;
    return { status: 200, message: error?.message, ...(error?.withheld ? { withheld: true } : {}) };
  }
  const { error } = apiErrorBodySchema.parse(JSON.parse(res.body));
  return { status: res.status, code: error.code, message: error.message };
}

describe('the crawler without a status-level key: the list is never the read that deletes identity data', () => {
  it('attack: a key that archives after extract had every listed candidate deleted at start, nobody having opened one', async () => {
    const upstream = await wholeRecordService({ lookupArchives: true, listArchives: true });
    const { app, audit } = await appOn(upstream);
    await app.crawl();
    // Before: every tab read with the full key, and three whole records scheduled for deletion.
    expect(listRequests(upstream)).toEqual([]);
    expect(await queueSays(app)).toEqual({
      status: 503,
      code: 'archiving_check_unavailable',
      message: expect.stringMatching(
        /read once a lookup here has shown that the API key keeps identity data.*status-level key \(statusApiKeyEnv, or KYC_API_KEY_STATUS\)/,
      ),
    });
    // Nothing was sent: no audit line of a page.
    expect(audit.lines.filter((line) => line.kind === 'list' && 'queueIndex' in line && line.queueIndex)).toEqual([]);

    // A reviewer's lookup is the one request that finds out; then the list is not read either.
    expect((await app.get('/api/candidates/refId/whole-0', COMPLIANCE)).status).toBe(200);
    expect(apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', SUPPORT)).body)).archivingKey).toMatchObject({ accepted: false });
    await app.crawl();
    expect(listRequests(upstream)).toEqual([]);
    // The tab holds the row the lookup told the index of: it is shown, with why the list is not read.
    expect(await queueSays(app)).toEqual({
      status: 200,
      withheld: true,
      message: expect.stringMatching(/deletes identity data after extract.*every candidate on it deleted/),
    });
    // Only the one candidate a reviewer opened was ever asked for in full.
    expect(lookupRequests(upstream).map((r) => r.path)).toEqual(['/kyc/1.0/connect/c/refId/whole-0']);
  });

  it('with "archiveOnExtract": "accept" too: reviewers may delete what they open, the crawler never every candidate of a list', async () => {
    const upstream = await wholeRecordService({ lookupArchives: true, listArchives: true });
    const { app } = await appOn(upstream, true);
    expect((await app.get('/api/candidates/refId/whole-1', COMPLIANCE)).status).toBe(200);
    await app.crawl();
    expect(listRequests(upstream)).toEqual([]);
    expect(await queueSays(app)).toMatchObject({ message: expect.stringMatching(/deletes identity data after extract/) });
    // Accepted: the reviewer's next lookup goes ahead, as the operator chose.
    expect((await app.get('/api/candidates/refId/whole-2', COMPLIANCE)).status).toBe(200);
  });

  it('a key a full lookup has shown to keep data: the list is then read with it, and its rows shown', async () => {
    const upstream = await wholeRecordService({ lookupArchives: false, listArchives: false });
    const { app } = await appOn(upstream);
    await app.crawl();
    expect(listRequests(upstream)).toEqual([]);
    expect((await app.get('/api/candidates/refId/whole-0', COMPLIANCE)).status).toBe(200);
    await app.crawl();
    expect(listRequests(upstream).length).toBeGreaterThan(0);
    expect(
      new Set(listRequests(upstream).map((r) => (r as unknown as { headers: http.IncomingHttpHeaders }).headers.authorization)),
    ).toEqual(new Set(['full-key']));
    const page = pageOf(await app.get('/api/applicants?status=waiting', SUPPORT));
    expect(page.records.map((r) => r.refId).sort()).toEqual(['whole-0', 'whole-1', 'whole-2']);
    expect(page.index?.error).toBeUndefined();
  });

  it('a list page read with the full key whose records carry a close willArchiveAtDate is the finding: lookups refused, the list not read again', async () => {
    const upstream = await wholeRecordService({ lookupArchives: false, listArchives: true });
    const { app } = await appOn(upstream);
    expect((await app.get('/api/candidates/refId/whole-0', COMPLIANCE)).status).toBe(200);
    await app.crawl();
    const read = listRequests(upstream).length;
    expect(read).toBeGreaterThan(0);
    // Before: the list's dates were read for the queue and not shown to the archiving guard.
    expect(apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', SUPPORT)).body)).archivingKey).toMatchObject({ accepted: false });
    expect((await app.get('/api/candidates/refId/whole-1', COMPLIANCE)).status).toBe(409);
    await app.crawl();
    expect(listRequests(upstream).length).toBe(read);
  });

  for (const listDate of [1764549409000, 'soon', { at: 'soon' }]) {
    it(`attack: a list page whose records carry willArchiveAtDate ${JSON.stringify(listDate)} (no ISO text) is the finding all the same`, async () => {
      const upstream = await wholeRecordService({ lookupArchives: false, listArchives: true, listDate });
      const { app } = await appOn(upstream);
      expect((await app.get('/api/candidates/refId/whole-0', COMPLIANCE)).status).toBe(200);
      await app.crawl();
      // Before: a date that was not text was passed over, and the crawler went on reading with the key.
      expect(apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', SUPPORT)).body)).archivingKey).toMatchObject({ accepted: false });
      expect((await app.get('/api/candidates/refId/whole-1', COMPLIANCE)).status).toBe(409);
    });
  }
});

/** `n` waiting candidates as the older notes list them: no date, so the crawler looks each one up. */
const undated = (n: number) => ({ status: 'waiting', _id: `rec-${n}`, refId: `ref-${n}` });
const recordOf = (id: string) => ({
  status: 'waiting',
  recordId: id,
  refId: `ref-${id.slice(4)}`,
  isArchived: false,
  waitingDate: '2026-11-01T10:00:00.000Z',
});

describe("the crawler's list pages and its lookups take one rule of the full key (crawler-full-key.ts)", () => {
  it('neither is sent before a full lookup showed the key keeps data; both after; neither once the key is found to archive', async () => {
    const upstream = await startListUpstream([0, 1, 2].map(undated), (kind, id) => (kind === 'recordId' ? recordOf(id) : undefined));
    const { app } = await appOn(upstream);
    const pages = () => upstream.seen.filter((r) => r.path.includes('/applicants'));
    const lookups = () => upstream.seen.filter((r) => r.path.includes('/recordId/'));

    // Not yet shown safe: no list page, and so no lookup either.
    await app.crawl();
    expect(upstream.seen).toEqual([]);

    // A reviewer's full lookup without willArchiveAtDate: both go, with the full key.
    expect((await app.get('/api/candidates/recordId/rec-0', COMPLIANCE)).status).toBe(200);
    await app.crawl();
    const crawlerLookups = lookups().slice(1);
    expect(pages().length).toBeGreaterThan(0);
    expect(crawlerLookups.map((r) => r.path.split('/').pop()).sort()).toEqual(['rec-1', 'rec-2']);
    expect(new Set([...pages(), ...crawlerLookups].map((r) => r.headers.authorization))).toEqual(new Set(['full-key']));

    // The next page shows a close willArchiveAtDate (the finding) beside two new rows without a date: the
    // crawler's lookups of them are withheld as its next list page is, by the same finding.
    upstream.state.records.push({ ...waiting(9), willArchiveAtDate: soon() }, undated(3), undated(4));
    const sent = upstream.seen.length;
    await app.crawl();
    expect(apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', SUPPORT)).body)).archivingKey).toMatchObject({ accepted: false });
    expect(lookups().map((r) => r.path.split('/').pop())).not.toContain('rec-3');
    expect(lookups().map((r) => r.path.split('/').pop())).not.toContain('rec-4');
    const afterFinding = upstream.seen.length;
    expect(afterFinding).toBeGreaterThan(sent);
    await app.crawl();
    expect(upstream.seen.length).toBe(afterFinding);
  });
});

describe("the crawler's rule of the full key, each time it is asked", () => {
  const log = createLogger({ write: () => {} }, 'warn');
  /** Findings kept in memory (`stored`, or unreadable with `broken`), counting their reads. */
  const counted = (stored: string | undefined, broken: false | true | 'redis' = false) => {
    const findings: ArchivingFindings & { reads: number } = {
      reads: 0,
      describe: () => 'the test',
      read() {
        findings.reads++;
        if (broken === 'redis') return Promise.reject(new StoreUnavailableError('Redis cannot be reached'));
        return broken ? Promise.reject(Object.assign(new Error('denied'), { code: 'EACCES' })) : Promise.resolve(stored);
      },
      record: async () => true,
    };
    return findings;
  };
  const FOUND = '2026-11-22T14:02:10.000Z';

  it('reads the finding once, and says why not as the tab does: unknown, archives (accepted too), cannot be read', async () => {
    const cases = [
      { findings: counted(undefined), accept: false, code: 'archiving_check_unavailable', says: /read once a lookup here has shown/ },
      { findings: counted(FOUND), accept: false, code: 'archiving_key', says: /deletes identity data after extract/ },
      // Before: refusal() read it, found nothing to refuse, and state() read it again for the tab's words.
      { findings: counted(FOUND), accept: true, code: 'archiving_key', says: /deletes identity data after extract/ },
      { findings: counted(undefined, true), accept: false, code: 'archiving_check_unavailable', says: /cannot read its record/ },
      // Redis away is said as it is, not as a key that deletes identity data (it said so before).
      { findings: counted(undefined, 'redis'), accept: false, code: 'store_unavailable', says: /cannot reach its session store/ },
    ];
    for (const { findings, accept, code, says } of cases) {
      const archiving = createArchivingGuard({ accept, findings });
      const withheld = await crawlerFullKeyWithheld({ hasStatusKey: false, archiving }, log);
      expect(withheld, `${code}, accept ${accept}`).toMatchObject({ code, message: expect.stringMatching(says) });
      expect(findings.reads, `${code}, accept ${accept}`).toBe(1);
    }
  });

  it('with a status-level key, neither asks nor withholds anything', async () => {
    const findings = counted(FOUND);
    const archiving = createArchivingGuard({ accept: false, findings });
    expect(await crawlerFullKeyWithheld({ hasStatusKey: true, archiving }, log)).toBeUndefined();
    expect(findings.reads).toBe(0);
  });
});
