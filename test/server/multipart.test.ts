import { BROKE_OFF_MESSAGE } from '../../src/server/http/api-failure.ts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { mkdtempSync, readFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiErrorBodySchema } from '../../src/kyc/contract/api.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { benchPeople } from '../../src/server/sandbox/bench-people.ts';
import { buildCandidates, sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { loadHostileCandidate } from '../../src/server/sandbox/hostile-fixture.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp, type TestApp } from './http.ts';
import { getBytes, partsOf, reassemble, type PartsResponse } from './parts.ts';

const candidates = [...(await sampleCandidates({ now: new Date() })), await loadHostileCandidate()];
let sandbox: RunningSandbox;
let app: TestApp;

beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
  app = await startTestApp({ upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full } });
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

const pathOf = (recordId: string) => `/api/candidates/recordId/${encodeURIComponent(recordId)}`;
const errorOf = (res: PartsResponse) => apiErrorBodySchema.parse(JSON.parse(res.body.toString('utf8'))).error;

describe('answers in parts against the sandbox', () => {
  it('put back together, equal the plain answer for every sandbox candidate, pictures byte for byte', async () => {
    let pictures = 0;
    for (const { record } of candidates) {
      const plain = await app.get(pathOf(record.recordId!), { accept: 'application/json' });
      const inParts = await getBytes(app.port, pathOf(record.recordId!));
      expect(plain.headers['content-type']).toBe('application/json; charset=utf-8');
      expect(inParts.status).toBe(200);
      expect(inParts.headers['content-type']).toMatch(/^multipart\/mixed; boundary="[0-9a-f]{32}"$/);
      expect(inParts.headers['cache-control']).toBe('no-store');
      // Chunked: the previews' sizes are not known when the first parts leave; the closing delimiter says it is whole.
      expect([inParts.headers['content-length'], inParts.cut]).toEqual([undefined, false]);
      const { envelope, first, pictures: parts } = await reassemble(inParts);
      expect(envelope).toEqual(JSON.parse(plain.body));
      for (const [name, attribute] of Object.entries(record.identities ?? {})) {
        const sent = (first.data.identities as Record<string, { value: unknown }>)[name]!.value;
        if (typeof sent === 'string') continue;
        pictures++;
        const { part } = sent as { part: string };
        expect(parts.get(part)!.body.equals(Buffer.from(attribute.value, 'base64'))).toBe(true);
      }
    }
    // Each sample with pictures sent some as parts; the hostile one's "not base64" stays text.
    expect(pictures).toBeGreaterThan(8);
  });

  it('sends a picture as a part of its sniffed raster type, and anything else as inert octets', async () => {
    const hostile = candidates.at(-1)!.record;
    const res = await getBytes(app.port, pathOf(hostile.recordId!));
    const { first, pictures } = await reassemble(res);
    const identities = first.data.identities as Record<string, { value: { part: string; type: string; size: number } | string }>;
    const reference = (name: string) => identities[name]!.value as { part: string; type: string; size: number };
    expect(reference('passport').type).toBe('image/svg+xml');
    expect(reference('selfie').type).toBe('text/html');
    expect(reference('proof_of_address').type).toBe('application/pdf');
    for (const name of ['passport', 'selfie', 'proof_of_address', 'selfie_national_id']) {
      expect(pictures.get(reference(name).part)!.headers['content-type']).toBe('application/octet-stream');
    }
    expect(typeof identities.driving_license!.value).toBe('string');

    const sample = candidates.find((c) => c.record.identities?.passport && c.record.recordId !== hostile.recordId)!.record;
    const { first: sampleFirst, pictures: samplePictures } = await reassemble(await getBytes(app.port, pathOf(sample.recordId!)));
    const passport = (sampleFirst.data.identities as Record<string, { value: { part: string; type: string; size: number } }>).passport!
      .value;
    expect(passport.type).toMatch(/^image\/(jpeg|png)$/);
    expect(samplePictures.get(passport.part)!.headers['content-type']).toBe(passport.type);
    expect(Number(samplePictures.get(passport.part)!.headers['content-length'])).toBe(passport.size);
  });

  it('compresses the first part when the browser accepts gzip, and never a picture', async () => {
    const sample = candidates.find((c) => c.record.identities?.passport)!.record;
    const res = await getBytes(app.port, pathOf(sample.recordId!), { 'accept-encoding': 'gzip, deflate, br' });
    expect(res.headers['content-encoding']).toBeUndefined();
    const parts = await partsOf(res);
    const isRecord = (part: (typeof parts)[number]) => part.headers['content-id']!.startsWith('record@');
    expect(parts.filter(isRecord).map((part) => part.headers['content-encoding'])).toEqual(['gzip']);
    for (const other of parts.filter((part) => !isRecord(part))) expect(other.headers['content-encoding']).toBeUndefined();
    const plain = await app.get(pathOf(sample.recordId!), { accept: 'application/json' });
    expect((await reassemble(res)).envelope).toEqual(JSON.parse(plain.body));
  });

  it('answers plain JSON, exactly as before, to a client that does not ask for parts', async () => {
    const sample = candidates.find((c) => c.record.identities?.passport)!.record;
    const res = await app.get(pathOf(sample.recordId!), { accept: 'application/json' });
    expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
    expect(JSON.parse(res.body).data).toEqual(sample);
    const refused = await getBytes(app.port, pathOf(sample.recordId!), { accept: 'multipart/mixed;q=0, application/json' });
    expect(refused.headers['content-type']).toBe('application/json; charset=utf-8');
  });
});

