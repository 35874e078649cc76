import { mkdtempSync, readFileSync } from 'node:fs';
import type http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { virtualClock } from './clock.ts';
import { createAuditLog, type ListAuditEntry } from '../../src/server/audit/audit.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';
import { gateway, pageOf, SUPPORT } from './queue-fixture.ts';

/**
 * The service's error envelope in a 200 answer to the applicants list, stating its status in `code`
 * (upstream-api-facts.md: the envelope is what the service answers; a gateway may put it behind a 200).
 * The lookups read such an envelope as the status it states (statedErrorOf); the crawler read it only as
 * "The KYC service refused the applicants list.": a stated 429 held no wait (24 list requests about 1 ms
 * apart), a stated 401 named no key, and a stated 400 to an undocumented filter failed the whole queue
 * view (502) where the same 400 on the status line leaves that filter's tab out.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

function answer(res: http.ServerResponse, status: number, value: unknown) {
  const body = JSON.stringify(value);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
  res.end(body);
}
const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-stated-list-'));
const EMPTY = { status: 'success', data: { records: [], total: 0 } };

/**
 * A service whose list answers `envelope` where `refuses(path)`, with that status on its status line
 * (`statusLine` true) or in a 200, and an empty list elsewhere; the crawl run on a virtual clock, each
 * list request noted with its time.
 */
async function crawlWith(envelope: { code: number }, refuses: (path: string) => boolean, statusLine: boolean, auditFile?: string) {
  const upstream = await startFakeUpstream();
  const clock = virtualClock();
  const listAsked: number[] = [];
  upstream.behave = (req, res) => {
    const path = req.url ?? '';
    if (!path.includes('/applicants')) return answer(res, 404, { status: 'error', code: 404, message: 'Not found' });
    listAsked.push(clock.now());
    if (!refuses(path)) return answer(res, 200, EMPTY);
    answer(res, statusLine ? envelope.code : 200, { status: 'error', message: 'Refused', ...envelope });
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key', statusApiKey: 'status-key' },
    access: gateway(),
    ...(auditFile ? { audit: createAuditLog(auditFile) } : {}),
    pauseClock: clock,
    queueCrawl: { start: false, clock },
  });
  cleanups.push(app.close, upstream.close);
  await app.crawl();
  return { app, listAsked, upstream };
}

const gapsOf = (times: readonly number[]) => times.slice(1).map((time, index) => time - times[index]!);

describe("the list's error envelope in a 200 is read as the status it states", () => {
  it('attack: a list that states 429 with a wait of 20 s in every 200 is waited for, as a 429 on the status line is', async () => {
    const limited = { code: 429, extra: { retryAfter: 20 } };
    const { app, listAsked } = await crawlWith(limited, () => true, false);
    // Every tab's first page, tried three times; before, the 24 requests went about 1 ms apart.
    expect(listAsked).toHaveLength(24);
    for (const gap of gapsOf(listAsked)) expect(gap).toBeGreaterThan(20_000);
    const view = await app.get('/api/applicants?status=waiting&counts=1', SUPPORT);
    expect(view.body).toContain('The KYC service is limiting requests (HTTP 429)');
    expect(view.body).not.toContain('refused the applicants list');
  });

  it('a stated 401 names the key and its setting, in the words of a 401 on the status line', async () => {
    const rejected = { code: 401 };
    const stated = await crawlWith(rejected, () => true, false);
    const onLine = await crawlWith(rejected, () => true, true);
    const said = async (app: typeof stated.app) => (await app.get('/api/applicants?status=waiting', SUPPORT)).body;
    const words = await said(onLine.app);
    expect(words).toContain("rejected this server's status-level API key (HTTP 401)");
    expect(await said(stated.app)).toBe(words);
  });

  it('a stated 400 to an undocumented filter leaves that tab out, as a 400 on the status line does: the queue still opens', async () => {
    const undocumented = (path: string) => path.includes('/applicants/review_requested') || path.includes('/applicants/incomplete');
    const invalid = { code: 400 };
    for (const statusLine of [true, false]) {
      const { app } = await crawlWith(invalid, undocumented, statusLine);
      const view = await app.get('/api/applicants?counts=1', SUPPORT);
      // Before, stated in a 200: 502 "The KYC service refused the applicants list."
      expect(view.status, `${statusLine ? 'status line' : 'stated'}: ${view.body}`).toBe(200);
      expect(pageOf(view).refused).toEqual(['review_requested', 'incomplete']);
    }
  });

  it("the audit line of such a page records the 200 the service answered with, and the page's failure its stated code", async () => {
    const auditFile = path.join(dir, 'audit-401.jsonl');
    await crawlWith({ code: 401 }, () => true, false, auditFile);
    const lines = readFileSync(auditFile, 'utf8')
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as ListAuditEntry)
      .filter((line) => line.kind === 'list');
    expect(lines.length).toBeGreaterThan(0);
    for (const line of lines) expect(line).toMatchObject({ upstreamStatus: 200, code: 'upstream_unauthorized' });
  });
});
