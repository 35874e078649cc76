import { afterEach, describe, expect, it } from 'vitest';
import { APPLICANT_FILTERS } from '../../src/kyc/contract/applicants.ts';
import type { ApiEnvironment } from '../../src/server/lookup/served-environment.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { queueCandidates } from '../../src/server/sandbox/queue-candidates.ts';
import { SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createQueueIndex } from '../../src/server/state/queue-index.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startTestApp, testEnvironment } from './http.ts';
import { startListUpstream } from './list-upstream.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { COMPLIANCE, gateway, pageOf, SUPPORT, wholeTab } from './queue-fixture.ts';

const HOUR_MS = 3_600_000;
const ago = (hours: number) => new Date(Date.now() - hours * HOUR_MS).toISOString();

const closing: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const close of closing.splice(0)) await close();
});

/**
 * The app on a fake service listing `records` as they are, with the full key only (the list is then
 * asked with it, as a whole record's scope allows), its queue read once by the crawler. A lookup of a
 * row without a date is answered by `lookup` (else 404: the row stays undated).
 */
async function listApp(
  records: unknown[],
  options: {
    environment?: Partial<ApiEnvironment>;
    store?: QueueIndexStore;
    lookup?: (kind: string, id: string) => unknown;
    /** Default true. */
    statusKey?: boolean;
    maxResponseBytes?: number;
  } = {},
) {
  const upstream = await startListUpstream(records, options.lookup);
  const audit = memoryAuditLog();
  const app = await startTestApp({
    environments: [
      {
        ...testEnvironment({
          baseUrl: upstream.url,
          clientId: 'client',
          apiKey: 'full-key',
          // The list read with the status-level key: without one, the crawler waits for a full lookup to show the
          // key keeps data (crawler-full-key.test.ts), which no test here is about.
          ...(options.statusKey === false ? {} : { statusApiKey: 'status-key' }),
        }),
        ...options.environment,
      },
    ],
    access: gateway(),
    audit,
    queueIndex: options.store ?? createMemoryQueueIndexStore(),
    ...(options.maxResponseBytes ? { settings: { limits: { maxResponseBytes: options.maxResponseBytes } } } : {}),
  });
  closing.push(async () => {
    await app.close();
    await upstream.close();
  });
  await app.crawl();
  return { app, upstream, audit };
}

/** A whole record as the current documentation lists it: no `_id`, no recordId, its dates and (full scope) its identities. */
function currentDocsRecord(n: number, status: string, hours: number, name = [`Given${n}`, `Family${n}`]) {
  return {
    status,
    refId: `ref-${n}`,
    submitCount: 1,
    blockPassID: `bp-${n}`,
    isArchived: false,
    waitingDate: ago(hours),
    ...(status === 'waiting' ? {} : { [`${status}Date`]: ago(hours / 2) }),
    customFields: { riskLevel: 'low' },
    identities: {
      given_name: { type: 'string', value: name[0] },
      family_name: { type: 'string', value: name[1] },
      email: { type: 'string', value: `person${n}@example.org` },
    },
    certs: { 'onfido-service-cert': '{"@context":[]}' },
  };
}

/** Waiting for 5 h, 80 h, 1 h, 30 h, 50 h, 200 h, 12 h and 49.5 h: five of them over an SLA of 24 hours. */
const WAITED = [5, 80, 1, 30, 50, 200, 12, 49.5];
const CURRENT_DOCS = [
  ...WAITED.map((hours, n) => currentDocsRecord(n, 'waiting', hours)),
  currentDocsRecord(100, 'approved', 300),
  currentDocsRecord(101, 'inreview', 20),
];