describe('answers in parts of a large-image candidate (SANDBOX_LARGE_IMAGES)', () => {
  it('put back together, equal the plain answer, its four pictures of about 3 MB each byte for byte', async () => {
    // One candidate: drawing the large pictures is the slow part.
    const [large] = await buildCandidates(benchPeople().slice(0, 1), { now: new Date(), largeImages: true });
    const largeSandbox = await startSandbox({ candidates: [large!] });
    const largeApp = await startTestApp({
      upstream: { baseUrl: largeSandbox.url, clientId: largeSandbox.clientId, apiKey: SANDBOX_KEYS.full },
    });
    try {
      const plain = await largeApp.get(pathOf(large!.record.recordId!), { accept: 'application/json' });
      const inParts = await getBytes(largeApp.port, pathOf(large!.record.recordId!), { 'accept-encoding': 'gzip' });
      expect([inParts.status, inParts.cut]).toEqual([200, false]);
      const { envelope, first, pictures } = await reassemble(inParts);
      expect(envelope).toEqual(JSON.parse(plain.body));
      expect(pictures.size).toBe(4);
      for (const [name, attribute] of Object.entries(large!.record.identities!)) {
        if (attribute.type !== 'base64') continue;
        const { part } = (first.data.identities as Record<string, { value: { part: string } }>)[name]!.value;
        const sent = pictures.get(part)!;
        expect(sent.headers['content-type']).toBe('image/jpeg');
        expect(sent.body.length).toBeGreaterThan(2_000_000);
        expect(sent.body.equals(Buffer.from(attribute.value, 'base64'))).toBe(true);
      }
    } finally {
      await largeApp.close();
      await largeSandbox.close();
    }
  }, 60_000);
});

describe('support users and parts', () => {
  it('never get a picture part, with the status key or without it', async () => {
    const sample = candidates.find((c) => c.record.identities?.passport)!.record;
    for (const statusApiKey of [SANDBOX_KEYS.status, undefined]) {
      const support = await startTestApp({
        upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full, statusApiKey },
        access: supportOnly(),
      });
      const res = await getBytes(support.port, pathOf(sample.recordId!));
      await support.close();
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
      const body = JSON.parse(res.body.toString('utf8'));
      expect(body.data.identities).toBeUndefined();
      expect(res.body.toString('latin1')).not.toContain('--');
    }
  });
});

function supportOnly() {
  return {
    mode: 'proxy',
    identify: async () => ({ user: 'agent', role: 'support' as const }),
    rateLimitKey: () => 'agent',
    handleSession: () => {},
  } as unknown as NonNullable<Parameters<typeof startTestApp>[0]['access']>;
}

