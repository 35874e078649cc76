import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AUDIT_PATHS } from '../../src/kyc/contract/audit-search.ts';
import { batchExportOf, type BatchHandoffLine } from '../../src/kyc/contract/batch-handoff.ts';
import type { LookupKind } from '../../src/kyc/contract/lookup.ts';
import { ndjson } from './http.ts';
import { as, csvRecords, fileLines, postJson, search, shownOfCell } from './audit-trail-helpers.ts';
import type { Instance } from './instance.ts';
import { candidates, sandboxOnly } from './queue-view-fixture.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * A batch's results taken away (its CSV downloaded, its table copied) are a hand-off like a copy (`POST
 * /api/export`, `what: "batch_csv" | "batch_copy"`): its line is written before they leave, names the
 * candidates they held as a queue view's names whom it showed, and only candidates its user's batch found.
 * Real HTTP, the audit log in files, as the audit page reads it.
 */
const [amelie, bruno, carla] = candidates.map((candidate) => candidate.record.refId!);
/** The sample candidate without a refId, found by its recordId only. */
const noRefId = candidates.find((candidate) => !candidate.record.refId)!.record.recordId!;
const ANA = as('ana', 'support');
const BOB = as('bob', 'support');
const NOT_LOOKED_UP = "This batch's lookups are too old to record what it hands over: press Look up all again, then download or copy it.";

const { instance } = sandboxOnly();

/** Runs a batch, and gives its lines as the page holds them: each id pasted with its row. */
async function batch(app: Instance, ids: string[], headers: Record<string, string>, kind: LookupKind = 'refId') {
  const res = await postJson(app, '/api/batch', { kind, ids }, headers);
  expect(res.status, res.body).toBe(200);
  const rows = ndjson(res.body).filter((event) => event.type === 'row');
  return ids.map((id, index) => ({ id, row: rows.find((row) => row.index === index) }) as BatchHandoffLine);
}

const handedOver = (what: string, ids: string[], count = ids.length) => ({ what, kind: 'refId', ids, count });
const exportLines = (app: Instance) => fileLines(app.auditLog).filter((line) => line.kind === 'export');

