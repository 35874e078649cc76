import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { type AuditLine, createAuditLog } from '../../src/server/audit/audit.ts';
import { sampleCandidates } from '../../src/server/sandbox/candidates.ts';
import { SANDBOX_KEYS, startSandbox } from '../../src/server/sandbox/sandbox.ts';
import { TEST_STATUS_PATH } from '../../src/server/sandbox/test-controls.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { answersAsked, lookedUp } from './looked-up.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { rawRequest, requestWithBody, startTestApp } from './http.ts';

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-export-'));
const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});
const proxyAccess = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });

describe('export audit line', () => {
  it('records a copied summary or reply and a print as kind "export", with who, what, which id and environment', async () => {
    const upstream = await startFakeUpstream();
    const file = path.join(dir, 'audit.jsonl');
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      audit: createAuditLog(file),
      access: proxyAccess(),
    });
    cleanups.push(app.close, upstream.close);
    const headers = { 'x-user': 'sam', 'x-role': 'support' };
    upstream.behave = answersAsked;
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, headers);
    for (const what of ['summary', 'reply', 'print']) {
      const res = await requestWithBody(app.port, '/api/export', JSON.stringify({ what, kind: 'refId', id: 'user-7781' }), { headers });
      expect(res.status).toBe(200);
    }
    const lines = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l))
      .filter((line) => line.kind === 'export');
    expect(lines).toEqual(
      ['summary', 'reply', 'print'].map((what) => ({
        prev: expect.stringMatching(/^(start|[0-9a-f]{64})$/),
        time: expect.any(String),
        requestId: expect.stringMatching(/^[0-9a-f-]{36}$/),
        user: 'sam',
        role: 'support',
        client: '127.0.0.1',
        env: 'default',
        kind: 'export',
        what,
        lookupKind: 'refId',
        id: 'user-7781',
      })),
    );
    // The lookup only: an export asks nothing of the service.
    expect(upstream.seen).toHaveLength(1);
  });

  it('refuses what it cannot record, and anything but a JSON POST from a signed-in user', async () => {
    const upstream = await startFakeUpstream();
    upstream.behave = answersAsked;
    // A log that takes the lookup's line but cannot write the export's (its disk filled in between).
    const taken = memoryAuditLog();
    const audit = {
      ...taken,
      record: (entry: AuditLine) => (entry.kind === 'export' ? Promise.reject(new Error('ENOSPC')) : taken.record(entry)),
    };
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    const headers = { 'x-user': 'sam', 'x-role': 'support' };
    await lookedUp(app.port, { kind: 'refId', id: 'x' }, headers);
    const body = JSON.stringify({ what: 'summary', kind: 'refId', id: 'x' });
    const full = await requestWithBody(app.port, '/api/export', body, { headers });
    expect(full.status).toBe(503);
    expect(JSON.parse(full.body).error.code).toBe('audit_unavailable');
    expect((await requestWithBody(app.port, '/api/export', body)).status).toBe(401);
    expect((await requestWithBody(app.port, '/api/export', '{"what":"screenshot","kind":"refId","id":"x"}', { headers })).status).toBe(400);
    expect((await requestWithBody(app.port, '/api/export', body, { headers: { ...headers, 'content-type': 'text/plain' } })).status).toBe(
      415,
    );
    expect((await rawRequest(app.port, '/api/export', { headers })).status).toBe(405);
  });
});