describe("the current documentation's list", () => {
  it("the current documentation's list: records without _id, whole, are ordered oldest first by their own waitingDate, counted against the SLA, each row known by its refId", async () => {
    const { app } = await listApp(CURRENT_DOCS, { environment: { queueSlaHours: 24 } });
    const { first, rows } = await wholeTab(app, 'waiting', 3);
    // Every date is the record's own: none had to be looked up.
    expect(first.order).toEqual({ by: 'age', known: WAITED.length, of: WAITED.length });
    const oldestFirst = WAITED.map((hours, n) => ({ hours, n }))
      .sort((a, b) => b.hours - a.hours)
      .map(({ n }) => `ref-${n}`);
    expect(rows.map((row) => row.refId)).toEqual(oldestFirst);
    for (const row of rows) {
      expect(row.recordId).toBeUndefined();
      expect(row.since).toBe(CURRENT_DOCS.find((record) => record.refId === row.refId)!.waitingDate);
    }
    expect(first).toMatchObject({ slaHours: 24, overSla: WAITED.filter((hours) => hours > 24).length });
    expect(first.overSlaPartial).toBeUndefined();
    const view = pageOf(await app.get('/api/applicants?status=waiting&counts=1', SUPPORT));
    expect(view.overSlaByTab?.waiting).toBe(5);
    // On All, each row's own status date.
    const all = pageOf(await app.get('/api/applicants', SUPPORT));
    expect(all.records.find((row) => row.refId === 'ref-101')?.since).toBe((CURRENT_DOCS.at(-1) as Record<string, unknown>).inreviewDate);
  });

  it("the current documentation's list: nobody gets the name a whole record holds, and the index keeps only ids, statuses and dates (issue 32)", async () => {
    const store = createMemoryQueueIndexStore();
    const records = [currentDocsRecord(1, 'waiting', 3, ['Zoë', 'Ångström']), currentDocsRecord(2, 'waiting', 4, ['秀英', '王'])];
    const { app, audit } = await listApp(records, { store });
    for (const who of [COMPLIANCE, SUPPORT]) {
      const res = await app.get('/api/applicants?status=waiting', who);
      expect(pageOf(res).records.every((row) => row.name === undefined)).toBe(true);
      for (const text of ['Zoë', 'Ångström', '秀英', 'person1@example.org', 'riskLevel', 'onfido']) expect(res.body).not.toContain(text);
    }
    const kept = await store.find('default', ['refId:ref-1', 'refId:ref-2']);
    expect([...kept.values()].map((stored) => stored.entry)).toEqual([
      { status: 'waiting', refId: 'ref-1', isArchived: false, blockPassID: 'bp-1', since: Date.parse(records[0]!.waitingDate) },
      { status: 'waiting', refId: 'ref-2', isArchived: false, blockPassID: 'bp-2', since: Date.parse(records[1]!.waitingDate) },
    ]);
    const everything = JSON.stringify([app.logs, audit.lines, [...kept.values()].map((stored) => stored.json)]);
    for (const text of ['Zoë', 'Ångström', '秀英', '王']) expect(everything).not.toContain(text);
  });
});

describe("the sandbox's current-documentation list, through the app", () => {
  it('orders the tabs by the records’ own dates at once, and counts the record it cannot open (one without a refId has no id left)', async () => {
    const now = new Date();
    const candidates = [...(await sampleCandidates({ now })), ...(await queueCandidates(now))];
    const sandbox = await startSandbox({ candidates, listShape: 'current' });
    const app = await startTestApp({
      upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
      access: gateway(),
    });
    closing.push(async () => {
      await app.close();
      await sandbox.close();
    });
    await app.crawl();
    const records = candidates.map((c) => c.record);
    const waiting = records.filter((r) => r.status === 'waiting');
    const { first, rows } = await wholeTab(app, 'waiting', 50, COMPLIANCE);
    expect(first.order).toEqual({ by: 'age', known: waiting.length, of: waiting.length });
    const oldest = [...waiting].sort((a, b) => Date.parse(String(a.waitingDate)) - Date.parse(String(b.waitingDate)));
    expect(rows.map((row) => row.refId)).toEqual(oldest.map((r) => r.refId));
    const over = waiting.filter((r) => Date.now() - Date.parse(String(r.waitingDate)) > 48 * HOUR_MS).length;
    expect(over).toBeGreaterThan(0);
    expect(first).toMatchObject({ slaHours: 48, overSla: over });
    // No names (the index keeps none); the current documentation's list gives no recordId, and the sandbox's lookups by refId keep none either.
    expect(rows.every((row) => row.name === undefined)).toBe(true);
    const inreview = pageOf(await app.get('/api/applicants?status=inreview&counts=1', SUPPORT));
    expect(inreview.skipped).toBeUndefined();
    expect(inreview.idless).toEqual([expect.objectContaining({ status: 'inreview', count: 1 })]);
    expect(inreview.records).toHaveLength(records.filter((r) => r.status === 'inreview').length - 1);
    // Not a row, but a candidate in review all the same.
    expect(inreview.counts?.inreview).toBe(records.filter((r) => r.status === 'inreview').length);
  });
});

