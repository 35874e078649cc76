import { heldText } from '../../src/kyc/contract/audit-held.ts';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { AUDIT_PATHS, type AuditQuery } from '../../src/kyc/contract/audit-search.ts';
import { type AuditLine, createAuditLog } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { type AuditStore, createAuditStore } from '../../src/server/trail/audit-store.ts';
import { as, csvRecords, LEAD, lookUp, parseCsv, postJson, search, shownOfCell } from './audit-trail-helpers.ts';
import { rawRequest, startTestApp, type TestApp } from './http.ts';
import type { Instance } from './instance.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, queryOf } from './postgres-fixture.ts';
import { ANA, anaScreensUser7781, blockedTab, DAVE, sandboxAndPostgres, screened } from './queue-view-fixture.ts';

/**
 * The audit page's Download CSV beside its table (a UX review's findings), from the files and from the
 * table in PostgreSQL: a queue view found by a candidate is exported with its tab and whom it showed, where
 * its row had an empty kind and id and no column said either; and the same search gives the same rows in
 * the table and the file, where the file had the lead's own search and export lines besides.
 */
const LEE = as('lee', 'lead');
const { instance, database, closing } = sandboxAndPostgres();

/** Ana's lookup tells the queue index user-7781's potential match; then dave, compliance, opens the blocked tab. */
async function daveSeesTheBlockedTab(app: Instance): Promise<void> {
  await anaScreensUser7781(app);
  expect((await blockedTab(app, DAVE)).status).toBe(200);
}

async function exported(app: Instance, query: AuditQuery, headers = LEAD): Promise<Array<Record<string, string>>> {
  const res = await postJson(app, AUDIT_PATHS.export, query, headers);
  expect(res.status, res.body).toBe(200);
  return csvRecords(res.body);
}

/** What the review reproduced: a lead searches the candidate, then downloads the CSV of the same search. */
async function expectDaveInTheCsv(app: Instance): Promise<void> {
  await daveSeesTheBlockedTab(app);
  const shown = (await search(app, { refId: 'user-7781', user: 'dave' })).rows;
  expect(shown).toEqual([expect.objectContaining({ action: 'list', kind: null, id: null, queueTab: 'blocked' })]);
  const rows = await exported(app, { refId: 'user-7781', user: 'dave' });
  expect(rows).toEqual([
    expect.objectContaining({
      action: 'list',
      kind: '',
      id: '',
      queueTab: 'blocked',
      shown: `user-7781/${screened.recordId}`,
      hash: shown[0]!.hash,
    }),
  ]);
  expect(shownOfCell(rows[0]!.shown!)).toEqual(shown[0]!.shown);
}

/**
 * The same search, in the table and in the file, row for row: searched, downloaded, searched again. The
 * lead's own reads of the trail are in neither (unless the Action filter asks for them); another lead's
 * are in both.
 */
async function expectTableAndCsvAgree(app: Instance): Promise<void> {
  await daveSeesTheBlockedTab(app);
  expect((await search(app, { refId: 'user-7781' }, LEE)).rows.length).toBeGreaterThan(0);
  for (const query of [{ refId: 'user-7781' }, { who: 'people' as const }, { refId: 'user-7781', user: 'lee' }]) {
    const table = (await search(app, query)).rows.map((row) => row.hash);
    const csv = (await exported(app, query)).map((row) => row.hash);
    expect(csv, JSON.stringify(query)).toEqual(table);
    expect((await search(app, query)).rows.map((row) => row.hash)).toEqual(table);
  }
  // Lee's search of the candidate is in both, as "Searched the audit trail".
  const byLee = (await exported(app, { refId: 'user-7781', user: 'lee' })).map((row) => row.action);
  expect(byLee).toEqual(['audit_search']);
  // Asked for by the Action filter, the lead's own reads are listed too: lena's searches above, lee's one.
  const searches = (await search(app, { action: 'audit_search' })).rows.map((row) => row.user);
  expect(searches.filter((user) => user === 'lena').length).toBeGreaterThanOrEqual(6);
  expect((await exported(app, { action: 'audit_search', user: 'lee' })).map((row) => row.user)).toEqual(['lee']);
  expect((await exported(app, { action: 'audit_export' })).map((row) => row.user)).toContain('lena');
}