describe('faults of the service, answered in parts', () => {
  let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
  let faults: TestApp;
  let auditFile: string;
  beforeAll(async () => {
    upstream = await startFakeUpstream();
    auditFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-parts-')), 'audit.jsonl');
    // Long, so that a loaded machine answers each fault as what it is rather than as a 504: the idle
    // timeout's own test has a server of its own, with a short one.
    faults = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'parts-test-key-9b2e' },
      audit: createAuditLog(auditFile),
      settings: {
        limits: {
          upstreamTimeoutMs: 5000,
          maxResponseBytes: 20_000,
        },
        refuseProxied: false,
      },
    });
  });
  afterAll(async () => {
    await faults.close();
    await upstream.close();
  });
  const lookup = () => getBytes(faults.port, '/api/candidates/refId/abc');
  const picture = Buffer.alloc(6000, 7).toString('base64');
  const opening = `{"status":"success","data":{"status":"approved","identities":{"passport":{"type":"base64","value":"${picture.slice(0, 3000)}`;

  it('a body cut in the middle of a picture: upstream_error, no part sent', async () => {
    upstream.behave = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 12_000 });
      res.write(opening);
      setTimeout(() => req.socket.destroy(), 30);
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_error', message: BROKE_OFF_MESSAGE });
  });

  it('a body that stalls in the middle of a picture: upstream_error once the idle timeout passes', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 12_000 });
      res.write(opening);
    };
    const stalls = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'parts-test-key-9b2e' },
      settings: {
        limits: {
          upstreamTimeoutMs: 400,
        },
        refuseProxied: false,
      },
    });
    const res = await getBytes(stalls.port, '/api/candidates/refId/abc').finally(() => stalls.close());
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('upstream_error');
  });

  it('a body that grows past the limit in the middle of a picture: response_too_large', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.write(opening);
      const timer = setInterval(() => {
        if (res.destroyed) return clearInterval(timer);
        res.write('A'.repeat(4000));
      }, 5);
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res).code).toBe('response_too_large');
    expect(errorOf(res).message).toContain('larger than the 20 kB this server accepts');
  });

  it('a declared length over the 20 000-byte limit: "20 kB" in words, not "<1 MB", and the next step', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': 30_000 });
      res.end('x'.repeat(30_000));
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({
      code: 'response_too_large',
      message:
        "The KYC service's answer is larger than the 20 kB this server accepts (limits.maxResponseBytes). Nothing is wrong with the id: " +
        "the candidate's record, pictures included, is over this server's limit, and asking again gets the same answer. " +
        'Tell whoever runs Candidate Lookup: they can raise limits.maxResponseBytes.',
    });
  });

  it('a body that is not JSON after its envelope opens, or is incomplete: upstream_error; one that is not an envelope: not_a_record', async () => {
    for (const [body, code] of [
      [`{"status":"success","data":{"status":"approved"}} trailing`, 'upstream_error'],
      [`{"status":"success","data":{"status":`, 'upstream_error'],
      ['<html>', 'not_a_record'],
    ]) {
      upstream.behave = (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body!) });
        res.end(body);
      };
      const res = await lookup();
      expect(res.status).toBe(502);
      expect(errorOf(res).code).toBe(code);
    }
  });

  it('a body opening with a byte order mark is read as the browser reads the plain answer (the mark dropped)', async () => {
    const body = Buffer.concat([Buffer.from([0xef, 0xbb, 0xbf]), Buffer.from(`{"status":"success","data":{"status":"approved","n":"é"}}`)]);
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    };
    const res = await lookup();
    expect(res.status).toBe(200);
    expect((await reassemble(res)).envelope).toEqual(JSON.parse(new TextDecoder().decode(body)));
  });

  it('a body nested deeper than the server holds: upstream_error, saying so', async () => {
    const body = `{"status":"success","data":{"status":"approved","x":${'['.repeat(1001)}${']'.repeat(1001)}}}`;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const res = await lookup();
    expect(res.status).toBe(502);
    expect(errorOf(res)).toMatchObject({ code: 'upstream_error', message: expect.stringMatching(/nested deeper than 1000 levels/) });
  });

  it('a wrong-shaped record is passed on for the browser to name, as in the plain answer', async () => {
    const body = '{"status":"success","data":{"status":5,"identities":{"passport":{"type":"base64","value":"AAAA"}}}}';
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const res = await lookup();
    expect(res.status).toBe(200);
    expect((await reassemble(res)).envelope).toEqual(JSON.parse(body));
  });

  it('a body holding the key is refused before any part, and the audit line comes before the first byte', async () => {
    const body = `{"status":"success","data":{"status":"approved","note":"parts-test-key-9b2e"}}`;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const refused = await lookup();
    expect(refused.status).toBe(502);
    expect(refused.body.toString('latin1')).not.toContain('parts-test-key-9b2e');

    const good = `{"status":"success","data":{"status":"approved","identities":{"selfie":{"value":"${picture}","type":"base64"}}}}`;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(good) });
      res.end(good);
    };
    const res = await lookup();
    expect(res.status).toBe(200);
    expect((await reassemble(res)).envelope).toEqual(JSON.parse(good));
    const lines = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    // The request's closing line, what the answer held, follows its 200 line (lookup/full-answer.ts).
    const held = { identities: 1, pictures: 1, pictureNames: ['selfie'], certificates: 0 };
    expect(lines.at(-1)).toMatchObject({ status: 200, code: null, held });
    expect(lines.at(-2)).toMatchObject({ status: 200, code: null, heldLine: true });
    expect(lines.at(-3)).toMatchObject({ status: 502, code: 'upstream_error' });
  });

  it('an object in the record that looks like a reference is not taken for one', async () => {
    const body = `{"status":"success","data":{"status":"approved","identities":{"selfie":{"type":"base64","value":{"part":"picture-1@x","type":"image/png","size":3}}}}}`;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const res = await lookup();
    const { envelope, pictures } = await reassemble(res);
    expect(envelope).toEqual(JSON.parse(body));
    expect(pictures.size).toBe(0);
  });
});

