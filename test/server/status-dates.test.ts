import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isStatusLevelFieldOf, STATUS_DATE_FIELDS, statusLevelOf } from '../../src/kyc/contract/schema.ts';
import { KNOWN_STATUSES, statusDateField } from '../../src/kyc/contract/status.ts';
import { buildTimeline } from '../../src/kyc/view/timeline.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { MAX_DATE_CANDIDATES, StatusLevelReader } from '../../src/server/answer/status-level-stream.ts';
import { statusLevelValue } from '../../src/server/answer/status-level-value.ts';
import { getBytes, reassemble } from './parts.ts';
import { COMPLIANCE, gateway, SUPPORT } from './queue-fixture.ts';
import { serviceAndApp } from './service-app.ts';

/**
 * The `…Date` fields of a record that the status level keeps beside the documented ones, one of which may
 * be the date of its own status (`on_hold` -> `onHoldDate`): a record has a handful, so the reader keeps a
 * handful, however many a hostile answer holds (each kept one was a member of an object, then copied).
 */

/** The reader fed these bytes in 64 KiB chunks, as a lookup's answer arrives. */
function readerOf(bytes: Buffer): StatusLevelReader {
  const scan = new AnswerScan();
  const reader = new StatusLevelReader(scan.path);
  scan.add(reader);
  for (let at = 0; at < bytes.length; at += 64 * 1024) scan.write(bytes.subarray(at, at + 64 * 1024));
  expect(scan.end()).toBe(true);
  return reader;
}

const APPROVED = { status: 'approved', refId: 'r-dates', recordId: '65f1c0de0123456789abcdef', approvedDate: '2026-01-03T03:04:05Z' };
const APPROVED_TEXT = JSON.stringify(APPROVED).slice(1, -1);
/** `count` fields `f<i>Date`, each a short value: the shape of the hostile answer. */
const manyDates = (count: number) => Array.from({ length: count }, (_, i) => `"f${i}Date":"bad"`).join(',');
/** An answer with those fields after the status fields (`statusFirst`) or before them. */
const hostileAnswer = (count: number, statusFirst: boolean) =>
  Buffer.from(
    statusFirst
      ? `{"status":"success","data":{${APPROVED_TEXT},${manyDates(count)},"identities":{}}}`
      : `{"status":"success","data":{${manyDates(count)},${APPROVED_TEXT},"identities":{}}}`,
  );
const HOSTILE_FIELDS = 200_000;

describe('the `…Date` fields the status level keeps (status-level-stream.ts)', () => {
  const documented = fc.subarray([...STATUS_DATE_FIELDS]);
  const status = fc.oneof(fc.constantFrom(...KNOWN_STATUSES), fc.constantFrom('on_hold', 'escalated', 'pending_docs', 'dob'));
  /** `…Date` fields a record may hold that are no status's date (unless its status names one). */
  const others = fc.subarray(['dobDate', 'expiryDate', 'issueDate', 'lastLoginDate', 'escalatedDate', 'onHoldDate']);
  const at = fc.date({ min: new Date('2020-01-01'), max: new Date('2030-01-01'), noInvalidDate: true }).map((d) => d.toISOString());
  const AFTER_ALL = new Date('2030-01-02');

  it('keeps every status date of an ordinary record, wherever its status stands, and the timeline shows each', () => {
    fc.assert(
      fc.property(status, documented, others, fc.boolean(), fc.nat(20), at, (own, dated, extra, ownDated, place, when) => {
        const dateFields = [...new Set([...dated, ...extra, ...(ownDated ? [statusDateField(own)] : [])])];
        const members: Array<[string, unknown]> = [
          ['refId', 'r-1'],
          ['recordId', '65f1c0de0123456789abcdef'],
          ...dateFields.map((field): [string, unknown] => [field, when]),
          ['identities', {}],
        ];
        // The status anywhere among them: the reader cannot wait for it.
        members.splice(place % (members.length + 1), 0, ['status', own]);
        const record = Object.fromEntries(members);
        const bytes = Buffer.from(JSON.stringify({ status: 'success', data: record }));
        const reader = readerOf(bytes);
        expect(reader.tooLarge).toBe(false);
        const reduced = reader.value() as { data: Record<string, unknown> };
        expect(reduced).toEqual(statusLevelValue(JSON.parse(bytes.toString())));
        expect(reduced.data).toEqual(statusLevelOf(record as never));
        // The documented dates it holds, and its own status's (never `dobDate`, whatever the status says).
        const statusDates = dateFields.filter((field) => isStatusLevelFieldOf(record, field));
        // Read on a clock past every date drawn (to 2030): a date ahead of the reader's clock is not placed (date-doubt.ts).
        const shown = buildTimeline(reduced.data as never, AFTER_ALL).steps.map((step) => step.field);
        expect(shown.sort()).toEqual(statusDates.sort());
        expect(reader.dates.kept).toBeLessThanOrEqual(dateFields.length);
      }),
      { numRuns: 500 },
    );
  });

  it(`attack: ${HOSTILE_FIELDS} \`f<i>Date\` fields after the status: none is kept, the status level is read as if they were not there`, () => {
    const reader = readerOf(hostileAnswer(HOSTILE_FIELDS, true));
    expect(reader.tooLarge).toBe(false);
    expect(reader.dates).toEqual({ kept: 0, passedOver: HOSTILE_FIELDS });
    expect(reader.value()).toEqual({ status: 'success', data: APPROVED });
  });

  it(`attack: ${HOSTILE_FIELDS} \`f<i>Date\` fields before the status: ${MAX_DATE_CANDIDATES} are kept, then the status level is refused`, () => {
    const reader = readerOf(hostileAnswer(HOSTILE_FIELDS, false));
    expect(reader.tooLarge).toBe(true);
    expect(reader.dates.kept).toBe(MAX_DATE_CANDIDATES);
  });

  it('keeps the candidates a record before its status may hold, and drops all but its own date once it is read', () => {
    const candidates = Array.from({ length: MAX_DATE_CANDIDATES - 1 }, (_, i) => `"f${i}Date":"x"`).join(',');
    const reader = readerOf(Buffer.from(`{"status":"success","data":{${candidates},"onHoldDate":"2026-03-01","status":"on_hold"}}`));
    expect(reader.tooLarge).toBe(false);
    expect(reader.dates).toEqual({ kept: 1, passedOver: MAX_DATE_CANDIDATES - 1 });
    expect(reader.value()).toEqual({ status: 'success', data: { onHoldDate: '2026-03-01', status: 'on_hold' } });
  });

  it('passes a status that is no word on as the service wrote it (the app marks what is invisible), without its date', () => {
    const status = 'in\u202Ereview\u0000';
    const record = { status, refId: 'ctl', [`${status}Date`]: '2026-03-01', inreviewDate: '2026-02-01' };
    const reader = readerOf(Buffer.from(JSON.stringify({ status: 'success', data: record })));
    expect(reader.value()).toEqual({ status: 'success', data: { status, refId: 'ctl', inreviewDate: '2026-02-01' } });
  });

  it('refuses a second status naming a date it may have passed over (JSON.parse keeps the last status)', () => {
    const reader = readerOf(Buffer.from('{"status":"success","data":{"status":"approved","onHoldDate":"2026-03-01","status":"on_hold"}}'));
    expect(reader.tooLarge).toBe(true);
  });
});