describe('list records the app could not read before', () => {
  it('whole records too large to take 100 at a time (pictures) are asked in smaller requests: every one is listed, no error', async () => {
    const picture = 'A'.repeat(10_000);
    const records = Array.from({ length: 230 }, (_, i) => ({
      status: 'waiting',
      refId: `whole-${i}`,
      waitingDate: new Date(Date.UTC(2026, 10, 1, 0, i)).toISOString(),
      identities: { selfie: { type: 'base64', value: picture } },
    }));
    // About 1 MB a page of 100; this server takes 300 kB.
    const { app, upstream, audit } = await listApp(records, { maxResponseBytes: 300_000 });
    await app.crawl();
    const { first, rows } = await wholeTab(app, 'waiting', 50, COMPLIANCE);
    expect(first.total).toBe(records.length);
    expect(rows.map((row) => row.refId)).toEqual(records.map((record) => record.refId));
    // Halved twice (100, 50, then 25 a request), and kept at 25 for the pages after the first.
    const limits = upstream.seen
      .filter((req) => req.path.includes('/applicants/waiting'))
      .map((req) => new URL(req.path, 'http://x').searchParams.get('limit'));
    expect(limits.slice(0, 3)).toEqual(['100', '50', '25']);
    expect(limits.slice(3).every((limit) => Number(limit) <= 25)).toBe(true);
    // One audit line per page of 100 (each crawl), whatever it took.
    const crawled = audit.lines.filter(
      (line) => line.kind === 'list' && 'queueIndex' in line && line.queueIndex && line.filter === 'waiting',
    );
    expect(crawled.length).toBeGreaterThanOrEqual(3);
    expect(new Set(crawled.map((line) => (line.kind === 'list' ? `${line.skip}:${line.records}` : '')))).toEqual(
      new Set(['0:100', '100:100', '200:30']),
    );
  });

  it('a list without isArchived: every tab counted, no "count unavailable", its records shown without the flag', async () => {
    const early = APPLICANT_FILTERS.flatMap((status, n) => [
      { status, _id: `rec-${n}`, blockPassID: `bp-${n}`, refId: `ref-${n}` },
      { status, _id: `rec-${n}b`, blockPassID: `bp-${n}b` },
    ]);
    const { app } = await listApp(early);
    const view = pageOf(await app.get('/api/applicants?counts=1', SUPPORT));
    expect(view.counts).toEqual(Object.fromEntries([['all', early.length], ...APPLICANT_FILTERS.map((filter) => [filter, 2])]));
    expect(view.records).toHaveLength(early.length);
    expect(view.records[0]).toEqual({ status: 'waiting', recordId: 'rec-0', refId: 'ref-0', blockPassID: 'bp-0' });
    expect(view.skipped).toBeUndefined();
  });

  it('a record without status is left out and counted, one without any id counted in its tab, the rest of the page shown', async () => {
    const { app } = await listApp([
      { status: 'waiting', _id: 'rec-1' },
      { refId: 'no-status', isArchived: false },
      { status: 'waiting', isArchived: false, blockPassID: 'bp-no-id' },
      'not a record',
      { status: 42, refId: 'numeric-status' },
      { status: 'approved', refId: 'ref-2' },
    ]);
    const page = pageOf(await app.get('/api/applicants', SUPPORT));
    expect(page.records).toEqual([
      { status: 'waiting', recordId: 'rec-1' },
      { status: 'approved', refId: 'ref-2' },
    ]);
    // The rows are the index's: what could be read of it, and opened.
    expect(page.total).toBe(2);
    expect(page.skipped).toEqual({ count: 3, reasons: ['no status', 'not an object', 'a status that is not text'] });
    expect(page.idless).toEqual([{ status: 'waiting', count: 1, dated: 0, blockPassIDs: 1 }]);
  });

  it('attack: an id longer than the lookup’s 256 characters, or with a control character, leaves its record out of the rows only when no other id of it can open it, counted in its tab as one without an id', async () => {
    const long = `x${'y'.repeat(256)}`;
    const store = createMemoryQueueIndexStore();
    const { app } = await listApp(
      [
        { status: 'waiting', refId: long, isArchived: false },
        { status: 'waiting', _id: long, refId: 'fine', isArchived: false },
        { status: 'waiting', recordId: 'r\nwith a line break', isArchived: false },
        { status: 'waiting', refId: 'y'.repeat(256), isArchived: false },
        // A refId no lookup can take beside an `_id` that can: opened by its recordId, the refId named.
        { status: 'waiting', _id: '65f1c2a9e4b0d3a1f0c9b811', refId: 'crm\t42', isArchived: false },
      ],
      { store },
    );
    const res = await app.get('/api/applicants?status=waiting', SUPPORT);
    const page = pageOf(res);
    expect(page.records.map((row) => [row.refId, row.recordId])).toEqual([
      ['fine', undefined],
      ['y'.repeat(256), undefined],
      [undefined, '65f1c2a9e4b0d3a1f0c9b811'],
    ]);
    expect(page.records[0]!.unreadable).toEqual({ _id: 'is too long (at most 256 characters): not an id a lookup can take' });
    expect(page.records[2]!.unreadable).toEqual({
      refId: 'contains a control character (such as a line break or tab): not an id a lookup can take',
    });
    // Counted in Waiting as candidates that cannot be opened, not left out as unreadable.
    expect(page.skipped).toBeUndefined();
    expect(page.idless).toEqual([{ status: 'waiting', count: 2, dated: 0, badIds: 2 }]);
    expect(pageOf(await app.get('/api/applicants?counts=1', SUPPORT)).counts?.waiting).toBe(5);
    expect(res.body).not.toContain(long);
    expect(res.body).not.toContain('crm\\t42');
    // Nothing of them in the index either.
    expect((await store.find('default', [`refId:${long}`, `recordId:${long}`, 'refId:crm\t42'])).size).toBe(0);
    expect((await store.find('default', ['refId:fine', 'recordId:65f1c2a9e4b0d3a1f0c9b811'])).size).toBe(2);
  });

  it('a field of the wrong type in one record is named on that field; the record and the page are shown', async () => {
    const { app } = await listApp([
      { status: 'waiting', _id: 'rec-1', refId: 7, isArchived: 'no', blockPassID: { id: 'x' }, waitingDate: 'yesterday' },
      { status: 'waiting', _id: 'rec-2', isArchived: true, identities: 'none' },
      {
        status: 'waiting',
        _id: 'rec-3',
        identities: { given_name: { type: 'string', value: 9 }, family_name: { type: 'string', value: 'Doe' } },
      },
    ]);
    // Identities are not read at all: the index keeps no name, so nothing about them is said to anyone.
    for (const who of [COMPLIANCE, SUPPORT]) {
      expect(pageOf(await app.get('/api/applicants?status=waiting', who)).records).toEqual([
        {
          status: 'waiting',
          recordId: 'rec-1',
          unreadable: {
            refId: 'expected a string',
            isArchived: 'expected true or false',
            blockPassID: 'expected a string of at most 256 characters',
            waitingDate: 'expected an ISO 8601 timestamp',
          },
        },
        { status: 'waiting', recordId: 'rec-2', isArchived: true },
        { status: 'waiting', recordId: 'rec-3' },
      ]);
    }
  });
});

