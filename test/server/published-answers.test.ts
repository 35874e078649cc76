import type http from 'node:http';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { structuredFieldsOf, wasSentAsObject } from '../../src/kyc/contract/other-forms.ts';
import { candidateEnvelopeSchema, unreadFieldsOf } from '../../src/kyc/contract/schema.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { ndjson, requestWithBody, startTestApp, type TestApp } from './http.ts';
import { getBytes, partsOf } from './parts.ts';

/**
 * Issue 30: the service's published answers, which differ from the seed contract, are read for what
 * they hold. Each was refused whole before ("unexpected shape … at data.isArchived").
 */

/** The first published status answer: no isArchived (2018). */
const STATUS_ANSWER_2018 = {
  status: 'success',
  data: {
    status: 'inreview',
    recordId: '5b0e8a3c4f1d2e0012ab34cd',
    refId: '1',
    blockPassID: '5b0e8a3c4f1d2e0012ab34ce',
    waitingDate: '2018-05-30T10:11:12.000Z',
    inreviewDate: '2018-05-30T11:00:00.000Z',
  },
};

/** A published archive example has no blockPassID; this one also carries a deletion date (archive after extract). */
const archivingWithoutBlockPassId = () => ({
  status: 'success',
  data: {
    status: 'approved',
    refId: 'archive-example',
    recordId: '5c1f9b4d5e2f3a0013bc45de',
    isArchived: false,
    waitingDate: '2019-02-01T09:00:00.000Z',
    approvedDate: '2019-02-02T09:00:00.000Z',
    willArchiveAtDate: new Date(Date.now() + 10_000).toISOString(),
    identities: { given_name: { type: 'string', value: 'Ada' } },
  },
});

