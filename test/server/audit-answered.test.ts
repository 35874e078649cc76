import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { ASKED_ID_HOLD_BYTES } from '../../src/server/answer/answer-guard.ts';
import type { Environment } from '../../src/server/config/config.ts';
import { activity, as, fileLines, GATEWAY, search } from './audit-trail-helpers.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { type Instance, startInstance } from './instance.ts';
import { hasPostgres, NO_POSTGRES_MESSAGE, type RunningPostgres, startPostgres } from './postgres-fixture.ts';

/**
 * A lookup refused because the service (or a cache or gateway in front of it) answered with another
 * candidate's record names that candidate only as its `answeredId`: a lead searching the trail for who
 * was shown, or refused, candidate X must find the refusal where X's record came back, over the files as
 * over the table, and read in its row why a line of another id came up.
 */

const SAM = as('sam', 'support');
const REFUSED = 'Refused: the KYC service answered with the record of refId cust-b when asked for refId cust-a; nothing of it sent';

let postgres: RunningPostgres | undefined;
const cleanups: Array<() => Promise<void>> = [];
beforeAll(async () => {
  if (hasPostgres) postgres = await startPostgres();
}, 60_000);
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
afterAll(async () => {
  await postgres?.destroy();
});

/** An instance whose service answers every lookup with cust-b's record, and one such lookup of cust-a refused. */
async function refusedLookup(env: Environment = {}): Promise<Instance> {
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    const body = JSON.stringify({ status: 'success', data: { refId: 'cust-b', status: 'approved', isArchived: false } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const at = await startInstance(
    { KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'full', KYC_API_KEY_STATUS: 'status', ...env },
    { file: GATEWAY },
  );
  cleanups.push(at.close, upstream.close);
  const res = await at.request('/api/candidates/refId/cust-a', { headers: SAM });
  expect(res.status).toBe(502);
  expect(JSON.parse(res.body).error).toMatchObject({ code: 'other_candidate', answeredId: 'cust-b' });
  return at;
}

async function expectFoundByEitherId(at: Instance, source: 'files' | 'database') {
  const refusal = expect.objectContaining({ kind: 'refId', id: 'cust-a', code: 'other_candidate', detail: REFUSED });
  // Before: only by cust-a, the id asked; the search by cust-b found nothing.
  const byAnswered = await search(at, { refId: 'cust-b' });
  expect(byAnswered.source.kind).toBe(source);
  expect(byAnswered.rows).toEqual([refusal]);
  expect((await search(at, { refId: 'cust-a' })).rows).toEqual([refusal]);
  // Neither id of another kind, nor another candidate, finds it.
  expect((await search(at, { recordId: 'cust-b' })).rows).toEqual([]);
  expect((await search(at, { refId: 'cust-c' })).rows).toEqual([]);
}

describe("a search by the candidate whose record came back to someone else's lookup", () => {
  it('finds the refusal over the files (no database), labelled with both ids', async () => {
    await expectFoundByEitherId(await refusedLookup(), 'files');
  });

  it.skipIf(!hasPostgres)(
    `finds the refusal over the table in PostgreSQL, labelled with both ids${hasPostgres ? '' : ` (${NO_POSTGRES_MESSAGE})`}`,
    async () => {
      const url = await postgres!.database();
      const at = await refusedLookup({ DATABASE_URL: url, AUDIT_INSTANCE: 'app1' });
      await expect.poll(async () => (await search(at, { refId: 'cust-a' })).source.kind, { timeout: 10_000 }).toBe('database');
      await expectFoundByEitherId(at, 'database');
    },
    60_000,
  );
});

/** A recordId asked, and the one a record gives past the hold: its ids after the pictures, as no service writes them. */
const ASKED_RECORD = '65f1c2a9e4b0d3a1f0c9c101';
const OTHER_RECORD = '65f1c2a9e4b0d3a1f0c9ffff';

/** An instance whose service answers every lookup with a record whose recordId, another's, comes after 4 times the hold. */
async function cutLookup(): Promise<Instance> {
  const passport = 'QUJD'.repeat(ASKED_ID_HOLD_BYTES);
  const body = `{"status":"success","data":{"status":"approved","identities":{"passport":{"type":"base64","value":"${passport}"}},"recordId":"${OTHER_RECORD}"}}`;
  const upstream = await startFakeUpstream();
  upstream.behave = (_req, res) => {
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const at = await startInstance(
    { KYC_BASE_URL: upstream.url, KYC_CLIENT_ID: 'c', KYC_API_KEY: 'full', KYC_API_KEY_STATUS: 'status' },
    { file: GATEWAY },
  );
  cleanups.push(at.close, upstream.close);
  const res = await at.request(`/api/candidates/recordId/${ASKED_RECORD}`, { headers: { ...ANA, accept: 'application/json' } });
  expect(res.status).toBe(200);
  expect(res.cut).toBe(true);
  // The cut line is written once the connection closes: read from the file until it is there.
  await expect.poll(() => fileLines(at.auditLog).filter((line) => line.cut).length).toBe(1);
  return at;
}

const ANA = as('ana', 'compliance');

describe('a search by the candidate whose record was cut short, part of it sent, for someone else', () => {
  it("attack: another candidate's recordId given past the hold: the row says part of their record was sent, and how much, not that it was refused", async () => {
    const at = await cutLookup();
    const cut = fileLines(at.auditLog).find((line) => line.cut)!;
    expect(cut).toMatchObject({ id: ASKED_RECORD, answeredId: OTHER_RECORD, code: 'other_candidate', cut: 'answer_fault' });
    // What left before the id was read: more than the hold, which is what the browser got of the other candidate.
    expect(cut.sentBytes).toBeGreaterThan(ASKED_ID_HOLD_BYTES);
    const { rows } = await search(at, { recordId: OTHER_RECORD });
    expect(rows.map((row) => [row.action, row.kind, row.id, row.code])).toEqual([['cut', 'recordId', ASKED_RECORD, 'other_candidate']]);
    // Before: "the answer began (OK), then … never arrived whole; Refused: … answered with the record of recordId …".
    expect(rows[0]!.detail).toBe(
      `Cut: part of the record of recordId ${OTHER_RECORD} (${(cut.sentBytes as number).toLocaleString('en')} bytes) was sent before it was found to be another candidate's, when asked for recordId ${ASKED_RECORD}`,
    );
    // The candidate's own Activity lists it too, under the id asked (the page says whose it was: candidate-activity.tsx).
    const seen = await activity(at, { recordId: OTHER_RECORD }, ANA);
    expect(seen.rows.map((row) => [row.action, row.id, row.code])).toEqual([['cut', ASKED_RECORD, 'other_candidate']]);
  });
});