describe('one list record with a field of megabytes (red team)', () => {
  const big = 'q'.repeat(2 * 1024 * 1024);
  const good = Array.from({ length: 5 }, (_, i) => ({ status: 'waiting', refId: `list-${i}`, isArchived: false, waitingDate: ago(i + 1) }));
  const pageWith = (hostile: Record<string, unknown>) => [
    ...good.slice(0, 2),
    { status: 'waiting', refId: 'hostile', isArchived: false, waitingDate: ago(10), ...hostile },
    ...good.slice(2),
  ];
  const goodIds = good.map((record) => record.refId);

  it.each([
    // Its only id refused, it cannot be opened, but it is a candidate of Waiting: counted there, as one without an id.
    ['refId', { refId: big }, { idless: [{ status: 'waiting', count: 1, dated: 1, badIds: 1 }] }],
    ['status', { status: big }, { skipped: { count: 1, reasons: ['a status longer than 64 characters'] } }],
  ])(
    'attack: one list record with a 2 MB %s takes the whole queue down: now the 5 good rows are listed and it is counted',
    async (_, hostile, counted) => {
      const store = createMemoryQueueIndexStore();
      const { app, audit } = await listApp(pageWith(hostile), { store });
      const res = await app.get('/api/applicants', SUPPORT);
      const page = pageOf(res);
      expect(page.records.map((row) => row.refId).sort()).toEqual(goodIds);
      expect(page).toMatchObject(counted);
      expect(res.body).not.toContain('qqqq');
      // Every page of the crawl was read: none refused.
      expect(audit.lines.filter((line) => line.kind === 'list').every((line) => line.status === 200)).toBe(true);
      expect((await store.find('default', ['refId:hostile'])).size).toBe(0);
    },
  );

  it('attack: one list record with a 2 MB date takes the whole queue down: now every row is listed, that date named unreadable', async () => {
    const { app, audit } = await listApp(pageWith({ waitingDate: big }));
    const res = await app.get('/api/applicants', SUPPORT);
    const page = pageOf(res);
    expect(page.records.map((row) => row.refId).sort()).toEqual([...goodIds, 'hostile'].sort());
    expect(page.records.find((row) => row.refId === 'hostile')?.unreadable).toEqual({ waitingDate: 'expected an ISO 8601 timestamp' });
    expect(page.skipped).toBeUndefined();
    expect(res.body).not.toContain('qqqq');
    expect(audit.lines.filter((line) => line.kind === 'list').every((line) => line.status === 200)).toBe(true);
  });
});

