import http from 'node:http';
import { describe, expect, it, vi } from 'vitest';
import { PARTS_ACCEPT } from '../../src/kyc/contract/picture-parts.ts';
import type { AuditEntry, AuditLine, AuditLog } from '../../src/server/audit/audit.ts';
import { RECORD } from './hostile-upstream.ts';
import { APP_HEADERS, type RawResponse } from './http.ts';
import { memoryAuditLog } from './memory-audit.ts';
import { serviceAndApp } from './service-app.ts';

/**
 * Why a full answer did not arrive whole, as the trail says it (lookup/answer-end.ts): a browser that
 * stopped reading a plain answer was written as the service's fault (`answer_fault`), and two answers
 * whose 200 line was written and that were then refused with a clean 502 kept that 200 line alone.
 */

/** The parts' boundary, made of 16 random bytes (multipart-answer.ts), is these when `boundary.fixed` is set. */
const boundary = vi.hoisted(() => ({ fixed: false }));
vi.mock('node:crypto', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:crypto')>();
  const randomBytes = ((size: number, ...rest: []) =>
    boundary.fixed && size === 16 ? Buffer.alloc(16, 0xab) : actual.randomBytes(size, ...rest)) as typeof actual.randomBytes;
  return { ...actual, default: { ...actual, randomBytes }, randomBytes };
});
const FIXED_BOUNDARY = 'ab'.repeat(16);

/** The audit in memory; while `held` is set, a lookup's 200 line is written only once the test releases it. */
const memory = memoryAuditLog();
const hold: { held?: { reached: () => void; release: Promise<void> } } = {};
const audit: AuditLog = {
  available: () => true,
  record: async (entry: AuditLine) => {
    const held = hold.held;
    if (held && 'status' in entry && entry.status === 200 && !('cut' in entry)) {
      held.reached();
      await held.release;
    }
    return memory.record(entry);
  },
};

const { upstream, app } = await serviceAndApp((baseUrl) => ({
  upstream: { baseUrl, clientId: 'client_causes', apiKey: 'causes-key-4d20b9e1' },
  audit,
  // The service's idle timeout: the plain answer's only limit on a body that stops flowing, whoever stopped it.
  settings: { limits: { upstreamTimeoutMs: 1000 } },
}));

/** A record of about 8 MB: far more than the sockets' buffers hold. */
const LARGE = JSON.stringify({
  status: 'success',
  data: { ...RECORD, identities: { passport: { type: 'base64', value: 'QUJD'.repeat(2_000_000) } } },
});

/** What each line of the request `requestId` says: status, code, and why it was cut when it was. */
const outcomes = (requestId: string | string[] | undefined) =>
  (memory.lines.filter((line) => 'requestId' in line && line.requestId === requestId) as AuditEntry[]).map(
    (line) => `${line.status} ${line.code}${line.cut ? ` cut: ${line.cut}` : ''}`,
  );

/** A full lookup, plain JSON, by a client that takes the head and a first piece of the body, then does `then`. */
function readALittle(then: (res: http.IncomingMessage) => void): Promise<string> {
  return new Promise((resolve, reject) => {
    const req = http.get(
      { host: '127.0.0.1', port: app.port, path: '/api/candidates/refId/r', headers: { ...APP_HEADERS, accept: 'application/json' } },
      (res) => {
        expect(res.statusCode).toBe(200);
        res.once('data', () => {
          then(res);
          resolve(String(res.headers['x-request-id']));
        });
      },
    );
    req.on('error', (error) => (error.message === 'socket hang up' ? undefined : reject(error)));
  });
}

describe('a plain answer the browser did not take whole', () => {
  it('attack on the trail: a browser that stops reading a large record is written as having left (499), not as the service failing', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(LARGE) });
      res.end(LARGE);
    };
    let reader: http.IncomingMessage | undefined;
    const requestId = await readALittle((res) => {
      reader = res;
      res.pause();
    });
    // Before: '502 upstream_error cut: answer_fault', the service's idle timeout blamed for the browser's stall.
    await expect.poll(() => outcomes(requestId), { timeout: 10_000 }).toEqual(['200 null', '499 cancelled cut: client_left']);
    reader?.destroy();
  });

  it('a browser that closes its connection mid-body: written as having left (499)', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(LARGE) });
      res.end(LARGE);
    };
    const requestId = await readALittle((res) => res.socket.destroy());
    await expect.poll(() => outcomes(requestId)).toEqual(['200 null', '499 cancelled cut: client_left']);
  });

  it('the service stalling mid-body while the browser reads all it gets: still its fault (502 answer_fault)', async () => {
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(LARGE) });
      // A first piece, then nothing: its idle timeout cuts it.
      res.write(LARGE.slice(0, 100_000));
    };
    const res = await app.get('/api/candidates/refId/r', { accept: 'application/json' });
    expect(res.status).toBe(200);
    expect(res.cut).toBe(true);
    await expect.poll(() => outcomes(res.headers['x-request-id'])).toEqual(['200 null', '502 upstream_error cut: answer_fault']);
  });
});

describe('an answer refused after its 200 line was written', () => {
  it('attack on the trail: a body that breaks off while the 200 line is written is answered 502 and written as cut, not as a lone 200', async () => {
    let reached = () => {};
    let release = () => {};
    const lineHeld = new Promise<void>((resolve) => (reached = resolve));
    hold.held = { reached: () => reached(), release: new Promise<void>((resolve) => (release = resolve)) };
    const closed = new Promise<void>((resolve) => {
      upstream.behave = async (_req, res) => {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(LARGE) });
        res.write(LARGE.slice(0, 1000));
        await lineHeld;
        res.socket?.once('close', () => resolve());
        res.destroy();
      };
    });
    try {
      const answered = app.get('/api/candidates/refId/r', { accept: 'application/json' });
      await closed;
      // The app, in this process, reads the service's close before the line is let through.
      await new Promise((resolve) => setTimeout(resolve, 100));
      release();
      const res: RawResponse = await answered;
      expect(res.status).toBe(502);
      // Before: ['200 null'] alone, for an answer that never arrived.
      await expect.poll(() => outcomes(res.headers['x-request-id'])).toEqual(['200 null', '502 upstream_error cut: answer_fault']);
    } finally {
      delete hold.held;
      release();
    }
  });

  it("attack on the trail: a record holding the parts' boundary is answered 502 and written as cut, not as a lone 200", async () => {
    // The envelope's status after the record: no status part goes ahead of it, so the record is read whole first.
    const body = JSON.stringify({ data: { ...RECORD, customFields: { note: `--${FIXED_BOUNDARY}` } }, status: 'success' });
    upstream.behave = (_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    };
    boundary.fixed = true;
    try {
      const res = await app.get('/api/candidates/refId/r', { accept: PARTS_ACCEPT });
      expect(res.status).toBe(502);
      expect(res.body).toContain('could not be sent in parts');
      // Before: ['200 null'] alone.
      await expect.poll(() => outcomes(res.headers['x-request-id'])).toEqual(['200 null', '502 upstream_error cut: answer_fault']);
    } finally {
      boundary.fixed = false;
    }
  });
});
