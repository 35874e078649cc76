import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answeredOther } from '../../src/kyc/contract/answered-id.ts';
import { idOfNumber, idOfNumberText, idSentAsNumber } from '../../src/kyc/contract/record-id.ts';
import { readCandidateRecord } from '../../src/kyc/contract/record-reading.ts';
import { candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { AskedIdWatch } from '../../src/server/answer/asked-id-watch.ts';
import { watchRecord } from '../../src/server/answer/record-triage.ts';
import { ndjson, requestWithBody, type TestApp } from './http.ts';
import { getBytes } from './parts.ts';
import { startOneAnswerApp } from './one-answer-app.ts';

/**
 * A record whose refId (or recordId) the service sends as a JSON number (`"refId": 12345`) is read with
 * that id as its digits, at every level, as the webhook reader reads a delivery's ids: before, it was
 * refused whole ("neither a refId nor a recordId that can be read", `502 not_a_record` at status level).
 * Only a safe integer in plain digits is an id: a fraction, an exponent, a negative number or one past
 * 2^53 stays unreadable. The asked-id guard still compares: 12345 is the candidate 12345, not 12346.
 */

const NAME = 'Ana';
const recordWith = (rawId: string, kind: 'refId' | 'recordId' = 'refId') =>
  `{"status":"success","data":{"status":"approved","${kind}":${rawId},"approvedDate":"2026-11-01T10:00:00.000Z","identities":{"given_name":{"type":"string","value":"${NAME}"}}}}`;
/** 1×1 PNG: a picture makes the compliance answer one in parts. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const answer = { body: recordWith('12345') };
let app: TestApp;
let close: () => Promise<void>;

beforeAll(async () => {
  ({ app, close } = await startOneAnswerApp(answer));
});
afterAll(() => close());

const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance', accept: 'application/json' };
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support', accept: 'application/json' };

/** The page's reading of an answer's body (the app's schema), as the browser parses it. */
const pageRecord = (text: string) => candidateEnvelopeSchema.parse(JSON.parse(text)).data;

describe('a record whose id is a JSON number (real HTTP, fake upstream)', () => {
  it("a compliance user's lookup passes it on, and the page reads refId 12345 as its digits, said sent as a number", async () => {
    answer.body = recordWith('12345');
    const res = await getBytes(app.port, '/api/candidates/refId/12345', COMPLIANCE);
    expect(res.status).toBe(200);
    const record = pageRecord(res.body.toString());
    expect(record.refId).toBe('12345');
    expect(idSentAsNumber(record, 'refId')).toBe(true);
    expect(record.identities?.given_name?.value).toBe(NAME);
  });

  it("a support user's status lookup reduces it (no 502 not_a_record), the id written back as the number sent", async () => {
    for (const path of ['/api/status/refId/12345', '/api/candidates/refId/12345']) {
      answer.body = recordWith('12345');
      const res = await getBytes(app.port, path, SUPPORT);
      expect(res.status, path).toBe(200);
      const text = res.body.toString();
      expect(text).toContain('"refId":12345');
      expect(text).not.toContain(NAME);
      const record = pageRecord(text);
      expect(record).toMatchObject({ status: 'approved', refId: '12345' });
      expect(idSentAsNumber(record, 'refId')).toBe(true);
    }
  });

  it('a recordId sent as a number is read the same way', async () => {
    answer.body = recordWith('424242', 'recordId');
    const full = await getBytes(app.port, '/api/candidates/recordId/424242', COMPLIANCE);
    expect(full.status).toBe(200);
    expect(pageRecord(full.body.toString()).recordId).toBe('424242');
    const status = await getBytes(app.port, '/api/status/recordId/424242', SUPPORT);
    expect(status.status).toBe(200);
    expect(idSentAsNumber(pageRecord(status.body.toString()), 'recordId')).toBe(true);
  });

  it('asked 12345, answered 12346: refused as another candidate at every level, nothing of the record sent', async () => {
    answer.body = recordWith('12346');
    for (const [path, headers] of [
      ['/api/candidates/refId/12345', COMPLIANCE],
      ['/api/status/refId/12345', SUPPORT],
    ] as const) {
      const res = await getBytes(app.port, path, headers);
      expect(res.status, path).toBe(502);
      expect(res.body.toString()).not.toContain(NAME);
      expect(JSON.parse(res.body.toString()).error).toMatchObject({ code: 'other_candidate', answeredId: '12346' });
    }
  });

  it("a batch's row of 12345 answered with refId 12345 is read", async () => {
    answer.body = recordWith('12345');
    const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['12345'] }), {
      headers: { 'x-user': 'sam', 'x-role': 'support' },
    });
    const row = ndjson(res.body).find((line) => line.type === 'row');
    expect(row).toMatchObject({ ok: true });
  });

  it('in parts (a picture in the record): passed on too', async () => {
    answer.body = `{"status":"success","data":{"status":"approved","refId":12345,"identities":{"selfie":{"type":"base64","value":"${PNG}"}}}}`;
    const res = await getBytes(app.port, '/api/candidates/refId/12345', { 'x-user': 'ana', 'x-role': 'compliance' });
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^multipart\/mixed/);
  });

  it('a number that is no whole number in plain digits stays unreadable: the status level names the record not readable', async () => {
    for (const raw of ['12345.0', '1.2345e4', '-12345', '12345678901234567890']) {
      answer.body = recordWith(raw);
      const res = await getBytes(app.port, `/api/status/refId/${encodeURIComponent(raw)}`, SUPPORT);
      expect(res.status, raw).toBe(502);
      expect(JSON.parse(res.body.toString()).error.code, raw).toBe('not_a_record');
    }
  });
});