describe('dates in another ISO 8601 form', () => {
  it("orders the queue by dates written +0000, without seconds, with a space, in lower case, to the microsecond or at -0530, and reads on_hold's date under either name", async () => {
    const iso = (ms: number) => new Date(ms).toISOString();
    // 60 h to 10 h ago, each in one form (Node's Date.parse reads each as the instant it says: what the rows must say).
    const forms: Array<[number, (ms: number) => string]> = [
      [60, (ms) => iso(ms).replace('Z', '+0000')],
      [50, (ms) => `${iso(ms).slice(0, 16)}Z`],
      [40, (ms) => iso(ms).replace('T', ' ')],
      [30, (ms) => iso(ms).replace('T', 't').replace('Z', 'z')],
      [20, (ms) => iso(ms).replace('Z', '456Z')],
      [10, (ms) => iso(ms - 330 * 60_000).replace('Z', '-0530')],
    ];
    const records = forms.map(([hours, form], n) => ({
      status: 'waiting',
      refId: `ref-${n}`,
      waitingDate: form(Date.now() - hours * HOUR_MS),
    }));
    const held = ago(5).replace('T', ' ');
    const onHold = [
      { status: 'on_hold', refId: 'held-1', on_holdDate: held },
      { status: 'on_hold', refId: 'held-2', onHoldDate: ago(6) },
    ];
    const { app } = await listApp([...records, ...onHold], { environment: { queueSlaHours: 24 } });
    const { first, rows } = await wholeTab(app, 'waiting');
    // Every date read: none named, none looked up; the oldest first, and those over 24 h counted.
    expect(first.order).toEqual({ by: 'age', known: records.length, of: records.length });
    expect(rows.map((row) => [row.refId, row.unreadable])).toEqual(records.map((record) => [record.refId, undefined]));
    for (const row of rows) expect(Date.parse(row.since!)).toBe(Date.parse(records.find((r) => r.refId === row.refId)!.waitingDate));
    expect(first.overSla).toBe(4);
    const all = pageOf(await app.get('/api/applicants', SUPPORT)).records;
    expect(all.find((row) => row.refId === 'held-1')?.since).toBe(iso(Date.parse(held)));
    expect(all.find((row) => row.refId === 'held-2')?.since).toBe(onHold[1]!.onHoldDate);
  });
});

