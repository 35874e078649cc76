import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import sharp from 'sharp';
import { candidateEnvelopeSchema, type CandidateRecord } from '../../src/kyc/contract/schema.ts';
import { unreadFieldsOf } from '../../src/kyc/contract/record-reading.ts';
import { KNOWN_STATUSES } from '../../src/kyc/contract/status.ts';
import { readDob } from '../../src/kyc/view/dob.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_CLIENT_ID, SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { rawRequest } from './http.ts';

let sandbox: RunningSandbox;
let port: number;
const candidates = await sampleCandidates({ now: new Date('2026-11-20T12:00:00.000Z') });
const find = (predicate: (record: CandidateRecord) => boolean) => candidates.find((c) => predicate(c.record))!.record;

beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
  port = Number(new URL(sandbox.url).port);
});
afterAll(() => sandbox.close());

const lookup = (kind: string, id: string, key: string | null = SANDBOX_KEYS.full, client = SANDBOX_CLIENT_ID) =>
  rawRequest(port, `/kyc/1.0/connect/${client}/${kind}/${encodeURIComponent(id)}`, {
    headers: key === null ? {} : { authorization: key },
  });

const parse = (body: string) => candidateEnvelopeSchema.parse(JSON.parse(body)).data;

describe('sample candidates', () => {
  it('are at least eight and cover every documented status', () => {
    expect(candidates.length).toBeGreaterThanOrEqual(8);
    const statuses = new Set(candidates.map((c) => c.record.status));
    for (const status of KNOWN_STATUSES) expect(statuses).toContain(status);
  });

  it('each pass the shared schema, so the viewer can read them, every field they hold', () => {
    for (const { record } of candidates) {
      const read = candidateEnvelopeSchema.parse({ status: 'success', data: record }).data;
      expect(unreadFieldsOf(read)).toEqual([]);
    }
  });

  it('include an archived record without identities but with certificates', () => {
    const archived = find((r) => r.isArchived === true);
    expect(archived.identities).toBeUndefined();
    expect(Object.keys(archived.certs ?? {})).not.toHaveLength(0);
  });

  it('include one with willArchiveAtDate in the future and one without refId', () => {
    const archiving = find((r) => r.willArchiveAtDate !== undefined);
    expect(Date.parse(archiving.willArchiveAtDate!)).toBeGreaterThan(Date.parse('2026-11-20T12:00:00.000Z'));
    expect(find((r) => r.refId === undefined).recordId).toMatch(/^[0-9a-f]{24}$/);
  });

  it('include a date of birth the page shows as received, flagged: the one without refId, dotted, its day-first date said beside it', () => {
    const dob = find((r) => r.refId === undefined).identities?.dob?.value;
    expect(readDob(String(dob))).toEqual({
      ok: false,
      problem: 'not in a form this page reads (MM/DD/YYYY or YYYY-MM-DD)',
      dayFirst: { year: 1987, month: 6, day: 15 },
    });
  });

  it('include names with diacritics and in a non-Latin script', () => {
    const names = candidates.map((c) => `${c.record.identities?.given_name?.value} ${c.record.identities?.family_name?.value}`);
    expect(names.some((name) => /[À-ž]/.test(name))).toBe(true);
    expect(names.some((name) => /[\p{Script=Han}\p{Script=Cyrillic}]/u.test(name))).toBe(true);
  });

  it('include two JSON-LD certificates of the documented shape and one that is not JSON', () => {
    const certs = candidates.flatMap((c) => Object.values(c.record.certs ?? {}));
    const parsed = certs.flatMap((text) => {
      try {
        return [JSON.parse(text) as Record<string, unknown>];
      } catch {
        return [];
      }
    });
    const documented = parsed.filter(
      (doc) => Array.isArray(doc['@context']) && Array.isArray(doc.signature) && doc.Claim && doc.Organization && doc.Entity,
    );
    expect(new Set(documented.map((doc) => (doc.Organization as { identifier: string }).identifier)).size).toBe(2);
    expect(certs.length - parsed.length).toBeGreaterThanOrEqual(1);
  });

  it('carry real, decodable JPEG and PNG pictures of at least 600x400 (either way up)', async () => {
    const pictures = candidates.flatMap((c) =>
      Object.values(c.record.identities ?? {})
        .filter((a) => a.type === 'base64')
        .map((a) => Buffer.from(a.value, 'base64')),
    );
    const jpegs = pictures.filter((bytes) => bytes[0] === 0xff && bytes[1] === 0xd8);
    const pngs = pictures.filter((bytes) => bytes.subarray(1, 4).toString() === 'PNG');
    expect(jpegs.length).toBeGreaterThan(5);
    expect(pngs.length).toBeGreaterThanOrEqual(1);
    for (const bytes of [...jpegs, ...pngs]) {
      // Decoded to the last pixel: a truncated or corrupt file fails here (failOn), not only its header.
      const { info } = await sharp(bytes, { failOn: 'warning' }).raw().toBuffer({ resolveWithObject: true });
      expect(info.format).toBe('raw');
      expect(Math.max(info.width, info.height)).toBeGreaterThanOrEqual(600);
      expect(Math.min(info.width, info.height)).toBeGreaterThanOrEqual(400);
    }
  });

  it('leave some attributes missing', () => {
    expect(candidates.some((c) => c.record.identities && !c.record.identities.address)).toBe(true);
    expect(candidates.some((c) => c.record.identities && !c.record.identities.phone)).toBe(true);
  });

  it('in large-image mode carry four phone-camera sized JPEGs (about 3 MB each)', async () => {
    const large = await sampleCandidates({ now: new Date(), largeImages: true });
    // Dozens of different large candidates, for a reviewer-like benchmark.
    expect(large.filter((c) => c.record.refId?.startsWith('bench-'))).toHaveLength(32);
    const withPictures = large.find((c) => c.record.identities?.selfie)!;
    const pictures = Object.values(withPictures.record.identities!).filter((a) => a.type === 'base64');
    expect(pictures).toHaveLength(4);
    for (const picture of pictures) {
      const bytes = Buffer.from(picture.value, 'base64');
      expect(bytes.length).toBeGreaterThan(2_000_000);
      expect(bytes.length).toBeLessThan(4_500_000);
    }
  }, 30_000);
});

