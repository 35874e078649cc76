import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { getBytes } from './parts.ts';
import { startOneAnswerApp } from './one-answer-app.ts';
import { ndjson, requestWithBody, type TestApp } from './http.ts';

/**
 * The status level (a support user's lookup, a batch's row) refuses a record whose id of the kind asked is
 * not the asked one in any form, by the full level's one rule (answeredOther): a number is compared by its
 * JSON text as sent, an object, a list or true/false is not provably the asked candidate's. Before, the
 * reduction dropped such an id as unreadable and the guard, finding none, showed another candidate's status.
 */

const REASON = 'documents of someone else';
const answer = { body: '' };
let app: TestApp;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, close } = await startOneAnswerApp(answer));
});
afterAll(() => close());

/** Another candidate's status-level record, its refId written as this JSON text (its recordId readable, so the record is). */
const recordWith = (rawRefId: string) =>
  `{"status":"success","data":{"status":"rejected","refId":${rawRefId},"recordId":"rec-other","rejectedDate":"2026-11-21T10:00:00.000Z","reason":"${REASON}"}}`;

const SUPPORT = { 'x-user': 'sam', 'x-role': 'support', accept: 'application/json' };

async function supportLookup(raw: string, asked: string) {
  answer.body = recordWith(raw);
  const res = await getBytes(app.port, `/api/candidates/refId/${encodeURIComponent(asked)}`, SUPPORT);
  return { status: res.status, text: res.body.toString() };
}

async function batchRow(raw: string, asked: string) {
  answer.body = recordWith(raw);
  const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: [asked] }), {
    headers: { 'x-user': 'sam', 'x-role': 'support' },
  });
  const row = ndjson(res.body).find((line) => line.type === 'row');
  return row as { ok: boolean; code?: string; message?: string };
}

describe('attack: an answer whose id is a number skips the other-candidate guard at status level', () => {
  it("a support user's lookup of num-refId answered with refId 12345 is refused, nothing of its status shown", async () => {
    const { status, text } = await supportLookup('12345', 'num-refId');
    expect(status).toBe(502);
    expect(text).not.toMatch(/rejected|rejectedDate|rec-other/);
    expect(JSON.parse(text).error).toMatchObject({ code: 'other_candidate', answeredId: '12345' });
  });

  it('an id sent as an object, a list or true is refused as not provably the asked one (support lookup and batch row)', async () => {
    for (const raw of ['{"id":"num-refId"}', '["num-refId"]', 'true']) {
      const { status, text } = await supportLookup(raw, 'num-refId');
      expect(status, raw).toBe(502);
      expect(JSON.parse(text).error.code).toBe('other_candidate');
      expect(JSON.parse(text).error.message).toMatch(/not an id, so it cannot be shown to be the candidate looked up/);
      expect(await batchRow(raw, 'num-refId')).toMatchObject({ ok: false, code: 'other_candidate' });
    }
  });

  it("a batch's row of num-refId answered with refId 12345 is refused", async () => {
    expect(await batchRow('12345', 'num-refId')).toMatchObject({ ok: false, code: 'other_candidate' });
  });

  it('a number whose text as sent is the asked id is the candidate; one JavaScript writes otherwise (1e3) is compared as sent', async () => {
    expect((await supportLookup('12345', '12345')).status).toBe(200);
    expect((await supportLookup('1e3', '1000')).status).toBe(502);
    expect((await supportLookup('12345.0', '12345')).status).toBe(502);
    expect(await batchRow('12345', '12345')).toMatchObject({ ok: true });
  });
});

/** Whether the id, as the answer sent it (its JSON text for a number), reads as the asked one (the full level's rule). */
const readsAs = (raw: string, value: unknown, asked: string) => {
  const text = typeof value === 'string' ? value : typeof value === 'number' ? raw : undefined;
  return text !== undefined && text.normalize('NFC').trim().toLowerCase() === asked.normalize('NFC').trim().toLowerCase();
};

describe('a status-level answer is shown only when its id reads as the asked one', () => {
  it('for any id value and asked id: the support lookup and the batch row show it only then (null or blank text: no id)', async () => {
    const asked = fc.oneof(fc.stringMatching(/^[A-Za-z0-9-]{1,12}$/), fc.integer({ min: 0 }).map(String));
    const value = fc.oneof(
      fc.jsonValue({ maxDepth: 2 }),
      fc.integer(),
      asked,
      asked.map((id) => id.toUpperCase()),
      asked.map(Number).filter(Number.isFinite),
      fc.constant(' '),
    );
    await fc.assert(
      fc.asyncProperty(value, asked, async (id, askedId) => {
        const raw = JSON.stringify(id);
        const noId = id === null || (typeof id === 'string' && id.trim() === '');
        const expected = noId || readsAs(raw, id, askedId);
        const looked = await supportLookup(raw, askedId);
        expect(looked.status === 200, `${raw} asked ${askedId}: ${looked.text}`).toBe(expected);
        if (!expected) expect(JSON.parse(looked.text).error.code).toBe('other_candidate');
        const row = await batchRow(raw, askedId);
        expect(row.ok, `${raw} asked ${askedId} in a batch`).toBe(expected);
      }),
      { numRuns: 150 },
    );
  });
});
