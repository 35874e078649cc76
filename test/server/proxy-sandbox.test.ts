import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { apiErrorBodySchema, apiMetaSchema } from '../../src/kyc/contract/api.ts';
import { candidateEnvelopeSchema } from '../../src/kyc/contract/schema.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox, type RunningSandbox } from '../../src/server/sandbox/sandbox.ts';
import { SECURITY_HEADERS } from '../../src/server/http/security-headers.ts';
import { samplesOf } from '../../src/server/composition/resolve-upstream.ts';
import { mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApiFromConfig } from '../../src/server/composition/api.ts';
import { createAppServer } from '../../src/server/composition/app-server.ts';
import { parseConfig } from '../../src/server/config/config.ts';
import { listen, rawRequest, startTestApp, testEnvironment, type RawResponse, type TestApp } from './http.ts';

let sandbox: RunningSandbox;
let app: TestApp;
const candidates = await sampleCandidates({ now: new Date() });
const full = candidates.find((c) => c.record.identities?.passport)!.record;

beforeAll(async () => {
  sandbox = await startSandbox({ candidates });
  app = await startTestApp({
    upstream: { baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full },
    samples: samplesOf(candidates),
  });
});
afterAll(async () => {
  await app.close();
  await sandbox.close();
});

const expectNoKey = (res: RawResponse) => {
  const everything = JSON.stringify(res.headers) + res.body;
  for (const key of Object.values(SANDBOX_KEYS)) expect(everything).not.toContain(key);
};

