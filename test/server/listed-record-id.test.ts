import type http from 'node:http';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { LISTED_RECORD_ID_HEADER } from '../../src/kyc/contract/listed-record-id.ts';
import { candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { createMemoryQueueIndexStore, type QueueIndexStore } from '../../src/server/state/queue-index-store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, type TestApp } from './http.ts';
import { getBytes, partsOf } from './parts.ts';
import { COMPLIANCE, gateway, SUPPORT } from './queue-fixture.ts';

/**
 * The service's published full-level example has no recordId (status-level answers and its list have
 * it). A compliance user's lookup by refId is sent, beside the service's answer, the recordId the queue
 * index paired with that refId from the service's own list and records (header x-listed-record-id),
 * never one it guessed; the answer's bytes stay the service's.
 */

const FULL_KEY = 'full-key-listed';
const STATUS_KEY = 'status-key-listed';
const RECORD_ID = '65f5000000000000000000c1';

interface Candidate {
  refId: string;
  recordId: string;
}
const candidates: Candidate[] = [{ refId: 'split', recordId: RECORD_ID }];

const statusLevel = ({ refId, recordId }: Candidate) => ({
  status: 'inreview',
  refId,
  recordId,
  isArchived: false,
  waitingDate: '2024-03-01T10:00:00.000Z',
  inreviewDate: '2024-03-02T10:00:00.000Z',
});

/** As the published example: the full answer has everything but the recordId. */
const fullLevel = (candidate: Candidate) => {
  const { recordId: _none, ...rest } = statusLevel(candidate);
  return { ...rest, identities: { given_name: { type: 'string', value: 'Ada' } } };
};
const bodyOf = (data: unknown) => JSON.stringify({ status: 'success', data });

let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
let app: TestApp;
let failing: 'no' | 'throws' | 'hangs' | 'slow' = 'no';
const memory = createMemoryQueueIndexStore();
// The index's store as given, but for `find`, which a test may make fail or never answer.
const store: QueueIndexStore = new Proxy(memory, {
  get(target, name, receiver) {
    if (name !== 'find') return Reflect.get(target, name, receiver);
    return (...args: Parameters<QueueIndexStore['find']>) => {
      if (failing === 'throws') return Promise.reject(new Error('the store is away'));
      if (failing === 'hangs') return new Promise(() => {});
      // A store a round trip away (Redis): it answers after the service's first bytes were read.
      if (failing === 'slow') return new Promise((resolve) => setTimeout(resolve, 30)).then(() => target.find(...args));
      return target.find(...args);
    };
  },
});

function answer(req: http.IncomingMessage, res: http.ServerResponse) {
  const url = new URL(req.url ?? '/', 'http://x');
  const [, , , , , kind, id = ''] = url.pathname.split('/');
  const send = (status: number, body: string) => {
    res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  if (kind === 'applicants') {
    const records =
      id && id !== 'inreview' ? [] : candidates.map((c) => ({ status: 'inreview', _id: c.recordId, refId: c.refId, isArchived: false }));
    return send(200, JSON.stringify({ status: 'success', data: { records, total: records.length, skip: 0, limit: 100 } }));
  }
  const asked = decodeURIComponent(id);
  if (asked === 'gateway-page') return send(200, '<html>gateway</html>');
  const found = candidates.find((c) => (kind === 'refId' ? c.refId : c.recordId) === asked);
  if (!found) return send(404, JSON.stringify({ status: 'error', code: 404, message: 'Resource not Found' }));
  send(200, bodyOf(req.headers.authorization === FULL_KEY ? fullLevel(found) : statusLevel(found)));
}

beforeAll(async () => {
  upstream = await startFakeUpstream();
  upstream.behave = answer;
  app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: FULL_KEY, statusApiKey: STATUS_KEY },
    access: gateway(),
    queueIndex: store,
  });
});
afterAll(async () => {
  await app.close();
  await upstream.close();
});
afterEach(() => {
  failing = 'no';
});

const PLAIN = { ...COMPLIANCE, accept: 'application/json' };