describe("a batch's results taken away", () => {
  it("a batch's CSV writes a line naming its candidates, which the audit page shows and its search by a candidate's id finds", async () => {
    const app = await instance();
    await batch(app, [amelie!, bruno!, 'cust_nobody_at_all'], ANA);
    const res = await postJson(app, '/api/export', handedOver('batch_csv', [amelie!, bruno!]), ANA);
    expect(res.status, res.body).toBe(200);
    expect(exportLines(app)).toEqual([
      expect.objectContaining({
        user: 'ana',
        what: 'batch_csv',
        lookupKind: 'refId',
        candidates: [{ refId: amelie }, { refId: bruno }],
        count: 2,
      }),
    ]);
    const saved = expect.objectContaining({ action: 'save_batch', user: 'ana', id: null, detail: '2 candidates' });
    expect((await search(app, { action: 'save_batch' })).rows).toEqual([saved]);
    // As a queue view that named them: the search by either candidate's id finds it, and lists whom it held.
    const byBruno = await search(app, { refId: bruno!, action: 'save_batch' });
    expect(byBruno.rows).toEqual([saved]);
    expect(byBruno.rows[0]!.shown).toEqual([{ refId: amelie }, { refId: bruno }]);
    expect((await search(app, { refId: carla!, action: 'save_batch' })).rows).toEqual([]);
    const csv = await postJson(app, AUDIT_PATHS.export, { refId: amelie!, action: 'save_batch' }, as('lena', 'lead'));
    expect(csv.status, csv.body).toBe(200);
    const [row] = csvRecords(csv.body);
    expect(row).toEqual(expect.objectContaining({ action: 'save_batch', detail: '2 candidates' }));
    expect(shownOfCell(row!.shown!)).toEqual([{ refId: amelie }, { refId: bruno }]);
  });

  it("a batch's table copied is its own action, and a file of more than 100 says how many its line names", async () => {
    const app = await instance();
    await batch(app, [carla!], ANA);
    expect((await postJson(app, '/api/export', handedOver('batch_copy', [carla!], 140), ANA)).status).toBe(200);
    expect((await search(app, { refId: carla! })).rows).toEqual([
      expect.objectContaining({ action: 'copy_batch', detail: '140 candidates, the first 1 named in the line' }),
      expect.objectContaining({ action: 'batch' }),
    ]);
  });

  it('a batch export with a row found by the other kind of id is accepted, not refused as not looked up', async () => {
    const app = await instance();
    // A refId batch finds a recordId by recordId; a recordId batch finds a refId by refId (batchTriesAs).
    const runs = [
      ['refId', [amelie!, noRefId]],
      ['recordId', [candidates[1]!.record.recordId!, carla!]],
    ] as const;
    for (const [kind, ids] of runs) {
      const lines = await batch(app, [...ids], ANA, kind);
      // The export the batch page makes of the batch it just ran.
      const res = await postJson(app, '/api/export', batchExportOf('batch_csv', kind, lines), ANA);
      expect(res.status, res.body).toBe(200);
    }
    // Each candidate named by the kind that found it, so a search by that id finds the line.
    expect(exportLines(app).map((line) => [line.lookupKind, line.candidates])).toEqual([
      ['refId', [{ refId: amelie }, { recordId: noRefId }]],
      ['recordId', [{ recordId: candidates[1]!.record.recordId }, { refId: carla }]],
    ]);
    expect((await search(app, { recordId: noRefId, action: 'save_batch' })).rows).toEqual([
      expect.objectContaining({ action: 'save_batch', user: 'ana', detail: '2 candidates' }),
    ]);
  });

  it('attack: a batch export naming an id as found by the other kind that this user did not look up by that kind is refused', async () => {
    const app = await instance();
    await batch(app, [amelie!, noRefId], ANA);
    // Amelie was looked up by refId, never by recordId; bob looked up nothing.
    for (const [ids, headers] of [
      [[{ id: amelie!, foundBy: 'recordId' }], ANA],
      [[{ id: noRefId, foundBy: 'recordId' }], BOB],
    ] as const) {
      const res = await postJson(app, '/api/export', { what: 'batch_csv', kind: 'refId', ids, count: 1 }, headers);
      expect(res.status, res.body).toBe(409);
      expect(JSON.parse(res.body).error).toEqual({ code: 'not_looked_up', message: NOT_LOOKED_UP });
    }
    expect(JSON.stringify(exportLines(app))).not.toContain(noRefId);
    expect(JSON.stringify(exportLines(app))).not.toContain(amelie!);
  });

  it("attack: a batch's CSV naming a candidate its user's batch did not find is refused, and no line names them", async () => {
    const app = await instance();
    await batch(app, [amelie!], ANA);
    // Bruno was never looked up by ana; amelie was, but not by bob.
    for (const [ids, headers] of [
      [[amelie!, bruno!], ANA],
      [[amelie!], BOB],
    ] as const) {
      const res = await postJson(app, '/api/export', handedOver('batch_csv', [...ids]), headers);
      expect(res.status).toBe(409);
      expect(JSON.parse(res.body).error).toEqual({ code: 'not_looked_up', message: NOT_LOOKED_UP });
    }
    expect(exportLines(app)).toEqual([
      expect.objectContaining({ user: 'ana', what: 'batch_csv', status: 409, code: 'not_looked_up' }),
      expect.objectContaining({ user: 'bob', what: 'batch_csv', status: 409, code: 'not_looked_up' }),
    ]);
    expect(JSON.stringify(exportLines(app))).not.toContain(bruno!);
    expect(JSON.stringify(exportLines(app))).not.toContain(amelie!);
    expect((await search(app, { action: 'export' })).rows.map((row) => row.detail)).toEqual([
      "a batch's CSV to download; the line names no candidate",
      "a batch's CSV to download; the line names no candidate",
    ]);
  });

  it('attack: an export naming more than 100, more than it counts, or an id the lookup refuses is refused (400) and names nobody', async () => {
    const app = await instance();
    await batch(app, [amelie!], ANA);
    for (const body of [
      handedOver(
        'batch_csv',
        Array.from({ length: 101 }, (_, i) => `id-${i}`),
      ),
      handedOver('batch_csv', [amelie!], 0),
      handedOver('batch_csv', [amelie!, 'x\u2028forged']),
    ]) {
      expect((await postJson(app, '/api/export', body, ANA)).status).toBe(400);
    }
    expect(JSON.stringify(exportLines(app))).not.toContain(amelie!);
    // 100 ids of 256 characters of 3 bytes each fit the export's body: refused for its candidates, not its size.
    const long = Array.from({ length: 100 }, (_, i) => String(i).padEnd(256, '漢'));
    expect((await postJson(app, '/api/export', handedOver('batch_csv', long), ANA)).status).toBe(409);
  });

  it("takes a token of the user's rate limit as any export does: past it 429, counted, nothing named", async () => {
    const app = await instance({}, { limits: { lookupsPerMinute: 3 } });
    await batch(app, [amelie!], ANA);
    const answers = [];
    for (let i = 0; i < 4; i++) answers.push((await postJson(app, '/api/export', handedOver('batch_csv', [amelie!]), ANA)).status);
    expect(answers).toContain(429);
    expect(answers.indexOf(429)).toBeGreaterThan(0);
    expect(exportLines(app).filter((line) => line.what === 'batch_csv' && line.status === undefined).length).toBe(answers.indexOf(429));
  });
});

describe.skipIf(!hasPostgres)(`over the audit table in PostgreSQL${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`, () => {
  let postgres: RunningPostgres;
  beforeAll(async () => {
    postgres = await startPostgres();
  }, 60_000);
  afterAll(() => postgres?.destroy());

  it("the search by a candidate's id finds the batch's CSV that named them, from the table", async () => {
    const app = await instance({ DATABASE_URL: await postgres.database(), AUDIT_INSTANCE: 'app1' });
    await batch(app, [amelie!, bruno!], ANA);
    expect((await postJson(app, '/api/export', handedOver('batch_csv', [amelie!, bruno!]), ANA)).status).toBe(200);
    await expect
      .poll(async () => (await search(app, { refId: bruno!, action: 'save_batch' })).source, { timeout: 10_000 })
      .toEqual({
        kind: 'database',
      });
    const found = await search(app, { refId: bruno!, action: 'save_batch' });
    expect(found.rows).toEqual([expect.objectContaining({ action: 'save_batch', user: 'ana', detail: '2 candidates' })]);
    expect(found.rows[0]!.shown).toEqual([{ refId: amelie }, { refId: bruno }]);
    expect((await search(app, { refId: carla!, action: 'save_batch' })).rows).toEqual([]);
  });
});