describe('a masked print and another template of a status (issue 33)', () => {
  const headers = { 'x-user': 'sam', 'x-role': 'support' };

  it('writes "masked": true on the line of a print made with the privacy mask on, and on no other export', async () => {
    const upstream = await startFakeUpstream();
    const audit = memoryAuditLog();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    upstream.behave = answersAsked;
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, headers);
    const send = (body: Record<string, unknown>) => requestWithBody(app.port, '/api/export', JSON.stringify(body), { headers });
    expect((await send({ what: 'print', kind: 'refId', id: 'user-7781', masked: true })).status).toBe(200);
    expect((await send({ what: 'print', kind: 'refId', id: 'user-7781', masked: false })).status).toBe(200);
    expect((await send({ what: 'summary', kind: 'refId', id: 'user-7781', masked: true })).status).toBe(200);
    expect((await send({ what: 'print', kind: 'refId', id: 'user-7781', masked: 'yes' })).status).toBe(400);
    const exports = audit.lines.filter((line) => line.kind === 'export' && !('status' in line));
    expect(exports.map((line) => [(line as { what?: string }).what, (line as { masked?: boolean }).masked])).toEqual([
      ['print', true],
      ['print', undefined],
      ['summary', undefined],
    ]);
  });

  it("names a status's other template (blocked:neutral) in a reply's line, and refuses a key of another form", async () => {
    const upstream = await startFakeUpstream();
    const audit = memoryAuditLog();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    upstream.behave = answersAsked;
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, headers);
    const send = (template: string) =>
      requestWithBody(app.port, '/api/export', JSON.stringify({ what: 'reply', kind: 'refId', id: 'user-7781', template }), { headers });
    expect((await send('blocked:neutral')).status).toBe(200);
    for (const odd of ['blocked:', 'blocked:Neutral', 'blocked:neutral:2', ':neutral']) expect((await send(odd)).status, odd).toBe(400);
    expect(audit.lines.filter((line) => line.kind === 'export' && !('status' in line))).toEqual([
      expect.objectContaining({ what: 'reply', template: 'blocked:neutral' }),
    ]);
  });
});

describe('a copied certificate', () => {
  const headers = { 'x-user': 'ana', 'x-role': 'compliance' };

  it('writes a line what "certificate" naming the slug, and a slug on no other line', async () => {
    const upstream = await startFakeUpstream();
    const audit = memoryAuditLog();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    upstream.behave = answersAsked;
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, headers);
    const send = (body: Record<string, unknown>) => requestWithBody(app.port, '/api/export', JSON.stringify(body), { headers });
    expect((await send({ what: 'certificate', kind: 'refId', id: 'user-7781', slug: 'onfido-service-cert' })).status).toBe(200);
    expect((await send({ what: 'certificate', kind: 'refId', id: 'user-7781' })).status).toBe(200);
    // A slug goes only on a certificate's line.
    expect((await send({ what: 'summary', kind: 'refId', id: 'user-7781', slug: 'onfido-service-cert' })).status).toBe(200);
    expect(audit.lines.filter((line) => line.kind === 'export')).toEqual([
      expect.objectContaining({ user: 'ana', what: 'certificate', slug: 'onfido-service-cert', lookupKind: 'refId', id: 'user-7781' }),
      expect.not.objectContaining({ slug: expect.anything() }),
      expect.not.objectContaining({ slug: expect.anything() }),
    ]);
  });

  it('attack: a slug of another form (markup, a path, a line break, 65 characters) is refused, and no line names it', async () => {
    const upstream = await startFakeUpstream();
    const audit = memoryAuditLog();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    upstream.behave = answersAsked;
    await lookedUp(app.port, { kind: 'refId', id: 'user-7781' }, headers);
    const send = (slug: unknown) =>
      requestWithBody(app.port, '/api/export', JSON.stringify({ what: 'certificate', kind: 'refId', id: 'user-7781', slug }), { headers });
    expect((await send('a'.repeat(64))).status).toBe(200);
    for (const slug of ['<script>x</script>', '../../etc/passwd', 'onfido\nforged', 'a'.repeat(65), '', '-leading', 42]) {
      expect((await send(slug)).status, String(slug)).toBe(400);
    }
    expect(audit.lines.filter((line) => line.kind === 'export')).toEqual([expect.objectContaining({ slug: 'a'.repeat(64) })]);
  });
});