describe('proxy against the sandbox', () => {
  it("answers the sandbox's encrypted-demo as not a readable record that may be encrypted, and goes on serving", async () => {
    for (const accept of ['application/json', 'multipart/mixed, application/json;q=0.9']) {
      const res = await app.get('/api/candidates/refId/encrypted-demo', { accept });
      expect(res.status).toBe(502);
      expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error).toMatchObject({
        code: 'not_a_record',
        message: expect.stringContaining('It may be encrypted'),
      });
      expect(res.body).not.toContain('eyJhbGci');
    }
    expect((await app.get(`/api/candidates/recordId/${full.recordId}`)).status).toBe(200);
  });

  it('returns the sample record by refId and by recordId, byte for byte', async () => {
    const byRef = await app.get(`/api/candidates/refId/${encodeURIComponent(full.refId!)}`);
    const byRecord = await app.get(`/api/candidates/recordId/${full.recordId}`);
    expect(byRef.status).toBe(200);
    expect(candidateEnvelopeSchema.parse(JSON.parse(byRef.body)).data).toEqual(full);
    expect(byRecord.body).toBe(byRef.body);
  });

  it('marks personal data no-store and sends the security headers', async () => {
    const res = await app.get(`/api/candidates/refId/${full.refId}`);
    expect(res.headers['cache-control']).toBe('no-store');
    for (const [name, value] of Object.entries(SECURITY_HEADERS)) expect(res.headers[name.toLowerCase()]).toBe(value);
    expect(res.headers['content-security-policy']).toContain("frame-ancestors 'none'");
    expect(res.headers['content-security-policy']).not.toContain('unsafe-inline');
  });

  it('sends back only content type, length and encoding of the upstream headers', async () => {
    const res = await app.get(`/api/candidates/refId/${full.refId}`);
    expect(res.headers['content-length']).toBe(String(Buffer.byteLength(res.body)));
    const allowed = new Set([
      'content-type',
      'content-length',
      'x-request-id',
      'content-encoding',
      'cache-control',
      'date',
      'connection',
      'keep-alive',
      // The server's own, not the service's: the recordId its queue index paired with the refId (listed-record-id.ts).
      'x-listed-record-id',
      ...Object.keys(SECURITY_HEADERS).map((name) => name.toLowerCase()),
    ]);
    expect(Object.keys(res.headers).filter((name) => !allowed.has(name))).toEqual([]);
  });

  it('answers not_found for an unknown candidate', async () => {
    const res = await app.get('/api/candidates/refId/no-such-candidate');
    expect(res.status).toBe(404);
    expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error).toMatchObject({
      code: 'not_found',
      message: 'No candidate with refId "no-such-candidate".',
    });
  });

  it('serves the display settings from the configuration in /api/meta', async () => {
    const config = parseConfig(
      { AUDIT_LOG: path.join(mkdtempSync(path.join(os.tmpdir(), 'cl-meta-')), 'audit.jsonl') },
      { display: { summaryFields: ['riskLevel', 'Case owner'], privacyMask: 'on' } },
    );
    const upstream = {
      environments: [testEnvironment({ baseUrl: sandbox.url, clientId: sandbox.clientId, apiKey: SANDBOX_KEYS.full })],
      banner: [],
      close: async () => {},
    };
    const server = await listen(
      createAppServer({ api: createApiFromConfig(config, upstream, { queueCrawl: { start: false } }).handler, staticDir: 'public' }),
    );
    try {
      const meta = apiMetaSchema.parse(JSON.parse((await rawRequest(server.port, '/api/meta')).body));
      expect(meta).toMatchObject({ summaryFields: ['riskLevel', 'Case owner'], privacyMaskDefault: true });
    } finally {
      await server.close();
    }
  });

  it('serves /api/meta with the sample ids and no secret', async () => {
    const res = await app.get('/api/meta');
    expect(res.status).toBe(200);
    const meta = apiMetaSchema.parse(JSON.parse(res.body));
    expect(meta.upstream).toBe('sandbox');
    expect(meta.samples).toHaveLength(candidates.length);
    expect(meta.samples?.find((s) => s.kind === 'recordId')?.id).toBe(candidates.find((c) => !c.record.refId)!.record.recordId);
    expectNoKey(res);
  });

  it('answers 404 JSON for unknown API paths and 405 for other methods', async () => {
    for (const path of ['/api', '/api/nothing', '/api/candidates', '/api/candidates/email/x', '/api/candidates/refId']) {
      const res = await app.get(path);
      expect(res.status, path).toBe(404);
      expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error.code).toBe('no_such_route');
    }
    for (const method of ['POST', 'PUT', 'DELETE', 'PATCH']) {
      const { rawRequest } = await import('./http.ts');
      const res = await rawRequest(app.port, `/api/candidates/refId/${full.refId}`, { method });
      expect(res.status, method).toBe(405);
      expect(apiErrorBodySchema.parse(JSON.parse(res.body)).error.code).toBe('method_not_allowed');
    }
  });

  it('never lets the key reach the browser, in any answer', async () => {
    const responses = await Promise.all([
      app.get(`/api/candidates/refId/${full.refId}`),
      app.get('/api/candidates/refId/unknown'),
      app.get('/api/candidates/refId/%ZZ'),
      app.get('/api/meta'),
      app.get('/api/nope'),
      app.get('/'),
    ]);
    responses.forEach(expectNoKey);
  });

  it('logs one line per request without ids, keys or candidate data', async () => {
    app.logs.length = 0;
    await app.get(`/api/candidates/refId/${full.refId}`);
    await app.get('/api/candidates/recordId/secret-looking-id');
    expect(app.logs).toHaveLength(2);
    expect(app.requests()).toEqual([
      expect.objectContaining({ method: 'GET', route: '/api/candidates/refId/:id', status: 200, bytes: expect.any(Number) }),
      expect.objectContaining({ method: 'GET', route: '/api/candidates/recordId/:id', status: 404, ms: expect.any(Number) }),
    ]);
    const text = app.logs.join('\n');
    for (const secret of [...Object.values(SANDBOX_KEYS), full.refId!, 'secret-looking-id', full.identities!.email!.value]) {
      expect(text).not.toContain(secret);
    }
  });
});