describe('sandbox HTTP contract', () => {
  const approved = () => find((r) => r.status === 'approved' && !r.isArchived && !r.willArchiveAtDate);

  it('finds the same candidate by refId and by recordId', async () => {
    const record = approved();
    const byRef = await lookup('refId', record.refId!);
    const byRecord = await lookup('recordId', record.recordId!);
    expect(byRef.status).toBe(200);
    expect(byRef.headers['content-type']).toMatch(/^application\/json/);
    expect(byRecord.body).toBe(byRef.body);
    expect(parse(byRef.body)).toEqual(record);
  });

  it('returns the status level to a status-only key', async () => {
    const record = approved();
    const data = parse((await lookup('refId', record.refId!, SANDBOX_KEYS.status)).body);
    expect(data.status).toBe('approved');
    expect(data.recordId).toBe(record.recordId);
    expect(data.blockPassID).toBe(record.blockPassID);
    expect(data.approvedDate).toBe(record.approvedDate);
    expect(data.customFields).toBeUndefined();
    expect(data.identities).toBeUndefined();
    expect(data.certs).toBeUndefined();
  });

  it('returns identities without pictures to an identity key', async () => {
    const record = approved();
    const data = parse((await lookup('refId', record.refId!, SANDBOX_KEYS.identity)).body);
    expect(data.identities?.given_name).toEqual(record.identities?.given_name);
    expect(Object.values(data.identities!).every((a) => a.type !== 'base64')).toBe(true);
    expect(Object.values(record.identities!).some((a) => a.type === 'base64')).toBe(true);
    expect(data.certs).toEqual(record.certs);
  });

  it('returns everything to a full key', async () => {
    const record = approved();
    const data = parse((await lookup('refId', record.refId!, SANDBOX_KEYS.full)).body);
    expect(data.identities?.passport?.type).toBe('base64');
    expect(data.customFields).toEqual(record.customFields);
  });

  it('finds the candidate without refId by recordId only', async () => {
    const record = find((r) => r.refId === undefined);
    expect((await lookup('recordId', record.recordId!)).status).toBe(200);
  });

  it('answers 401 for a missing or unknown key', async () => {
    const record = approved();
    for (const key of [null, 'not-a-key', `Bearer ${SANDBOX_KEYS.full}`]) {
      const res = await lookup('refId', record.refId!, key);
      expect(res.status).toBe(401);
      expect(JSON.parse(res.body)).toEqual({ status: 'error', code: 401, message: 'Unauthorized' });
    }
  });

  it('answers 404 for an unknown client id', async () => {
    const res = await lookup('refId', approved().refId!, SANDBOX_KEYS.full, 'someone_else');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toMatchObject({ status: 'error', code: 404 });
  });

  it('answers encrypted-demo as an encrypted answer: 200, labelled JSON, a body that is not JSON (a JWE), for every key', async () => {
    for (const key of Object.values(SANDBOX_KEYS)) {
      const res = await lookup('refId', 'encrypted-demo', key);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json/);
      expect(() => JSON.parse(res.body)).toThrow();
      expect(res.body.split('.')).toHaveLength(5);
    }
    // Not a candidate of the list, nor a recordId.
    expect((await lookup('recordId', 'encrypted-demo')).status).toBe(404);
  });

  it('answers the documented 404 body for an unknown candidate', async () => {
    const res = await lookup('refId', 'nobody-has-this-id');
    expect(res.status).toBe(404);
    expect(JSON.parse(res.body)).toEqual({ status: 'error', code: 404, message: 'Resource not Found' });
    // A recordId is not a refId.
    expect((await lookup('refId', approved().recordId!)).status).toBe(404);
  });

  it('answers 404 for other paths and 405 for other methods', async () => {
    const key = { authorization: SANDBOX_KEYS.full };
    for (const path of [
      '/',
      '/kyc/1.0/connect/x',
      `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/certificates/waiting`,
      `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/refId/a/b`,
      `/kyc/2.0/connect/${SANDBOX_CLIENT_ID}/refId/a`,
    ]) {
      expect((await rawRequest(port, path, { headers: key })).status, path).toBe(404);
    }
    const post = await rawRequest(port, `/kyc/1.0/connect/${SANDBOX_CLIENT_ID}/refId/${approved().refId}`, {
      method: 'POST',
      headers: key,
    });
    expect(post.status).toBe(405);
    expect(post.headers.allow).toContain('GET');
  });
});