describe('an export through the lookup steps', () => {
  const headers = { 'x-user': 'sam', 'x-role': 'support' };

  it('refuses an id the lookup rule refuses (invalid_id), with a line that says so and no export line', async () => {
    const upstream = await startFakeUpstream();
    const audit = memoryAuditLog();
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    for (const id of ['..', 'a\u0007b']) {
      const res = await requestWithBody(app.port, '/api/export', JSON.stringify({ what: 'summary', kind: 'refId', id }), { headers });
      expect([res.status, JSON.parse(res.body).error.code]).toEqual([400, 'invalid_id']);
    }
    expect(audit.lines).toEqual([
      expect.objectContaining({ kind: 'export', status: 400, code: 'invalid_id', user: 'sam' }),
      expect.objectContaining({ kind: 'export', status: 400, code: 'invalid_id', user: 'sam' }),
    ]);
  });

  it('is refused at once (503 audit_unavailable) while the audit log hangs, rather than waiting on it', async () => {
    const upstream = await startFakeUpstream();
    const hung = { record: () => new Promise<void>(() => {}), available: () => false };
    const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, audit: hung, access: proxyAccess() });
    cleanups.push(app.close, upstream.close);
    const body = JSON.stringify({ what: 'print', kind: 'refId', id: 'user-7781' });
    const res = await requestWithBody(app.port, '/api/export', body, { headers });
    expect([res.status, JSON.parse(res.body).error.code]).toEqual([503, 'audit_unavailable']);
  });
});

describe('the sandbox test switch', () => {
  it("changes a candidate's status only when enabled", async () => {
    const candidates = await sampleCandidates({ now: new Date() });
    const on = await startSandbox({ candidates, testControls: true });
    const off = await startSandbox({ candidates });
    cleanups.push(on.close, off.close);
    const port = (url: string) => Number(new URL(url).port);
    const change = JSON.stringify({ kind: 'refId', id: 'cust_000482', status: 'approved' });
    expect((await requestWithBody(port(off.url), TEST_STATUS_PATH, change)).status).toBe(405);
    const before = Date.now();
    expect((await requestWithBody(port(on.url), TEST_STATUS_PATH, change)).status).toBe(200);
    const after = Date.now();
    expect(
      (await requestWithBody(port(on.url), TEST_STATUS_PATH, JSON.stringify({ kind: 'refId', id: 'nobody', status: 'approved' }))).status,
    ).toBe(404);
    const lookup = (url: string) =>
      rawRequest(port(url), `/kyc/1.0/connect/${on.clientId}/refId/cust_000482`, { headers: { authorization: SANDBOX_KEYS.status } });
    const changed = JSON.parse((await lookup(on.url)).body).data;
    expect(changed.status).toBe('approved');
    // Dated when it was changed: between the moments before and after the change was asked for.
    expect(Date.parse(changed.approvedDate)).toBeGreaterThanOrEqual(before);
    expect(Date.parse(changed.approvedDate)).toBeLessThanOrEqual(after);
    expect(JSON.parse((await lookup(off.url)).body).data.status).toBe('inreview');
  });

  it('attack: a body of megabytes to a test control is refused with 413 as soon as its length says so, not kept in memory', async () => {
    const candidates = await sampleCandidates({ now: new Date(), pictures: false });
    const on = await startSandbox({ candidates, testControls: true });
    cleanups.push(on.close);
    const port = Number(new URL(on.url).port);
    const huge = `{"kind":"refId","id":"cust_000482","status":"approved","pad":"${'x'.repeat(8 * 1024 * 1024)}"}`;
    const res = await requestWithBody(port, TEST_STATUS_PATH, huge);
    expect(res.status).toBe(413);
    expect(res.body).toContain('The body is over 4096 bytes.');
    // Nothing of it was applied, and the control still answers.
    const change = JSON.stringify({ kind: 'refId', id: 'cust_000482', status: 'approved' });
    expect((await requestWithBody(port, TEST_STATUS_PATH, change)).status).toBe(200);
  });
});