const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;
let answer: unknown = STATUS_ANSWER_2018;

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.behave = (_req: http.IncomingMessage, res: http.ServerResponse) => {
    // Text is sent as it is: a number JSON.stringify could not write as sent (12345678901234567890).
    const body = typeof answer === 'string' ? answer : JSON.stringify(answer);
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key-published' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});
beforeEach(() => {
  answer = STATUS_ANSWER_2018;
});

/** 1×1 PNG: a picture makes the answer one in parts, whose first part is written anew from the answer's tokens. */
const PNG = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNk+M9QDwADhgGAWjR9awAAAABJRU5ErkJggg==';

const recordOf = (body: string) => candidateEnvelopeSchema.parse(JSON.parse(body)).data;

describe('the service’s published answers (issue 30)', () => {
  it('the 2018 status answer without isArchived: a lookup, a status lookup and a batch each answer it', async () => {
    const full = await app.get('/api/candidates/refId/1', { accept: 'application/json', ...COMPLIANCE });
    expect(full.status).toBe(200);
    const record = recordOf(full.body);
    expect(record).toMatchObject({ status: 'inreview', refId: '1', recordId: '5b0e8a3c4f1d2e0012ab34cd' });
    expect(record.isArchived).toBeUndefined();
    expect(unreadFieldsOf(record)).toEqual([]);

    const status = await app.get('/api/status/refId/1', SUPPORT);
    expect(status.status).toBe(200);
    expect(recordOf(status.body)).toEqual(STATUS_ANSWER_2018.data);

    const batch = await requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids: ['1'] }), { headers: SUPPORT });
    const events = ndjson(batch.body);
    expect(events.at(-1)).toEqual({ type: 'done', found: 1, failed: 0 });
    expect(events.find((event) => event.type === 'row')).toMatchObject({ status: 'inreview' });
  });

  it('the 2018 status answer in parts: its status part comes first, read as the page reads it', async () => {
    const res = await getBytes(app.port, '/api/candidates/refId/1', COMPLIANCE);
    expect(res.status).toBe(200);
    const parts = await partsOf(res);
    expect(parts[0]!.headers['content-id']).toMatch(/^status@/);
    const first = recordOf(parts[0]!.body.toString());
    expect(first).toMatchObject({ status: 'inreview', refId: '1' });
  });

  it('the spec’s serviceID in place of blockPassID: a support user’s status level carries it, as it carries blockPassID', async () => {
    const { blockPassID: _, ...rest } = STATUS_ANSWER_2018.data;
    answer = { status: 'success', data: { ...rest, serviceID: 'SVC-123456', kycLevel: 'tier2' } };
    const res = await app.get('/api/candidates/refId/1', SUPPORT);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('tier2');
    expect(recordOf(res.body)).toEqual({ ...rest, serviceID: 'SVC-123456' });
    expect(recordOf((await app.get('/api/status/refId/1', SUPPORT)).body).serviceID).toBe('SVC-123456');
  });

  it('a support user is told which status-level field could not be read, never its value', async () => {
    answer = { status: 'success', data: { ...STATUS_ANSWER_2018.data, isArchived: 'SECRET-not-a-flag', submitCount: [1] } };
    const res = await app.get('/api/candidates/refId/1', SUPPORT);
    expect(res.status).toBe(200);
    expect(res.body).not.toContain('SECRET-not-a-flag');
    const record = recordOf(res.body);
    expect(record.status).toBe('inreview');
    expect(unreadFieldsOf(record)).toEqual([
      { field: 'isArchived', expected: 'true or false', found: 'text' },
      { field: 'submitCount', expected: 'a whole number', found: 'a list' },
    ]);
  });

  it('an answer with other members before status and data ({"code":200,"status":"success",…}) is read, plain, in parts and for support alike', async () => {
    answer = { code: 200, message: 'OK', status: 'success', data: STATUS_ANSWER_2018.data };
    const plain = await app.get('/api/candidates/refId/1', { accept: 'application/json', ...COMPLIANCE });
    expect(plain.status).toBe(200);
    expect(recordOf(plain.body)).toMatchObject({ status: 'inreview', refId: '1' });
    const parts = await partsOf(await getBytes(app.port, '/api/candidates/refId/1', COMPLIANCE));
    expect(recordOf(parts[0]!.body.toString())).toMatchObject({ status: 'inreview', refId: '1' });
    expect(recordOf((await app.get('/api/candidates/refId/1', SUPPORT)).body)).toEqual(STATUS_ANSWER_2018.data);
  });

  it('an answer without the envelope\'s status ({"data":{…}}) is read for what it holds, plain, in parts and for support alike', async () => {
    answer = { data: STATUS_ANSWER_2018.data };
    const plain = await app.get('/api/candidates/refId/1', { accept: 'application/json', ...COMPLIANCE });
    expect(plain.status).toBe(200);
    expect(recordOf(plain.body)).toMatchObject({ status: 'inreview', refId: '1' });
    const parts = await partsOf(await getBytes(app.port, '/api/candidates/refId/1', COMPLIANCE));
    expect(recordOf(parts[0]!.body.toString())).toMatchObject({ status: 'inreview', refId: '1' });
    const support = await app.get('/api/candidates/refId/1', SUPPORT);
    expect(support.status).toBe(200);
    expect(recordOf(support.body)).toEqual(STATUS_ANSWER_2018.data);
    // Another status is not a success, whatever the record says.
    answer = { status: 'error', data: STATUS_ANSWER_2018.data };
    expect((await app.get('/api/candidates/refId/1', SUPPORT)).status).toBe(502);
  });

  it('an address and a phone sent as objects, and custom fields holding an object or a list, reach the page as it reads them, plain and in parts', async () => {
    const address = { address: '1 Rd', city: 'Berlin', country: 'DEU', county: 'Mitte' };
    const phone = { countryCode: 'GBR', countryCode2: 'gb', number: '7700900123' };
    answer = {
      status: 'success',
      data: {
        ...STATUS_ANSWER_2018.data,
        customFields: { obj: { a: 1 }, arr: [1, 2], note: 'x' },
        identities: {
          address: { type: 'string', value: address },
          phone: { type: 'string', value: phone },
          selfie: { type: 'base64', value: PNG },
        },
      },
    };
    const plain = recordOf((await app.get('/api/candidates/refId/1', { accept: 'application/json', ...COMPLIANCE })).body);
    const parts = await partsOf(await getBytes(app.port, '/api/candidates/refId/1', COMPLIANCE));
    const first = recordOf(parts.find((part) => !part.headers['content-id']?.startsWith('status@'))!.body.toString());
    for (const record of [plain, first]) {
      expect(record.identities?.address).toEqual({ type: 'string', value: JSON.stringify(address) });
      expect(wasSentAsObject(record.identities?.address) && wasSentAsObject(record.identities?.phone)).toBe(true);
      expect(record.customFields).toEqual({ note: 'x' });
      expect(structuredFieldsOf(record.customFields).map((field) => field.json)).toEqual(['{"a":1}', '[1,2]']);
      // The first part holds the picture's reference in its place, which the page puts back (picture-parts.ts).
      expect(unreadFieldsOf(record).filter((entry) => entry.field !== 'identities.selfie')).toEqual([]);
    }
    expect(unreadFieldsOf(plain)).toEqual([]);
  });

  it('identity values sent as a number, true or false or null reach the page as sent, plain and in parts, where they were named unreadable', async () => {
    const identities = [
      '"dob":{"type":"string","value":19151210}',
      '"tax_id":{"type":"string","value":12345678901234567890}',
      '"email":{"type":"string","value":null}',
      '"phone":{"type":"string","value":true}',
      `"selfie":{"type":"base64","value":"${PNG}"}`,
    ];
    answer = `{"status":"success","data":{"status":"inreview","refId":"1","identities":{${identities.join(',')}}}}`;
    const plain = (await app.get('/api/candidates/refId/1', { accept: 'application/json', ...COMPLIANCE })).body;
    const parts = await partsOf(await getBytes(app.port, '/api/candidates/refId/1', COMPLIANCE));
    const first = parts.find((part) => !part.headers['content-id']?.startsWith('status@'))!.body.toString();
    for (const body of [plain, first]) {
      // The digits as the service wrote them, never rewritten on the way (the page may read them rounded, and says so).
      expect(body).toContain('"value":12345678901234567890');
      const record = recordOf(body);
      // The first part holds the picture's reference in its place, which the page puts back (picture-parts.ts).
      const aside = structuredFieldsOf(record.identities).filter((field) => field.name !== 'selfie');
      expect(aside.map(({ name, json, kind }) => `${name}: ${json} (${kind})`)).toEqual([
        'dob: 19151210 (a number)',
        'tax_id: 12345678901234567168 (a number)',
        'email: null (null)',
        'phone: true (true or false)',
      ]);
      expect(unreadFieldsOf(record).filter((entry) => entry.field !== 'identities.selfie')).toEqual([]);
    }
  });

  // Last: the finding it records refuses this app's full lookups from then on.
  it('a record without blockPassID that starts an archive-after-extract deletion is answered, and the finding recorded', async () => {
    answer = archivingWithoutBlockPassId();
    const res = await app.get('/api/candidates/refId/archive-example', { accept: 'application/json', ...COMPLIANCE });
    expect(res.status).toBe(200);
    const record = recordOf(res.body);
    expect(record.blockPassID).toBeUndefined();
    expect(record.willArchiveAtDate).toBe((answer as ReturnType<typeof archivingWithoutBlockPassId>).data.willArchiveAtDate);
    const meta = apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', COMPLIANCE)).body));
    expect(meta.archivingKey).toMatchObject({ accepted: false });
  });
});