describe('the audit CSV beside the table, from the files', () => {
  it('a queue view found by the candidate is exported with its tab and whom it showed (refId/recordId)', async () => {
    await expectDaveInTheCsv(await instance());
  }, 60_000);

  it("the same search gives the same rows in the table and the CSV: the lead's own searches and exports in neither", async () => {
    await expectTableAndCsvAgree(await instance());
  }, 60_000);
});

/**
 * A lead's script reads the CSV by position: `queueTab` and `shown` were once put after `id`, and every
 * column after them moved (`level`, the 9th, read the tab). The columns before them keep their places, and a
 * new column only ever comes last.
 */
describe('the CSV columns keep their places for scripts that read by position', () => {
  it('the header line is the older columns in their order, then queueTab, shown, unvouched and held; a row holds each cell at its place', async () => {
    const app = await instance();
    await daveSeesTheBlockedTab(app);
    const [anaLookup] = (await search(app, { refId: 'user-7781', user: 'ana', action: 'lookup' })).rows;
    const [daveView] = (await search(app, { refId: 'user-7781', user: 'dave' })).rows;
    const res = await postJson(app, AUDIT_PATHS.export, { refId: 'user-7781', user: 'ana', action: 'lookup' });
    expect(res.body.split('\r\n')[0]).toBe(
      '\ufefftime,instance,user,role,action,environment,kind,id,level,status,code,client,requestId,detail,hash,queueTab,shown,unvouched,held',
    );
    const [, lookupCells] = parseCsv(res.body);
    // What the lookup's answer held, by its request's closing line, in the page's words.
    expect(anaLookup!.held).toBeDefined();
    expect(lookupCells!.slice(2, 10)).toEqual(['ana', 'compliance', 'lookup', 'default', 'refId', 'user-7781', 'full', '200']);
    expect(lookupCells!.slice(14)).toEqual([anaLookup!.hash, '', '', '', heldText(anaLookup!)]);
    const [, viewCells] = parseCsv((await postJson(app, AUDIT_PATHS.export, { refId: 'user-7781', user: 'dave' })).body);
    expect(viewCells!.slice(2, 10)).toEqual(['dave', 'compliance', 'list', 'default', '', '', '', '200']);
    expect(viewCells!.slice(14)).toEqual([daveView!.hash, 'blocked', `user-7781/${screened.recordId}`, '', '']);
  }, 60_000);
});

/**
 * The CSV is said to tie each row to the chain (the compliance lead's review): a row the search marks
 * `unvouched` (after an edited line) was exported plainly, its hash in no file. The export marks it too.
 */
async function expectEditedRowsMarkedInTheCsv(app: Instance): Promise<void> {
  for (let i = 0; i < 4; i++) expect((await lookUp(app, 'user-7781', ANA)).status).toBe(200);
  // Every line in the table (with one) before the third is edited in the file.
  await expect.poll(async () => (await search(app, { user: 'ana' })).rows.length, { timeout: 10_000 }).toBe(4);
  const text = readFileSync(app.auditLog, 'utf8').split('\n');
  const third = text.map((line, index) => (line.includes('"user":"ana"') ? index : -1)).filter((index) => index >= 0)[2]!;
  text[third] = text[third]!.replace('"user":"ana"', '"user":"anna"');
  writeFileSync(app.auditLog, text.join('\n'));
  const marks = (await search(app, { refId: 'user-7781', action: 'lookup' })).rows.map((row) => [row.hash, row.unvouched ? 'true' : '']);
  expect(marks.filter(([, mark]) => mark === 'true').length).toBeGreaterThan(0);
  const csv = (await exported(app, { refId: 'user-7781', action: 'lookup' })).map((row) => [row.hash, row.unvouched]);
  expect(csv).toEqual(marks);
}

describe('the CSV keeps the unvouched mark', () => {
  it('attack: an edited line in the middle of a file is exported as vouched for, from the files', async () => {
    await expectEditedRowsMarkedInTheCsv(await instance());
  }, 60_000);

  it.skipIf(!hasPostgres)(
    'attack: an edited line in the middle of a file is exported as vouched for, from the table',
    async () => {
      const app = await instance({ DATABASE_URL: await database(), AUDIT_INSTANCE: 'app1' });
      await expectEditedRowsMarkedInTheCsv(app);
      expect((await search(app, { user: 'ana' })).source.kind).toBe('database');
    },
    60_000,
  );
});

