import { appendFileSync } from 'node:fs';
import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { AUDIT_PATHS } from '../../src/kyc/contract/audit-search.ts';
import { APP_REQUEST_HEADER } from '../../src/kyc/contract/api.ts';
import { fileLines, LEAD, postJson } from './audit-trail-helpers.ts';
import { sandboxOnly } from './queue-view-fixture.ts';

/**
 * A lead's audit exports that are never read: each held a page of rows (1,000 queue views naming 100
 * candidates each) for as long as its connection stayed open, and 64 of them held 2 to 3.5 GB until the
 * process ran out of memory (red team). Now a lead has at most two under way at once, and a download that
 * takes nothing for browserStallMs (limits.upstreamTimeoutMs) is cut off, its page let go.
 */
const { instance } = sandboxOnly();

/** `count` queue views, each naming 100 candidates: a CSV of several MB, more than the sockets' buffers hold. */
function queueViews(file: string, count: number): void {
  const time = new Date().toISOString();
  const line = (i: number) =>
    `${JSON.stringify({
      prev: '0'.repeat(64),
      time,
      requestId: `r${i}`,
      user: 'sam',
      role: 'support',
      client: '198.51.100.7',
      env: 'default',
      kind: 'list',
      filter: 'all',
      skip: i * 100,
      limit: 100,
      records: 100,
      candidates: Array.from({ length: 100 }, (_, j) => ({
        refId: `ref-${i}-${j}-${'x'.repeat(40)}`,
        recordId: `rec-${i}-${j}-${'y'.repeat(40)}`,
      })),
      personalData: false,
      status: 200,
      code: null,
      upstreamStatus: 200,
      level: 'status',
      durationMs: 5,
    })}\n`;
  for (let start = 0; start < count; start += 200) {
    appendFileSync(file, Array.from({ length: Math.min(200, count - start) }, (_, k) => line(start + k)).join(''));
  }
}

/** An export asked on a socket that never reads what comes back. */
function stuckExport(port: number): net.Socket {
  const body = '{}';
  const socket = net.connect(port, '127.0.0.1');
  socket.pause();
  socket.on('error', () => {});
  socket.write(
    [
      `POST ${AUDIT_PATHS.export} HTTP/1.1`,
      'host: 127.0.0.1',
      `${APP_REQUEST_HEADER.name}: ${APP_REQUEST_HEADER.value}`,
      'x-user: lena',
      'x-role: lead',
      'content-type: application/json',
      `content-length: ${body.length}`,
      '',
      body,
    ].join('\r\n'),
  );
  return socket;
}

describe("a lead's exports of the audit trail that are never read", () => {
  it('attack: exports never read: a third at once is refused (429 with a wait), and the two are cut once they take nothing for browserStallMs, freeing their places', async () => {
    const app = await instance({}, { limits: { lookupsPerMinute: 0, upstreamTimeoutMs: 3000, upstreamAnswerTimeoutMs: 3000 } });
    queueViews(app.auditLog, 1500);
    const stuck = [stuckExport(app.port), stuckExport(app.port)];
    try {
      // Both under way (each writes its audit line before its first byte) before the third is asked.
      const exportLines = () => fileLines(app.auditLog).filter((line) => line.kind === 'audit' && line.what === 'export').length;
      for (let tries = 0; exportLines() < 2 && tries < 500; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
      expect(exportLines()).toBe(2);
      const third = await postJson(app, AUDIT_PATHS.export, {}, LEAD);
      expect(third.status).toBe(429);
      // Said apart from the searches' limit (`reason`): the page holds Download CSV alone for it, not Search.
      expect(JSON.parse(third.body).error).toMatchObject({ code: 'rate_limited', reason: 'exports_under_way', retryAfterSeconds: 5 });
      expect(JSON.parse(third.body).error.message).toMatch(
        /^You already have 2 downloads of the audit trail under way: wait for them to finish\. Try again in 5 s\.$/,
      );
      expect(Number(third.headers['retry-after'])).toBeGreaterThan(0);
      // Cut after their stall: the lead's export is answered whole again.
      let again = third;
      for (let tries = 0; again.status !== 200 && tries < 100; tries++) {
        await new Promise((resolve) => setTimeout(resolve, 200));
        again = await postJson(app, AUDIT_PATHS.export, {}, LEAD);
      }
      expect(again.status).toBe(200);
      expect(again.body.split('\n').length).toBeGreaterThan(1500);
    } finally {
      for (const socket of stuck) socket.destroy();
    }
  });

  it('attack: exports whose browser went away before their first byte end, and give their places back', async () => {
    const app = await instance({}, { limits: { lookupsPerMinute: 0 } });
    queueViews(app.auditLog, 1500);
    const gone = [stuckExport(app.port), stuckExport(app.port)];
    const exportLines = () => fileLines(app.auditLog).filter((line) => line.kind === 'audit' && line.what === 'export').length;
    for (let tries = 0; exportLines() < 2 && tries < 500; tries++) await new Promise((resolve) => setTimeout(resolve, 20));
    // Gone while their first page is read: before, each waited for ever for a socket that had closed.
    for (const socket of gone) socket.destroy();
    let after = await postJson(app, AUDIT_PATHS.export, {}, LEAD);
    for (let tries = 0; after.status === 429 && tries < 100; tries++) {
      await new Promise((resolve) => setTimeout(resolve, 100));
      after = await postJson(app, AUDIT_PATHS.export, {}, LEAD);
    }
    expect(after.status).toBe(200);
    expect(after.body.split('\n').length).toBeGreaterThan(1500);
  });
});