describe('the queue index keyed by recordId or refId', () => {
  it('a candidate listed with its recordId and refId on one read and with its refId only on the next is one row, counted once', async () => {
    // 150 waiting: the tab is read in two asks of 100; the list moved between them, and the second gives the candidate without `_id`.
    const records: Array<Record<string, unknown>> = Array.from({ length: 150 }, (_, n) => ({
      status: 'waiting',
      _id: `rec-${n}`,
      refId: `ref-${n}`,
      isArchived: false,
      waitingDate: ago(1 + n / 100),
    }));
    // One date for both reads of the candidate, as the service gives (two calls of `ago` a millisecond apart differed under load).
    const movedSince = ago(100);
    records[0] = { status: 'waiting', _id: 'rec-moved', refId: 'ref-moved', isArchived: false, waitingDate: movedSince };
    records[120] = { status: 'waiting', refId: 'ref-moved', isArchived: false, waitingDate: movedSince };
    const { app } = await listApp(records, { environment: { queueSlaHours: 24 } });
    const { first, rows } = await wholeTab(app, 'waiting', 50);
    expect(rows.filter((row) => row.refId === 'ref-moved')).toEqual([
      { status: 'waiting', recordId: 'rec-moved', refId: 'ref-moved', isArchived: false, since: records[0]!.waitingDate },
    ]);
    expect(first.order).toEqual({ by: 'age', known: 149, of: 149 });
    expect(first.overSla).toBe(1);
  });

  it('rows known by refId only, without a date, have their date looked up by refId', async () => {
    const dates = new Map(Array.from({ length: 6 }, (_, n) => [`ref-${n}`, ago(10 + ((n * 7) % 6))]));
    const records = [...dates.keys()].map((refId) => ({ status: 'waiting', refId, isArchived: false }));
    const { app, audit } = await listApp(records, {
      // The crawler looks dates up with a status-level key (with the full key only, once a user's full lookup showed it keeps data).
      statusKey: true,
      lookup: (kind, id) =>
        kind === 'refId' && dates.has(id)
          ? { status: 'waiting', refId: id, isArchived: false, blockPassID: 'bp', waitingDate: dates.get(id) }
          : undefined,
    });
    const { first, rows } = await wholeTab(app, 'waiting', 50);
    expect(first.order).toEqual({ by: 'age', known: 6, of: 6 });
    expect(rows.map((row) => row.refId)).toEqual([...dates].sort((a, b) => Date.parse(a[1]) - Date.parse(b[1])).map(([id]) => id));
    const lookups = audit.lines.filter((line) => 'queueIndex' in line && line.queueIndex && line.kind !== 'list');
    expect(lookups.map((line) => ('kind' in line ? line.kind : undefined))).toEqual(Array(6).fill('refId'));
  });

  it('a date learnt under a recordId is found by a later list that gives only the refId', async () => {
    const store = createMemoryQueueIndexStore();
    const index = createQueueIndex(store);
    const listedAt = Date.parse('2026-03-01T00:00:00.000Z');
    const both = { status: 'waiting', recordId: 'rec-1', refId: 'ref-1' };
    expect(await index.learnListed('env', [both], { listedAt, position: 0 })).toEqual([{ member: 'recordId:rec-1', due: true }]);
    // A status-level lookup (or a delivery) by recordId.
    await index.learnRecord('env', { status: 'waiting', recordId: 'rec-1', since: Date.parse('2026-01-01T00:00:00.000Z') });
    // A list without `_id` finds it by its refId: the one candidate, dated.
    expect(await index.learnListed('env', [{ status: 'waiting', refId: 'ref-1' }], { listedAt, position: 0 })).toEqual([
      { member: 'recordId:rec-1', due: false },
    ]);
    // A record's own date is the service's word, and is learnt.
    const own = { status: 'waiting', refId: 'ref-1', since: '2026-02-01T00:00:00.000Z' };
    await index.learnListed('env', [own], { listedAt, position: 0 });
    expect((await store.find('env', ['refId:ref-1'])).get('refId:ref-1')?.entry).toEqual({
      status: 'waiting',
      recordId: 'rec-1',
      refId: 'ref-1',
      since: Date.parse('2026-02-01T00:00:00.000Z'),
    });
    // Known apart (a row by refId, a record by recordId), the two become one when a source names both.
    await index.learnListed('env', [{ status: 'waiting', refId: 'ref-2' }], { listedAt, position: 1 });
    await index.learnRecord('env', { status: 'waiting', recordId: 'rec-2', since: Date.parse('2026-01-02T00:00:00.000Z') });
    expect((await store.size('env')).entries).toBe(3);
    await index.learnRecord('env', { status: 'waiting', recordId: 'rec-2', refId: 'ref-2', since: Date.parse('2026-01-02T00:00:00.000Z') });
    expect((await store.size('env')).entries).toBe(2);
    expect((await store.find('env', ['refId:ref-2', 'recordId:rec-2'])).get('refId:ref-2')?.entry).toMatchObject({
      recordId: 'rec-2',
      refId: 'ref-2',
    });
  });
});
