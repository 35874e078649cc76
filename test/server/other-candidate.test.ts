import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { ASKED_ID_HOLD_BYTES } from '../../src/server/answer/answer-guard.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { answeringApp } from './answering-app.ts';
import { getBytes } from './parts.ts';
import { APP_HEADERS, ndjson, requestWithBody, startTestApp } from './http.ts';

/**
 * A cache or a gateway in front of the service answers a lookup with another candidate's record: the
 * server refuses it (other_candidate) before any of that record's personal data leaves, whatever the
 * answer's form, and the audit line names both ids.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

const NAME = 'Marguerite Oyelaran';
const STREET = '17 Quai des Tanneurs';
const BLOCKPASS_ID = 'bp-other-7c41';

/** A record of `refId`, its members in the order given: the ids first as the service writes them, or after the identities. */
function recordBody(refId: string, options: { idsLast?: boolean; blockPassID?: string; again?: string } = {}): string {
  const ids = `"refId":${JSON.stringify(refId)},"blockPassID":"${options.blockPassID ?? BLOCKPASS_ID}"`;
  const identities = `"identities":{"given_name":{"type":"string","value":"${NAME}"},"address":{"type":"address","value":{"address":"${STREET}","city":"Lyon","country":"FRA"}}}`;
  const rest = `"status":"approved","isArchived":false,"approvedDate":"2026-01-14T11:00:00.000Z"`;
  const again = options.again === undefined ? '' : `,"refId":${JSON.stringify(options.again)}`;
  const data = options.idsLast ? `${rest},${identities},${ids}${again}` : `${rest},${ids},${identities}${again}`;
  return `{"status":"success","data":{${data}}}`;
}

/** The app in front of a service answering `body` (answering-app.ts), closed after the test. */
const appAnswering = (body: string) => answeringApp(body, cleanups);

const as = (role: string) => ({ 'x-user': 'ana', 'x-role': role });
const ASKED = { plain: { ...as('compliance'), accept: 'application/json' }, parts: as('compliance'), status: as('support') } as const;

function expectNothingOf(body: Buffer) {
  const text = body.toString('utf8');
  for (const personal of [NAME, STREET, BLOCKPASS_ID, 'approvedDate']) expect(text).not.toContain(personal);
}