const { upstream, app } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'c', apiKey: 'dates-test-key-7c2e91' },
  access: gateway(),
}));

describe(`attack: a record with ${HOSTILE_FIELDS} \`f<i>Date\` fields, over HTTP`, () => {
  /** The service sends the answer in 256 KiB chunks, each once /healthz has answered: the server keeps serving while it reads. */
  function serve(body: Buffer): { healthy: number[] } {
    const seen = { healthy: [] as number[] };
    upstream.behave = async (req, res) => {
      // A refused answer is cut by the server: the rest is not sent.
      req.socket.on('error', () => {});
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      for (let at = 0; at < body.length && !res.destroyed; at += 256 * 1024) {
        res.write(body.subarray(at, at + 256 * 1024));
        // A refused answer's service may still be writing as the test ends and the app closes: no status then.
        seen.healthy.push((await app.get('/healthz').catch(() => undefined))?.status ?? 0);
      }
      res.end();
    };
    return seen;
  }

  it('in parts (the app asks so), the fields after the status: the status part goes out with the status level, then the whole record', async () => {
    const body = hostileAnswer(HOSTILE_FIELDS, true);
    const seen = serve(body);
    const res = await getBytes(app.port, '/api/candidates/refId/r-dates', COMPLIANCE);
    expect([res.status, res.cut]).toEqual([200, false]);
    const { order, status, envelope } = await reassemble(res);
    expect(order.slice(0, 2).map((name) => name.slice(0, name.indexOf('@')))).toEqual(['status', 'record']);
    expect(status).toEqual({ status: 'success', data: APPROVED });
    expect(Object.keys(envelope.data)).toHaveLength(Object.keys(APPROVED).length + HOSTILE_FIELDS + 1);
    expect(seen.healthy.length).toBeGreaterThan(10);
    expect(seen.healthy.every((code) => code === 200)).toBe(true);
  }, 60_000);

  it('in parts, the fields before the status: no status part (it could not be told), the record whole', async () => {
    serve(hostileAnswer(HOSTILE_FIELDS, false));
    const res = await getBytes(app.port, '/api/candidates/refId/r-dates', COMPLIANCE);
    expect([res.status, res.cut]).toEqual([200, false]);
    const { order, status, envelope } = await reassemble(res);
    expect(status).toBeUndefined();
    expect(order[0]).toMatch(/^record@/);
    expect(envelope.data.status).toBe('approved');
  }, 60_000);

  it("a support user's status level: answered when the status comes first, refused as more than a record holds when it comes after", async () => {
    serve(hostileAnswer(HOSTILE_FIELDS, true));
    const first = await app.get('/api/candidates/refId/r-dates', SUPPORT);
    expect(first.status).toBe(200);
    expect(JSON.parse(first.body).data).toEqual(APPROVED);
    serve(hostileAnswer(HOSTILE_FIELDS, false));
    const after = await app.get('/api/candidates/refId/r-dates', SUPPORT);
    expect(after.status).toBe(502);
    expect(JSON.parse(after.body).error).toMatchObject({ code: 'upstream_error', message: expect.stringContaining('status-level fields') });
  }, 60_000);
});