describe('the id rule, wherever the id is read', () => {
  /** What the streamed guard says of a record whose refId is this JSON text, asked for `asked`. */
  const watched = (raw: string, asked: string) => {
    const scan = new AnswerScan();
    const watch = new AskedIdWatch(scan.path, { kind: 'refId', id: asked });
    scan.add(watch);
    scan.write(Buffer.from(`{"status":"success","data":{"status":"approved","refId":${raw}}}`));
    scan.end();
    return watch;
  };
  /** The queue's triage of a compliance lookup learns the record (record-triage.ts). */
  const learnt = (raw: string) => {
    const scan = new AnswerScan();
    let id: string | undefined;
    watchRecord(
      scan,
      (record) => (id = record.refId),
      () => true,
    );
    scan.write(Buffer.from(`{"status":"success","data":{"status":"waiting","refId":${raw}}}`));
    scan.end();
    return id;
  };

  it('property: every safe non-negative integer is read as its digits, and is the same candidate as those digits asked', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (n) => {
        const digits = String(n);
        expect(idOfNumber(n)).toBe(digits);
        expect(idOfNumberText(digits)).toBe(digits);
        const reading = readCandidateRecord(JSON.parse(`{"status":"approved","refId":${digits}}`));
        expect(reading.ok && reading.record.refId).toBe(digits);
        expect(answeredOther(n, digits)).toBeUndefined();
        expect(watched(digits, digits).other).toBeUndefined();
        expect(learnt(digits)).toBe(digits);
        // Another id asked: another candidate, named by its digits.
        expect(watched(digits, String(n + 1)).other).toBe(digits);
      }),
      { numRuns: 300 },
    );
  });

  it('property: any other number (fraction, exponent, negative, -0, past 2^53) is never read as an id', () => {
    const other = fc.oneof(
      fc.double({ noNaN: true }).filter((n) => !(Number.isSafeInteger(n) && n >= 0 && !Object.is(n, -0))),
      fc.integer({ min: Number.MIN_SAFE_INTEGER, max: -1 }),
      fc.constant(-0),
      fc.bigInt({ min: 2n ** 53n, max: 10n ** 30n }).map(Number),
    );
    fc.assert(
      fc.property(other, (n) => {
        expect(idOfNumber(n)).toBeUndefined();
        const reading = readCandidateRecord({ status: 'approved', refId: n });
        expect(reading.ok).toBe(false);
      }),
      { numRuns: 300 },
    );
    // As sent, not as read: the text decides where it was kept (1e3 reads as 1000, 12345.0 as 12345).
    for (const sent of ['1e3', '12345.0', '-0', '0012', '+1', '9007199254740993']) {
      expect(idOfNumberText(sent), sent).toBeUndefined();
      expect(idOfNumber(Number(sent), sent), sent).toBeUndefined();
      expect(learnt(sent === '0012' || sent === '+1' ? '"x"' : sent), sent).not.toBe(String(Number(sent)));
    }
  });

  it('a record whose own id is a whole number is that record, whatever its data field holds (not a second envelope)', () => {
    const record = { status: 'approved', refId: 12345, data: { status: 'other' } };
    expect(readCandidateRecord(record)).toMatchObject({ ok: true, record: { refId: '12345' } });
    const scan = new AnswerScan();
    const watch = new AskedIdWatch(scan.path, { kind: 'recordId', id: 'rec-1' });
    scan.add(watch);
    scan.write(Buffer.from(JSON.stringify({ status: 'success', data: record })));
    scan.end();
    expect(watch.wrapped).toBeUndefined();
  });
});