describe('a browser that stops reading an answer in parts', () => {
  it('is cut off after the idle timeout, so that no record is held for it, and the server goes on', async () => {
    const upstream = await startFakeUpstream();
    // The service's timeout long enough that a loaded machine (a full suite on two cores) still reads its
    // answer in time (a 504 is not what is tested here); the browser's own, short: it is what must pass.
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'stall-test-key-5e1c' },
      settings: {
        limits: {
          upstreamTimeoutMs: 30_000,
        },
        browserStallMs: 300,
      },
    });
    // Several times what loopback's socket buffers take in (a few MB), so that the writes must wait for
    // the reader; small enough to be read within the deadline on a loaded machine.
    const body = `{"status":"success","data":{"status":"approved","identities":{"passport":{"type":"base64","value":"${Buffer.alloc(16_000_000, 9).toString('base64')}"}}}}`;
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    const socket = net.connect(app.port, '127.0.0.1');
    socket.write(
      `GET /api/candidates/refId/stall HTTP/1.1\r\nHost: 127.0.0.1:${app.port}\r\nX-Candidate-Lookup: 1\r\nAccept: multipart/mixed\r\n\r\n`,
    );
    socket.pause(); // never read
    // The server's side: the request's log line, written once its connection is closed.
    const line = () => app.requests().find((record) => record.route.startsWith('/api/candidates/'));
    await expect.poll(line, { timeout: 20_000, interval: 100 }).toBeDefined();
    socket.destroy();
    expect(line()).toMatchObject({ status: 200, aborted: true });
    expect(line()!.bytes).toBeLessThan(12_000_000);
    const small = '{"status":"success","data":{"status":"approved"}}';
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': small.length });
      res.end(small);
    };
    const next = await getBytes(app.port, '/api/candidates/refId/next');
    expect(next.status).toBe(200);
    await app.close();
    await upstream.close();
  }, 30_000);
});