describe('another candidate in the answer', () => {
  for (const [form, headers] of Object.entries(ASKED)) {
    for (const idsLast of [false, true]) {
      it(`attack: a gateway answers with another candidate's record (${form}${idsLast ? ', its ids after the identities' : ''})`, async () => {
        const { app, lookupLines } = await appAnswering(recordBody('cust-b', { idsLast }));
        const res = await getBytes(app.port, '/api/candidates/refId/cust-a', headers);
        expect(res.status).toBe(502);
        expectNothingOf(res.body);
        const error = JSON.parse(res.body.toString()).error;
        expect(error).toMatchObject({ code: 'other_candidate', answeredId: 'cust-b' });
        expect(error.message).toContain('refId cust-b');
        // The refusal is audited with both ids: the one asked and the one the answer gave.
        expect(lookupLines()).toEqual([
          expect.objectContaining({ id: 'cust-a', answeredId: 'cust-b', status: 502, code: 'other_candidate' }),
        ]);
      });
    }
  }

  it("attack: a gateway answers the page's status check with another candidate's record", async () => {
    const { app, lookupLines } = await appAnswering(recordBody('cust-b'));
    const res = await getBytes(app.port, '/api/status/refId/cust-a', ASKED.plain);
    expect(res.status).toBe(502);
    expectNothingOf(res.body);
    expect(lookupLines()).toEqual([expect.objectContaining({ id: 'cust-a', answeredId: 'cust-b', code: 'other_candidate' })]);
  });

  it("attack: a gateway answers a batch's row with another candidate's record", async () => {
    const { app, lookupLines } = await appAnswering(recordBody('cust-b'));
    const res = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['cust-a'] }), {
      headers: as('support'),
    });
    expect(res.status).toBe(200);
    expectNothingOf(Buffer.from(res.body));
    expect(ndjson(res.body)[0]).toMatchObject({ type: 'row', index: 0, ok: false, code: 'other_candidate' });
    expect(lookupLines()).toEqual([expect.objectContaining({ id: 'cust-a', answeredId: 'cust-b', code: 'other_candidate', batch: true })]);
  });

  it('attack: a record that gives the id asked, then another one further on, never reaches the browser whole', async () => {
    const { app } = await appAnswering(recordBody('cust-a', { again: 'cust-b' }));
    for (const headers of Object.values(ASKED)) {
      const res = await getBytes(app.port, '/api/candidates/refId/cust-a', headers);
      // Refused, or (the first id let it begin) cut short: never a body the browser parses as a record.
      expect(res.status === 502 || res.cut, `${res.status} ${res.cut}`).toBe(true);
      if (res.status === 502) expect(JSON.parse(res.body.toString()).error.code).toBe('other_candidate');
    }
  });

  it('answers the record whose id differs from the one asked only in case or outer spaces, in every form', async () => {
    const { app, lookupLines } = await appAnswering(recordBody(' CUST-A '));
    for (const headers of Object.values(ASKED)) {
      const res = await getBytes(app.port, '/api/candidates/refId/cust-a', headers);
      expect(res.status).toBe(200);
      expect(res.cut).toBe(false);
    }
    expect(lookupLines().map((line) => [line.status, line.answeredId])).toEqual([
      [200, undefined],
      [200, undefined],
      [200, undefined],
    ]);
  });

  it('answers the record whose id differs from the one asked only in Unicode form (an accent typed apart), in every form', async () => {
    // "café-a" asked with its "é" as one character; the record writes it as "e" and a combining accent.
    const { app, lookupLines } = await appAnswering(recordBody('cafe\u0301-a'));
    for (const headers of Object.values(ASKED)) {
      const res = await getBytes(app.port, `/api/candidates/refId/${encodeURIComponent('caf\u00e9-a')}`, headers);
      // Before: 502 other_candidate, "Asked for refId café-a, … the record of refId café-a".
      expect(res.status).toBe(200);
      expect(res.cut).toBe(false);
    }
    expect(lookupLines().map((line) => line.code)).toEqual([null, null, null]);
  });

  it('answers a record without the id of the kind asked (a full answer by recordId often has none): it says nothing either way', async () => {
    const { app } = await appAnswering(recordBody('cust-b'));
    for (const headers of [ASKED.plain, ASKED.parts]) {
      const res = await getBytes(app.port, '/api/candidates/recordId/65f1c2a9e4b0d3a1f0c9c101', headers);
      expect(res.status).toBe(200);
      expect(res.cut).toBe(false);
      expect(res.body.toString()).toContain(NAME);
    }
  });

  describe('an id given late: held back only as long as the service would give it', () => {
    /** A record by recordId without a recordId, `size` bytes of identities before its refId (`late`, when given). */
    function lateBody(size: number, late?: string) {
      const filler = `"identities":{"given_name":{"type":"string","value":"${NAME}"},"passport":{"type":"base64","value":"${'QUJD'.repeat(size / 4)}"}}`;
      const tail = late === undefined ? '' : `,"recordId":"${late}"`;
      return `{"status":"success","data":{"status":"approved","refId":"cust-a",${filler}${tail}}}`;
    }

    it("a large record without the id asked is passed on as it comes, not held whole (a hostile one would hold the server's memory)", async () => {
      const body = lateBody(4 * ASKED_ID_HOLD_BYTES);
      const upstream = await startFakeUpstream();
      let headersReached = () => {};
      const reached = new Promise<void>((resolve) => (headersReached = resolve));
      upstream.behave = async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
        // All but the record's last bytes; the rest only once the browser has the answer's head.
        res.write(body.slice(0, -10));
        await reached;
        res.end(body.slice(-10));
      };
      const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' } });
      cleanups.push(app.close, upstream.close);
      const got = await new Promise<{ status: number; text: string }>((resolve, reject) => {
        const req = http.get(
          {
            host: '127.0.0.1',
            port: app.port,
            path: '/api/candidates/recordId/65f1c2a9e4b0d3a1f0c9c101',
            headers: { ...APP_HEADERS, accept: 'application/json' },
          },
          (res) => {
            // Before: no head until the service's last byte, so this waited forever.
            headersReached();
            const chunks: Buffer[] = [];
            res.on('data', (chunk: Buffer) => chunks.push(chunk));
            res.on('end', () => resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString() }));
          },
        );
        req.on('error', reject);
      });
      expect(got.status).toBe(200);
      expect(got.text).toBe(body);
    });

    it("attack: another candidate's id given after more than the hold cuts the answer, audited as other_candidate", async () => {
      const { app, lookupLines } = await appAnswering(lateBody(4 * ASKED_ID_HOLD_BYTES, '65f1c2a9e4b0d3a1f0c9ffff'));
      const res = await getBytes(app.port, '/api/candidates/recordId/65f1c2a9e4b0d3a1f0c9c101', ASKED.plain);
      expect(res.status).toBe(200);
      expect(res.cut).toBe(true);
      await expect
        .poll(() => lookupLines().map((line) => `${line.status} ${line.code} ${line.cut ?? ''}`))
        .toEqual(['200 null ', '502 other_candidate answer_fault']);
    });
  });
});
