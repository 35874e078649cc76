import { mkdtempSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { type CandidateRecord, candidateEnvelopeSchema, isStatusLevelField } from '../../src/kyc/contract/schema.ts';
import { AnswerScan } from '../../src/server/answer/answer-scan.ts';
import { keySearch } from '../../src/server/answer/key-watch.ts';
import { reduceToStatusLevel } from '../../src/server/answer/status-level.ts';
import { StatusLevelReader } from '../../src/server/answer/status-level-stream.ts';
import { MAX_CUSTOM_FIELDS_TEXT, statusLevelValue } from '../../src/server/answer/status-level-value.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { ApiFailure } from '../../src/server/http/api-failure.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { anyCodePoint } from '../support/any-code-point.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { readAuditFile } from './audit-logs.ts';
import { configErrorOf } from './config-error.ts';
import { requestWithBody, startTestApp, testEnvironment } from './http.ts';
import { lookedUp } from './looked-up.ts';

/** Never asked here: every body is a record. */
const STATED = new ApiFailure('upstream_error', 'not a record');

/**
 * Support fields (issue 24): a support user's lookup in an environment with `supportFields` reads the
 * full record and answers the status level plus exactly those custom fields, kept while the answer
 * streams; an object or list under a listed name is refused (not shown), and a key that archives after
 * extract is never used for it.
 */

const FIELDS = ['rejectionReason', 'resubmitHint'] as const;
const SECRET = 'SECRET-never-leaves';
const rejected = (await sampleCandidates({ now: new Date() })).find((c) => c.record.status === 'rejected')!.record;
const record: CandidateRecord = {
  ...rejected,
  customFields: { riskLevel: SECRET, rejectionReason: 'The passport photo is blurred.', accountId: SECRET },
};

const json = fc.jsonValue({ maxDepth: 3, stringUnit: anyCodePoint });
/** Custom fields as a hostile service might send them: listed names holding anything, `__proto__`, others. */
const customFields = fc.dictionary(fc.constantFrom(...FIELDS, '__proto__', 'riskLevel', 'x'), json, { maxKeys: 6 });
/** Members beside the status level: dropped whatever they hold (status-level ones are the contract's to check). */
const dataMember = fc.constantFrom('__proto__', 'nested', 'futureField', 'notes');

function streamedOf(bytes: Buffer, fields: readonly string[]): unknown {
  const scan = new AnswerScan();
  const reader = new StatusLevelReader(scan.path, fields);
  scan.add(reader);
  // Cut at every 7th byte: the reader keeps nothing between chunks it should not.
  for (let at = 0; at < bytes.length; at += 7) scan.write(bytes.subarray(at, at + 7));
  expect(scan.end()).toBe(true);
  return reader.value();
}

function bodyOf(text: string) {
  const body = Object.assign(new PassThrough(), { headers: {}, complete: true, statusCode: 200 });
  body.end(text);
  return body;
}

describe('the status level with support fields, read from the scan', () => {
  it('equals JSON.parse then reduce, for any envelope and any custom fields', () => {
    const envelope = fc.record({
      status: json,
      // Custom fields as text too: the JSON of an object (read for the listed fields), or of anything else (its form alone).
      data: fc.oneof(
        fc.record(
          {
            customFields: fc.oneof(
              customFields,
              json,
              fc.oneof(customFields, json).map((v) => JSON.stringify(v)),
            ),
            other: json,
          },
          { requiredKeys: [] },
        ),
        json,
      ),
    });
    fc.assert(
      fc.property(envelope, (value) => {
        const bytes = Buffer.from(JSON.stringify(value));
        const expected = statusLevelValue(JSON.parse(bytes.toString()), FIELDS);
        // Equal members (a refused duplicate can move a field's place, which no reader sees).
        expect(streamedOf(bytes, FIELDS)).toEqual(expected);
      }),
      { numRuns: 1000 },
    );
  });

  it('answers exactly the status level plus the listed fields holding plain values, whatever the record holds', async () => {
    const hostile = fc.dictionary(dataMember, fc.oneof(json, customFields), { maxKeys: 5 });
    await fc.assert(
      fc.asyncProperty(hostile, customFields, fc.boolean(), async (extra, custom, asText) => {
        // A listed name nested under `__proto__` too (an own member, as JSON.parse makes it); the custom fields as their JSON text too.
        const fields = { ...{ ['__proto__']: { rejectionReason: SECRET } }, ...custom };
        const data = { ...record, ...extra, customFields: asText ? JSON.stringify(fields) : fields };
        const text = JSON.stringify({ status: 'success', data });
        const parsed = JSON.parse(text).data as Record<string, unknown>;
        const reduced = await reduceToStatusLevel(
          bodyOf(text),
          { maxResponseBytes: 1 << 20, keys: keySearch([]), stated: () => STATED },
          FIELDS,
        );
        if (!reduced.ok) throw new Error(reduced.failure.message);
        const answered = JSON.parse(reduced.body).data as Record<string, unknown>;
        for (const key of Object.keys(answered)) expect(key === 'customFields' || isStatusLevelField(key), key).toBe(true);
        const sent = parsed.customFields;
        const given = (typeof sent === 'string' ? JSON.parse(sent) : sent) as Record<string, unknown>;
        const expected = Object.fromEntries(
          FIELDS.filter((f) => Object.hasOwn(given, f) && (given[f] === null || typeof given[f] !== 'object')).map((f) => [f, given[f]]),
        );
        expect(answered.customFields).toEqual(expected);
        expect(reduced.body).not.toContain(SECRET);
      }),
      { numRuns: 300 },
    );
  });

  it('never takes a listed field nested under __proto__, under another member or holding an object', () => {
    const cases = [
      { customFields: { ['__proto__']: { rejectionReason: SECRET } } },
      { ['__proto__']: { customFields: { rejectionReason: SECRET } } },
      { customFields: { rejectionReason: { text: SECRET } } },
      { customFields: { rejectionReason: [SECRET] } },
      { identities: { customFields: { rejectionReason: SECRET } } },
      { customFields: SECRET },
    ];
    for (const data of cases) {
      const text = JSON.stringify({ status: 'success', data: { status: 'rejected', ...data } });
      const bytes = Buffer.from(text);
      const value = streamedOf(bytes, FIELDS) as { data: Record<string, unknown> };
      // Text in customFields' place, and an object or a list in a listed field's, is kept by its form alone, never its content.
      const custom = data.customFields as Record<string, unknown> | string | undefined;
      const form =
        typeof custom === 'string'
          ? ''
          : Array.isArray(custom?.rejectionReason)
            ? { rejectionReason: [] }
            : custom?.rejectionReason
              ? { rejectionReason: {} }
              : {};
      expect(value.data.customFields, text).toEqual(form);
      expect(JSON.stringify(value)).not.toContain(SECRET);
    }
    // A later plain value of the same name replaces an object's form, as JSON.parse keeps the last.
    const later = Buffer.from(
      `{"status":"success","data":{"customFields":{"rejectionReason":{"a":"${SECRET}"},"rejectionReason":"Blurred"}}}`,
    );
    expect((streamedOf(later, FIELDS) as { data: unknown }).data).toEqual({ customFields: { rejectionReason: 'Blurred' } });
    const earlier = Buffer.from(
      `{"status":"success","data":{"customFields":{"rejectionReason":"Blurred","rejectionReason":{"a":"${SECRET}"}}}}`,
    );
    expect((streamedOf(earlier, FIELDS) as { data: unknown }).data).toEqual({ customFields: { rejectionReason: {} } });
  });
});

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-support-fields-'));
const SUPPORT = { 'x-user': 'sam', 'x-role': 'support' };
const COMPLIANCE = { 'x-user': 'ana', 'x-role': 'compliance' };
const LOOKUP = `/api/candidates/refId/${encodeURIComponent(record.refId!)}`;
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/**
 * A service answering `record` in full to the full key and at status level to the status key; with
 * `archives`, each full answer schedules the record's archiving 10 s later (archive after extract).
 */
async function service(options: { supportFields?: string[]; archives?: boolean } = {}) {
  const upstream = await startFakeUpstream();
  upstream.behave = (req: http.IncomingMessage, res: http.ServerResponse) => {
    const full = req.headers.authorization === 'full-key';
    const data = full
      ? { ...record, ...(options.archives ? { willArchiveAtDate: new Date(Date.now() + 10_000).toISOString() } : {}) }
      : { status: record.status, refId: record.refId, recordId: record.recordId, isArchived: false, blockPassID: record.blockPassID };
    const body = JSON.stringify({ status: 'success', data });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const auditFile = path.join(dir, `audit-${Math.random().toString(36).slice(2)}.jsonl`);
  const environment = testEnvironment({ baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 'status-key' });
  const app = await startTestApp({
    environments: [{ ...environment, ...(options.supportFields ? { supportFields: options.supportFields } : {}) }],
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    audit: createAuditLog(auditFile),
  });
  cleanups.push(async () => {
    await app.close();
    await upstream.close();
  });
  return { upstream, app, audit: () => readAuditFile(auditFile) };
}

describe('custom fields sent as text or a list', () => {
  it('are named unread in the status-level answer (the form found, never the content), not answered as none recorded', async () => {
    const given = { rejectionReason: SECRET, resubmitHint: SECRET };
    const forms = [
      // Text that holds no JSON object: cut off, a list, plain words.
      { customFields: JSON.stringify(given).slice(0, -1), found: 'text' },
      { customFields: JSON.stringify([given]), found: 'text' },
      { customFields: Object.entries(given).map(([key, value]) => ({ key, value })), found: 'a list' },
      // Text of a megabyte costs the reader one character: its form alone is kept.
      { customFields: SECRET.repeat(50_000), found: 'text' },
    ];
    for (const { customFields, found } of forms) {
      const text = JSON.stringify({ status: 'success', data: { ...record, customFields } });
      const reduced = await reduceToStatusLevel(
        bodyOf(text),
        { maxResponseBytes: 4 << 20, keys: keySearch([]), stated: () => STATED },
        FIELDS,
      );
      if (!reduced.ok) throw new Error(reduced.failure.message);
      const answered = JSON.parse(reduced.body) as { data: Record<string, unknown>; unread?: unknown };
      expect(answered.data.customFields).toEqual({});
      expect(answered.unread).toEqual([{ field: 'customFields', expected: 'an object', found }]);
      expect(reduced.body).not.toContain(SECRET);
      // The page reads it: the envelope passes the contract's schema.
      expect(candidateEnvelopeSchema.safeParse(answered).success).toBe(true);
    }
  });

  it('are named unread whatever other form they come in, and answered as fetched (present, empty)', async () => {
    const notAnObject = json.filter((value) => value === null || typeof value !== 'object' || Array.isArray(value));
    await fc.assert(
      fc.asyncProperty(notAnObject, async (customFields) => {
        const text = JSON.stringify({ status: 'success', data: { ...record, customFields } });
        const reduced = await reduceToStatusLevel(
          bodyOf(text),
          { maxResponseBytes: 1 << 20, keys: keySearch([]), stated: () => STATED },
          FIELDS,
        );
        if (!reduced.ok) throw new Error(reduced.failure.message);
        const answered = JSON.parse(reduced.body) as { data: Record<string, unknown>; unread?: Array<{ field: string }> };
        expect(answered.data.customFields).toEqual({});
        // null is no custom fields (as absent); anything else was sent and is said so.
        expect(answered.unread?.some((entry) => entry.field === 'customFields') ?? false).toBe(customFields !== null);
      }),
      { numRuns: 200 },
    );
  });
});

describe('custom fields sent as the JSON text of an object', () => {
  const reduce = (text: string, maxResponseBytes = 4 << 20) =>
    reduceToStatusLevel(bodyOf(text), { maxResponseBytes, keys: keySearch([]), stated: () => STATED }, FIELDS);
  const envelopeWith = (customFields: unknown) => JSON.stringify({ status: 'success', data: { ...record, customFields } });

  it('gives a support user the listed fields the text holds, as an object gives them, in both readings', async () => {
    const custom = { rejectionReason: 'The passport photo is blurred.', resubmitHint: 7, riskLevel: SECRET };
    const text = envelopeWith(JSON.stringify(custom));
    const reduced = await reduce(text);
    if (!reduced.ok) throw new Error(reduced.failure.message);
    const answered = JSON.parse(reduced.body) as { data: Record<string, unknown>; unread?: unknown };
    expect(answered.data.customFields).toEqual({ rejectionReason: 'The passport photo is blurred.', resubmitHint: 7 });
    expect(answered.unread).toBeUndefined();
    expect(reduced.body).not.toContain(SECRET);
    expect(candidateEnvelopeSchema.safeParse(answered).success).toBe(true);
    // The streamed reader and the whole value agree, and read the text as the object would be read.
    const whole = statusLevelValue(JSON.parse(text), FIELDS);
    expect(streamedOf(Buffer.from(text), FIELDS)).toEqual(whole);
    expect(whole).toEqual(statusLevelValue(JSON.parse(envelopeWith(custom)), FIELDS));
  });

  it('attack: customFields as JSON text carrying other fields gives a support user only the support fields', async () => {
    const picture = `/9j/${'A'.repeat(4000)}${SECRET}`;
    const hostile = {
      riskLevel: SECRET,
      identities: { given_name: { type: 'string', value: SECRET }, selfie: { type: 'base64', value: picture } },
      ['__proto__']: { rejectionReason: SECRET },
      customFields: { rejectionReason: SECRET },
      rejectionReason: { text: SECRET, picture },
      resubmitHint: 'Retake it.',
    };
    const text = envelopeWith(JSON.stringify(hostile));
    const reduced = await reduce(text);
    if (!reduced.ok) throw new Error(reduced.failure.message);
    const answered = JSON.parse(reduced.body) as { data: Record<string, unknown>; unread?: unknown };
    for (const key of Object.keys(answered.data)) expect(key === 'customFields' || isStatusLevelField(key), key).toBe(true);
    expect(answered.data.customFields).toEqual({ resubmitHint: 'Retake it.' });
    // The listed field holding an object: named unread by its form, never its content.
    expect(answered.unread).toEqual([
      { field: 'customFields.rejectionReason', expected: 'text, a number, true or false, or empty', found: 'an object' },
    ]);
    expect(reduced.body).not.toContain(SECRET);
    expect(reduced.body).not.toContain('/9j/');
    expect(JSON.stringify(streamedOf(Buffer.from(text), FIELDS))).not.toContain(SECRET);
    expect(JSON.stringify(statusLevelValue(JSON.parse(text), FIELDS))).not.toContain(SECRET);
  });

  it('reads text of at most MAX_CUSTOM_FIELDS_TEXT characters; longer text (up to 16 MiB here) is its form alone, said unread, and never parsed', async () => {
    const jsonOfLength = (length: number) => {
      const head = '{"rejectionReason":"Blurred","padding":"';
      // Characters outside ASCII count as the string's (UTF-16) length in both readings.
      const fill = 'é'.repeat(length - head.length - 2);
      return `${head}${fill}"}`;
    };
    const parse = JSON.parse;
    const parsedLengths: number[] = [];
    const spy = vi.spyOn(JSON, 'parse').mockImplementation((value: string, reviver?: Parameters<typeof JSON.parse>[1]) => {
      parsedLengths.push(value.length);
      return parse(value, reviver);
    });
    try {
      for (const length of [MAX_CUSTOM_FIELDS_TEXT, MAX_CUSTOM_FIELDS_TEXT + 1, 16 * 1024 * 1024]) {
        const customText = jsonOfLength(length);
        expect(customText.length).toBe(length);
        const text = envelopeWith(customText);
        const read = length <= MAX_CUSTOM_FIELDS_TEXT;
        const streamed = streamedOf(Buffer.from(text), FIELDS) as { data: Record<string, unknown> };
        expect(streamed.data.customFields).toEqual(read ? { rejectionReason: 'Blurred' } : '');
        parsedLengths.length = 0;
        const reduced = await reduce(text, 64 << 20);
        if (!reduced.ok) throw new Error(reduced.failure.message);
        // Nothing of the body's length parsed: only a text within the bound, when read.
        expect(parsedLengths.every((parsed) => parsed <= MAX_CUSTOM_FIELDS_TEXT + 1000)).toBe(true);
        const answered = JSON.parse(reduced.body) as { data: Record<string, unknown>; unread?: unknown };
        expect(answered.data.customFields).toEqual(read ? { rejectionReason: 'Blurred' } : {});
        expect(answered.unread).toEqual(read ? undefined : [{ field: 'customFields', expected: 'an object', found: 'text' }]);
        if (length <= MAX_CUSTOM_FIELDS_TEXT + 1) expect(streamed).toEqual(statusLevelValue(parse(text), FIELDS));
      }
    } finally {
      spy.mockRestore();
    }
  });
});

describe('a support field holding an object or a list', () => {
  const reduce = (text: string, maxResponseBytes = 1 << 20) =>
    reduceToStatusLevel(bodyOf(text), { maxResponseBytes, keys: keySearch([]), stated: () => STATED }, FIELDS);
  const EXPECTED = 'text, a number, true or false, or empty';

  it('is named unread by its form, never its content, not dropped as if nothing were recorded', async () => {
    const forms = [
      { value: { text: SECRET }, found: 'an object' },
      { value: [SECRET], found: 'a list' },
      // A megabyte of object costs the reader nothing: its form alone is kept, its content passed over.
      { value: { notes: Array.from({ length: 20_000 }, () => ({ note: SECRET })) }, found: 'an object' },
    ];
    for (const { value, found } of forms) {
      const text = JSON.stringify({
        status: 'success',
        data: { ...record, customFields: { rejectionReason: value, resubmitHint: 'Retake it.' } },
      });
      const reduced = await reduce(text, 4 << 20);
      if (!reduced.ok) throw new Error(reduced.failure.message);
      const answered = JSON.parse(reduced.body) as { data: Record<string, unknown>; unread?: unknown };
      expect(answered.data.customFields).toEqual({ resubmitHint: 'Retake it.' });
      expect(answered.unread).toEqual([{ field: 'customFields.rejectionReason', expected: EXPECTED, found }]);
      expect(reduced.body).not.toContain(SECRET);
      expect(candidateEnvelopeSchema.safeParse(answered).success).toBe(true);
    }
  });

  it('for any value of any listed field: a plain one is answered, any other named unread by its kind, none of it sent', async () => {
    await fc.assert(
      fc.asyncProperty(customFields, async (custom) => {
        const text = JSON.stringify({ status: 'success', data: { ...record, customFields: custom } });
        const reduced = await reduce(text);
        if (!reduced.ok) throw new Error(reduced.failure.message);
        const answered = JSON.parse(reduced.body) as { data: { customFields: Record<string, unknown> }; unread?: UnreadEntry[] };
        const given = JSON.parse(text).data.customFields as Record<string, unknown>;
        for (const field of FIELDS) {
          const value = Object.hasOwn(given, field) ? given[field] : undefined;
          const structured = typeof value === 'object' && value !== null;
          const named = answered.unread?.filter((entry) => entry.field === `customFields.${field}`) ?? [];
          expect(named).toEqual(
            structured
              ? [{ field: `customFields.${field}`, expected: EXPECTED, found: Array.isArray(value) ? 'a list' : 'an object' }]
              : [],
          );
          expect(Object.hasOwn(answered.data.customFields, field)).toBe(value !== undefined && !structured);
        }
        expect(candidateEnvelopeSchema.safeParse(JSON.parse(reduced.body)).success).toBe(true);
      }),
      { numRuns: 300 },
    );
  });
});

type UnreadEntry = { field: string; expected: string; found: string };

describe('a support user in an environment with support fields', () => {
  it('gets the status level plus the listed fields, read with the full key; the audit line names the fields shown', async () => {
    const { upstream, app, audit } = await service({ supportFields: [...FIELDS] });
    const res = await app.get(LOOKUP, SUPPORT);
    expect(res.status, res.body).toBe(200);
    expect(upstream.seen.at(-1)!.headers.authorization).toBe('full-key');
    const data = candidateEnvelopeSchema.parse(JSON.parse(res.body)).data;
    expect(data.customFields).toEqual({ rejectionReason: 'The passport photo is blurred.' });
    expect(data.identities).toBeUndefined();
    expect(data.certs).toBeUndefined();
    expect(res.body).not.toContain(SECRET);
    expect(res.body).not.toContain(record.identities!.email!.value);
    expect(audit().at(-1)).toMatchObject({ user: 'sam', level: 'stripped', fields: ['rejectionReason'], status: 200 });
    expect(JSON.stringify(audit().at(-1))).not.toContain('blurred');

    const meta = apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', SUPPORT)).body));
    expect(meta.supportFields).toEqual([...FIELDS]);
  });

  it('checks freshness (/api/status) with the status key, fetching no support fields', async () => {
    const { upstream, app, audit } = await service({ supportFields: [...FIELDS] });
    const res = await app.get(`/api/status/refId/${encodeURIComponent(record.refId!)}`, SUPPORT);
    expect(res.status, res.body).toBe(200);
    expect(upstream.seen.at(-1)!.headers.authorization).toBe('status-key');
    expect(candidateEnvelopeSchema.parse(JSON.parse(res.body)).data.customFields).toBeUndefined();
    expect(audit().at(-1)).toMatchObject({ level: 'status' });
  });

  it('leaves a compliance user with the full record, and a support user elsewhere with the status key', async () => {
    const withFields = await service({ supportFields: [...FIELDS] });
    const full = candidateEnvelopeSchema.parse(JSON.parse((await withFields.app.get(LOOKUP, COMPLIANCE)).body)).data;
    expect(full.customFields).toEqual(record.customFields);
    expect(withFields.audit().at(-1)).not.toHaveProperty('fields');

    const without = await service();
    const res = await without.app.get(LOOKUP, SUPPORT);
    expect(without.upstream.seen.at(-1)!.headers.authorization).toBe('status-key');
    expect(candidateEnvelopeSchema.parse(JSON.parse(res.body)).data.customFields).toBeUndefined();
    expect(without.audit().at(-1)).toMatchObject({ level: 'status' });
    expect(without.audit().at(-1)).not.toHaveProperty('fields');
  });

  it('does not fetch them once the full key is seen to archive after extract: the status key is used, and the line says why', async () => {
    const { upstream, app, audit } = await service({ supportFields: [...FIELDS], archives: true });
    // The first full answer shows the key archives.
    expect((await app.get(LOOKUP, COMPLIANCE)).status).toBe(200);
    const meta = apiMetaSchema.parse(JSON.parse((await app.get('/api/meta', SUPPORT)).body));
    expect(meta.archivingKey).toBeDefined();

    const res = await app.get(LOOKUP, SUPPORT);
    expect(res.status, res.body).toBe(200);
    expect(upstream.seen.at(-1)!.headers.authorization).toBe('status-key');
    expect(candidateEnvelopeSchema.parse(JSON.parse(res.body)).data.customFields).toBeUndefined();
    expect(audit().at(-1)).toMatchObject({ user: 'sam', level: 'status', fieldsWithheld: 'archiving_key', status: 200 });
    expect(audit().at(-1)).not.toHaveProperty('fields');
  });
});

describe('configuring support fields', () => {
  const QUICK = { KYC_BASE_URL: 'https://kyc.example.com', KYC_CLIENT_ID: 'c', KYC_API_KEY: 'k' };
  const entry = { name: 'prod', label: 'Production', baseUrl: 'https://kyc.example.com', clientId: 'c', apiKeyEnv: 'PROD_KEY' };

  it('reads SUPPORT_FIELDS for the quick start and the sandbox, and supportFields per environment', () => {
    expect(parseConfig({ ...QUICK, SUPPORT_FIELDS: ' rejectionReason, resubmitHint ,' }).environments[0]!.supportFields).toEqual([
      'rejectionReason',
      'resubmitHint',
    ]);
    expect(parseConfig({ SUPPORT_FIELDS: 'note' }).environments[0]!.supportFields).toEqual(['note']);
    expect(
      parseConfig({ PROD_KEY: 'k' }, { environments: [{ ...entry, supportFields: ['a.b', 'c_d'] }] }).environments[0]!.supportFields,
    ).toEqual(['a.b', 'c_d']);
  });

  it('refuses a name that is not a field name (__proto__ included), a name twice, and SUPPORT_FIELDS beside CONFIG_FILE environments', () => {
    expect(configErrorOf({ ...QUICK, SUPPORT_FIELDS: '__proto__' })).toMatch(/SUPPORT_FIELDS .*custom field names/);
    expect(configErrorOf({ PROD_KEY: 'k' }, { environments: [{ ...entry, supportFields: ['a', 'a'] }] })).toMatch(
      /environments\[0\]\.supportFields: must not name a field twice/,
    );
    expect(configErrorOf({ PROD_KEY: 'k', SUPPORT_FIELDS: 'a' }, { environments: [entry] })).toMatch(
      /SUPPORT_FIELDS is for the quick start/,
    );
  });
});

describe('a copied reply', () => {
  it('is audited with the template it came from, never its text; a template that is not a status is refused', async () => {
    const { app, audit, upstream } = await service({ supportFields: [...FIELDS] });
    // Copied from the candidate page, after its lookup (an export of a candidate not looked up is refused).
    await lookedUp(app.port, { kind: 'refId', id: record.refId! }, SUPPORT);
    const copied = { what: 'reply', kind: 'refId', id: record.refId, template: 'rejected', text: 'The reason: blurred' };
    const res = await requestWithBody(app.port, '/api/export', JSON.stringify(copied), { headers: SUPPORT });
    expect(res.status, res.body).toBe(200);
    const line = audit().at(-1) as unknown as Record<string, unknown>;
    expect(line).toMatchObject({ kind: 'export', what: 'reply', template: 'rejected', lookupKind: 'refId', id: record.refId });
    expect(JSON.stringify(line)).not.toContain('blurred');
    // A summary names no template, whatever the browser sends.
    const summary = { what: 'summary', kind: 'refId', id: record.refId, template: 'rejected' };
    expect((await requestWithBody(app.port, '/api/export', JSON.stringify(summary), { headers: SUPPORT })).status).toBe(200);
    expect(audit().at(-1)).not.toHaveProperty('template');
    const odd = { what: 'reply', kind: 'refId', id: record.refId, template: 'Rejected <b>' };
    expect((await requestWithBody(app.port, '/api/export', JSON.stringify(odd), { headers: SUPPORT })).status).toBe(400);
    // The lookup only: an export asks nothing of the service.
    expect(upstream.seen).toHaveLength(1);
  });
});