describe('a full answer without recordId, looked up by refId', () => {
  it('once the service’s list paired refId and recordId (never before): the recordId comes as a header, plain and in parts, the body the service’s own bytes', async () => {
    const before = await app.get('/api/candidates/refId/split', PLAIN);
    expect(before.status).toBe(200);
    expect(before.headers[LISTED_RECORD_ID_HEADER]).toBeUndefined();
    await app.crawl();
    const plain = await app.get('/api/candidates/refId/split', PLAIN);
    expect(plain.status).toBe(200);
    expect(plain.headers[LISTED_RECORD_ID_HEADER]).toBe(RECORD_ID);
    // Not rewritten: the record still has no recordId, the page says where the one it shows came from.
    expect(plain.body).toBe(bodyOf(fullLevel(candidates[0]!)));

    const inParts = await getBytes(app.port, '/api/candidates/refId/split', COMPLIANCE);
    expect(inParts.headers['content-type']).toMatch(/^multipart\/mixed/);
    expect(inParts.headers[LISTED_RECORD_ID_HEADER]).toBe(RECORD_ID);
    const status = candidateEnvelopeSchema.parse(JSON.parse((await partsOf(inParts))[0]!.body.toString())).data;
    expect(status.recordId).toBeUndefined();
  });

  it('only where it helps: a lookup by refId, not one by recordId, a support user’s status level, or another refId', async () => {
    await app.crawl();
    expect((await app.get('/api/candidates/refId/split', PLAIN)).headers[LISTED_RECORD_ID_HEADER]).toBe(RECORD_ID);
    const byRecordId = await app.get(`/api/candidates/recordId/${RECORD_ID}`, PLAIN);
    expect(byRecordId.status).toBe(200);
    expect(byRecordId.headers[LISTED_RECORD_ID_HEADER]).toBeUndefined();
    const support = await app.get('/api/candidates/refId/split', SUPPORT);
    expect(support.status).toBe(200);
    expect(support.headers[LISTED_RECORD_ID_HEADER]).toBeUndefined();
    const unknown = await app.get('/api/candidates/refId/nobody', PLAIN);
    expect(unknown.status).toBe(404);
    expect(unknown.headers[LISTED_RECORD_ID_HEADER]).toBeUndefined();
  });

  it('an index that fails or does not answer costs the header only: the answer comes, whole', async () => {
    await app.crawl();
    expect((await app.get('/api/candidates/refId/split', PLAIN)).headers[LISTED_RECORD_ID_HEADER]).toBe(RECORD_ID);
    for (const how of ['throws', 'hangs'] as const) {
      failing = how;
      const res = await app.get('/api/candidates/refId/split', PLAIN);
      expect(res.status, how).toBe(200);
      expect(res.cut, how).toBe(false);
      expect(res.headers[LISTED_RECORD_ID_HEADER], how).toBeUndefined();
      expect(res.body, how).toBe(bodyOf(fullLevel(candidates[0]!)));
    }
  });

  it('an index a round trip away (Redis) neither breaks the answer in parts nor leaves a refused answer without one', async () => {
    await app.crawl();
    failing = 'slow';
    // The readers of the answer were added after its first bytes were read: a 500 in parts.
    const inParts = await getBytes(app.port, '/api/candidates/refId/split', COMPLIANCE);
    expect(inParts.status).toBe(200);
    expect(inParts.headers[LISTED_RECORD_ID_HEADER]).toBe(RECORD_ID);
    expect(candidateEnvelopeSchema.parse(JSON.parse((await partsOf(inParts))[0]!.body.toString())).data.refId).toBe('split');
    // The guard's refusal came before anyone listened: the request was never answered.
    for (const accept of [PLAIN, COMPLIANCE]) {
      const refused = await app.get('/api/candidates/refId/gateway-page', accept);
      expect(refused.status).toBe(502);
      expect(JSON.parse(refused.body).error.code).toBe('not_a_record');
    }
    const plain = await app.get('/api/candidates/refId/split', PLAIN);
    expect([plain.status, plain.headers[LISTED_RECORD_ID_HEADER]]).toEqual([200, RECORD_ID]);
  });

  it('attack: a listed recordId with a line break, a header’s syntax or other scripts never splits or adds a header: percent-encoded, or not sent', async () => {
    const odd = { refId: 'odd-ids', recordId: 'rec ü記録; a=b, "c"' };
    const split = { refId: 'crlf-id', recordId: 'rec\r\nSet-Cookie: stolen=1' };
    candidates.push(odd, split);
    try {
      await app.crawl();
      const res = await app.get('/api/candidates/refId/odd-ids', PLAIN);
      expect(res.status).toBe(200);
      expect(res.headers[LISTED_RECORD_ID_HEADER]).toBe(encodeURIComponent(odd.recordId));
      expect(decodeURIComponent(String(res.headers[LISTED_RECORD_ID_HEADER]))).toBe(odd.recordId);
      const crlf = await app.get('/api/candidates/refId/crlf-id', PLAIN);
      expect(crlf.status).toBe(200);
      expect(crlf.headers[LISTED_RECORD_ID_HEADER]).toBeUndefined();
      expect(crlf.headers['set-cookie']).toBeUndefined();
    } finally {
      candidates.splice(1);
    }
  });
});

describe('the embedded sandbox answers in the published full example’s form', () => {
  it('published-full-example: no recordId at full level, one at status level and in the list; the app sends the listed one beside the full answer', async () => {
    const candidatesOfSandbox = await sampleCandidates({ now: new Date(), pictures: false });
    const sandbox = await startSandbox({ candidates: candidatesOfSandbox });
    const sandboxApp = await startTestApp({
      upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey: SANDBOX_KEYS.status },
      access: gateway(),
      queueIndex: createMemoryQueueIndexStore(),
    });
    try {
      const path = `/kyc/1.0/connect/${sandbox.clientId}/refId/published-full-example`;
      const asked = async (key: string, at = path) => {
        const res = await fetch(`${sandbox.url}${at}`, { headers: { authorization: key } });
        return ((await res.json()) as { data: Record<string, unknown> }).data;
      };
      const full = await asked(SANDBOX_KEYS.full);
      expect(full).toMatchObject({ refId: 'published-full-example', status: 'inreview' });
      expect(full).not.toHaveProperty('recordId');
      expect(full.identities).toBeDefined();
      expect(await asked(SANDBOX_KEYS.identity)).not.toHaveProperty('recordId');
      const recordId = (await asked(SANDBOX_KEYS.status)).recordId;
      expect(recordId).toBe('5b2a7c0e9d8f6a4b3c2d1e03');
      // Found by it too, and the other samples keep theirs.
      expect(await asked(SANDBOX_KEYS.full, `/kyc/1.0/connect/${sandbox.clientId}/recordId/${recordId}`)).not.toHaveProperty('recordId');
      expect(await asked(SANDBOX_KEYS.full, `/kyc/1.0/connect/${sandbox.clientId}/refId/cust_000482`)).toHaveProperty('recordId');

      await sandboxApp.crawl();
      const res = await sandboxApp.get('/api/candidates/refId/published-full-example', PLAIN);
      expect(res.status).toBe(200);
      expect(res.headers[LISTED_RECORD_ID_HEADER]).toBe(recordId);
      expect(candidateEnvelopeSchema.parse(JSON.parse(res.body)).data.recordId).toBeUndefined();
    } finally {
      await sandboxApp.close();
      await sandbox.close();
    }
  });
});