describe.skipIf(!hasPostgres)(`the same from the audit table${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  it('a queue view found by the candidate is exported with its tab and whom it showed, read from the table', async () => {
    const app = await instance({ DATABASE_URL: await database(), AUDIT_INSTANCE: 'app1' });
    await expectDaveInTheCsv(app);
    expect((await search(app, { user: 'dave' })).source.kind).toBe('database');
  }, 60_000);

  it('the same search gives the same rows in the table and the CSV, read from the table', async () => {
    const app = await instance({ DATABASE_URL: await database(), AUDIT_INSTANCE: 'app1' });
    await expectTableAndCsvAgree(app);
    expect((await search(app, { user: 'dave' })).source.kind).toBe('database');
  }, 60_000);
});

/** Queue views written by the real writer whose ids and tab a spreadsheet would run, or that hold the cell's separators. */
type QueueView = Record<string, unknown> & { candidates: Array<{ refId?: string; recordId?: string }> };
const HOSTILE: QueueView[] = [
  {
    user: 'dave',
    role: 'compliance',
    env: 'default',
    kind: 'list',
    filter: '@tab',
    skip: 0,
    limit: 50,
    records: 3,
    status: 200,
    code: null,
    upstreamStatus: null,
    level: null,
    durationMs: 1,
    candidates: [
      { refId: '=HYPERLINK("http://evil.example","x")', recordId: '+1;2' },
      { refId: 'a/b; c%2F', recordId: '-3' },
      { recordId: '@sum(A1)' },
    ],
  },
  {
    user: 'dave',
    role: 'compliance',
    env: 'default',
    kind: 'list',
    filter: 'blocked',
    skip: 0,
    limit: 50,
    records: 1,
    status: 200,
    code: null,
    upstreamStatus: null,
    level: null,
    durationMs: 1,
    candidates: [{ recordId: '-2+3' }],
  },
];

/** A file of the hostile views, and the audit page over it (its own lines go elsewhere: the file stays as written). */
async function hostileApp(databaseUrl?: string): Promise<TestApp> {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-audit-export-')), 'audit.jsonl');
  const log = createAuditLog(file);
  for (const line of HOSTILE) await log.record({ time: new Date().toISOString(), ...line } as unknown as AuditLine);
  await log.close();
  const store: AuditStore = createAuditStore({ file, instance: 'app1', retentionDays: 36_500, ...(databaseUrl ? { databaseUrl } : {}) });
  closing.push(store);
  if (databaseUrl) {
    const count = async () =>
      (await queryOf<{ n: number }>(databaseUrl, 'SELECT count(*)::int AS n FROM candidate_lookup_audit').catch(() => [{ n: 0 }]))[0]!.n;
    await expect.poll(count, { timeout: 20_000 }).toBe(HOSTILE.length);
  }
  const app = await startTestApp({
    upstream: { baseUrl: 'http://127.0.0.1:9', clientId: 'c', apiKey: 'k' },
    audit: memoryAuditLog(),
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    trail: store,
  });
  closing.push(app);
  return app;
}

async function expectHostileCellsInert(app: TestApp): Promise<void> {
  const res = await rawRequest(app.port, AUDIT_PATHS.export, {
    method: 'POST',
    headers: { ...LEAD, 'content-type': 'application/json' },
    body: JSON.stringify({ user: 'dave' }),
  });
  expect(res.status).toBe(200);
  // Newest first: the blocked tab's view, then the one of the "@tab" tab.
  const [blocked, tagged] = csvRecords(res.body);
  // A cell that starts with = + - @ is made text; one that starts with the separator needs nothing.
  expect(tagged!.shown).toBe(`'=HYPERLINK("http:%2F%2Fevil.example","x")/+1%3B2; a%2Fb%3B c%252F/-3; /@sum(A1)`);
  expect(tagged!.queueTab).toBe("'@tab");
  expect(blocked!.shown).toBe('/-2+3');
  // Split back as a spreadsheet user would: exactly the ids each line names, none run together or split apart.
  expect(shownOfCell(tagged!.shown!)).toEqual(HOSTILE[0]!.candidates);
  expect(shownOfCell(blocked!.shown!)).toEqual(HOSTILE[1]!.candidates);
}

describe('the CSV of queue views whose ids are hostile', () => {
  it('attack: ids that start with = + - @ or hold "/", ";" or "%" are inert in the shown cell and split back exactly (files)', async () => {
    await expectHostileCellsInert(await hostileApp());
  });

  it.skipIf(!hasPostgres)(
    `attack: the same ids read from the table in PostgreSQL${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`,
    async () => {
      await expectHostileCellsInert(await hostileApp(await database()));
    },
    60_000,
  );
});
