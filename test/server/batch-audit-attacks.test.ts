import { existsSync, mkdtempSync, readFileSync, statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { verifyChain } from '../../src/server/audit/audit-chain.ts';
import { createRefusalLog } from '../../src/server/audit/audit-refusals.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { blockedFifo } from './fifo.ts';
import { ndjson, requestWithBody, startTestApp } from './http.ts';

/** Issue 20, findings 5 and 7: what a batch could do to the audit log, and what it did while the log hung. */
const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});
const tempDir = () => mkdtempSync(path.join(os.tmpdir(), 'cl-batch-audit-'));
const sizeOf = (file: string) => (existsSync(file) ? statSync(file).size : 0);
const parsedLines = (file: string) =>
  readFileSync(file, 'utf8')
    .split('\n')
    .slice(0, -1)
    .map((line) => JSON.parse(line) as Record<string, unknown>);
const proxyAccess = () => createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] });
const as = (user: string) => ({ 'x-user': user, 'x-role': 'support' });

/** A service that finds every id, and an app in front of it with the given audit log. */
async function appWith(options: Partial<Parameters<typeof startTestApp>[0]>) {
  const upstream = await startFakeUpstream();
  upstream.behave = (req, res) => {
    const refId = decodeURIComponent(req.url!.split('/').pop()!);
    const body = JSON.stringify({ status: 'success', data: { status: 'approved', refId, isArchived: false, blockPassID: 'b' } });
    res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
    res.end(body);
  };
  const app = await startTestApp({ upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' }, access: proxyAccess(), ...options });
  cleanups.push(
    () => upstream.close(),
    () => app.close(),
  );
  const batch = (user: string, ids: string[]) =>
    requestWithBody(app.port, '/api/batch', JSON.stringify({ kind: 'refId', ids }), { headers: as(user) });
  return { upstream, app, batch };
}

function countedAudit() {
  const file = path.join(tempDir(), 'audit.jsonl');
  const audit = createAuditLog(file);
  return { file, audit, refusals: createRefusalLog(audit, 60_000) };
}

describe('attack: a batch of invalid ids, each written to the audit log in full', () => {
  it('a batch of 500 invalid 300×U+2028 ids adds one counted line, not 500 lines of ids', async () => {
    const { file, audit, refusals } = countedAudit();
    const { upstream, batch } = await appWith({ audit, refusals });
    const before = sizeOf(file);
    const res = await batch('eve', Array(500).fill('\u2028'.repeat(300)));
    expect(res.status).toBe(200);
    const events = ndjson(res.body);
    expect(events.at(-1)).toEqual({ type: 'done', found: 0, failed: 500 });
    // Each row still says why its id was refused.
    const rows = events.filter((event) => event.type === 'row');
    expect(rows).toHaveLength(500);
    expect(rows.every((row) => row.code === 'invalid_id')).toBe(true);

    // Today's code wrote 500 lines of 256 escaped characters each: 932 kB.
    expect(sizeOf(file) - before).toBeLessThan(2048);
    expect(parsedLines(file)).toEqual([
      expect.objectContaining({ kind: 'refusals', user: 'eve', env: 'default', batch: true, count: 500, codes: { invalid_id: 500 } }),
    ]);
    expect(readFileSync(file, 'utf8')).not.toContain('\\u2028');
    expect(upstream.seen).toHaveLength(0);
  });

  it("writes a line for each valid id, and counts many batches' invalid ids in the user's counted line of the minute", async () => {
    const { file, audit, refusals } = countedAudit();
    const { upstream, batch } = await appWith({ audit, refusals });
    const mixed = await batch('eve', ['r1', '\u0000'.repeat(300), 'r2', '..']);
    expect(ndjson(mixed.body).at(-1)).toEqual({ type: 'done', found: 2, failed: 2 });
    // Many small batches cost no more than one: the minute's counted line sums them.
    for (let i = 0; i < 20; i++) await batch('eve', ['\u2028'.repeat(300)]);
    expect(parsedLines(file)).toHaveLength(3);
    await refusals.flush();
    const lines = parsedLines(file);
    expect(lines.map((line) => line.id ?? line.kind)).toEqual(expect.arrayContaining(['r1', 'r2']));
    expect(lines.filter((line) => line.kind === 'refusals')).toEqual([
      expect.objectContaining({ user: 'eve', batch: true, count: 2, codes: { invalid_id: 2 } }),
      expect.objectContaining({ user: 'eve', count: 20, codes: { invalid_id: 20 } }),
    ]);
    expect(upstream.seen.map((seen) => seen.path).sort()).toEqual(['/kyc/1.0/connect/c/refId/r1', '/kyc/1.0/connect/c/refId/r2']);
    expect(verifyChain([{ name: file, content: readFileSync(file) }])).toMatchObject({ ok: true, lines: 4 });
  });
});

describe('attack: a batch while the audit log hangs', () => {
  it('a 500-id batch (or a page of the applicants list) sent while the audit log hangs makes no request to the KYC service and is refused with 503 audit_unavailable', async () => {
    const fifo = blockedFifo(tempDir());
    cleanups.push(() => fifo.close());
    const audit = createAuditLog(fifo.file, { writeTimeoutMs: 300 });
    const { upstream, app, batch } = await appWith({ audit });
    // A lookup finds the log hung (its own request went out before the write hung).
    expect((await app.get('/api/candidates/refId/first', as('ana'))).status).toBe(503);
    expect(audit.available()).toBe(false);
    const asked = upstream.seen.length;

    const res = await batch(
      'ana',
      Array.from({ length: 500 }, (_, i) => `id${i}`),
    );
    expect(res.status).toBe(503);
    expect(JSON.parse(res.body).error).toMatchObject({ code: 'audit_unavailable', message: expect.stringMatching(/not answering/) });
    expect(upstream.seen.length).toBe(asked);
    // A page of the applicants list too: no request while its line could not be written.
    const page = await app.get('/api/applicants', as('ana'));
    expect(page.status).toBe(503);
    expect(JSON.parse(page.body).error.code).toBe('audit_unavailable');
    expect(upstream.seen.length).toBe(asked);
  });

  it('a batch whose audit log hangs mid-batch stops asking the KYC service, each row after it failing with audit_unavailable', async () => {
    const fifo = blockedFifo(tempDir());
    cleanups.push(() => fifo.close());
    const audit = createAuditLog(fifo.file, { writeTimeoutMs: 300 });
    const { upstream, batch } = await appWith({
      audit,
      settings: {
        batchConcurrency: 4,
      },
    });

    const res = await batch(
      'ana',
      Array.from({ length: 500 }, (_, i) => `id${i}`),
    );
    expect(res.status).toBe(200);
    const events = ndjson(res.body);
    expect(events.at(-1)).toEqual({ type: 'done', found: 0, failed: 500 });
    const rows = events.filter((event) => event.type === 'row');
    expect(rows.every((row) => row.code === 'audit_unavailable')).toBe(true);
    // Only the lookups under way when the first line hung were sent: the rest never left the server.
    expect(upstream.seen.length).toBeLessThanOrEqual(4);
  });
});
