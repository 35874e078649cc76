import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { startTestApp } from './http.ts';

/**
 * Until a first full answer shows whether the key archives after extract, full lookups go one at a time
 * (archiving-guard.ts). Before, the gate was held until that answer's body had ended: one first answer
 * that trickled (or a large one over a slow link) refused every other full lookup of the instance with
 * `429 rate_limited` for up to the whole answer's deadline (120 s), the date long known absent.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A record's start, without willArchiveAtDate: `}` closes the record, `}}` the envelope. */
const record = (id: string) =>
  `{"status":"success","data":{"status":"approved","refId":"${id}","recordId":"x","isArchived":false,"approvedDate":"2026-01-01T00:00:00.000Z"`;

/**
 * A service whose answers to `slow` ids trickle a byte every 50 ms, for as long as the test lets them
 * (`finish`): `trickle` says what is sent at once, before the trickle and the end. Other ids are answered at once.
 */
async function trickling(first: (id: string) => { head: string; tail: string }) {
  const upstream = await startFakeUpstream();
  const flowing = new Map<string, () => void>();
  upstream.behave = (req, res) => {
    const id = decodeURIComponent(req.url!.split('/').pop()!);
    res.writeHead(200, { 'content-type': 'application/json' });
    if (!id.startsWith('slow')) return void res.end(`${record(id)}}}`);
    const { head, tail } = first(id);
    res.write(head);
    const drip = setInterval(() => res.write('a'), 50);
    const stop = () => {
      clearInterval(drip);
      flowing.delete(id);
    };
    flowing.set(id, () => {
      stop();
      res.end(tail);
    });
    res.on('close', stop);
  };
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key-6d2c-b41f09' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    // The wait at the gate (and the longest gap in a body): the trickle stays well within it.
    settings: { limits: { upstreamTimeoutMs: 2000, upstreamAnswerTimeoutMs: 60_000 } },
  });
  cleanups.push(app.close, upstream.close);
  const asked = (id: string) => upstream.seen.filter((seen) => seen.path.endsWith(`/${id}`)).length;
  return { app, flowing, asked, finish: (id: string) => flowing.get(id)?.() };
}

/** A lookup read to its end: its status and body. */
function lookup(port: number, path: string, user: string, role = 'compliance') {
  return new Promise<{ status: number | undefined; body: string }>((resolve) => {
    const headers = { 'x-candidate-lookup': '1', 'x-user': user, 'x-role': role, accept: 'application/json' };
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('close', () => resolve({ status: res.statusCode, body: Buffer.concat(chunks).toString() }));
    });
    req.on('error', () => resolve({ status: undefined, body: '' }));
    req.end();
  });
}

const errorOf = (res: { body: string }) => (JSON.parse(res.body) as { error: { code: string; retryAfterSeconds?: number } }).error;

describe('attack: the first full answer after a start trickles', () => {
  it('once its record has ended without willArchiveAtDate, the next full lookup goes while the rest of the body trickles', async () => {
    // The record whole at once, then the envelope goes on a byte at a time: the date cannot come any more.
    const { app, flowing, asked, finish } = await trickling(() => ({ head: `${record('slow-first')}},"note":"`, tail: '"}' }));
    const first = lookup(app.port, '/api/candidates/refId/slow-first', 'ana');
    await expect.poll(() => asked('slow-first')).toBe(1);

    const other = await lookup(app.port, '/api/candidates/refId/ok-1', 'bob');
    // Before: refused (429 rate_limited) after the wait at the gate, the first answer still trickling.
    expect(other.status).toBe(200);
    expect(JSON.parse(other.body).data.refId).toBe('ok-1');
    expect(asked('ok-1')).toBe(1);
    expect(flowing.has('slow-first')).toBe(true);
    // A support user without a status key looks with the full key: let through the same way.
    const support = await lookup(app.port, '/api/candidates/refId/ok-2', 'sam', 'support');
    expect(support.status).toBe(200);
    expect(flowing.has('slow-first')).toBe(true);

    finish('slow-first');
    expect((await first).status).toBe(200);
  });

  it('whose willArchiveAtDate may still come: the others wait, and are told the server is checking its key (not rate_limited)', async () => {
    // The whole record trickles: its date, if any, comes last.
    const { app, flowing, asked, finish } = await trickling((id) => ({ head: `${record(id)},"customFields":{"note":"`, tail: '"}}}' }));
    const first = lookup(app.port, '/api/candidates/refId/slow-first', 'ana');
    await expect.poll(() => asked('slow-first')).toBe(1);

    const others = await Promise.all([
      lookup(app.port, '/api/candidates/refId/ok-1', 'bob'),
      lookup(app.port, '/api/candidates/refId/ok-2', 'cai'),
    ]);
    for (const other of others) {
      expect(other.status).toBe(503);
      expect(errorOf(other)).toMatchObject({ code: 'archiving_check_unavailable', retryAfterSeconds: 5 });
    }
    expect(asked('ok-1') + asked('ok-2')).toBe(0);
    expect(flowing.has('slow-first')).toBe(true);

    finish('slow-first');
    expect((await first).status).toBe(200);
    // Read whole without a date: the key keeps data, and full lookups go at once.
    expect((await lookup(app.port, '/api/candidates/refId/ok-1', 'bob')).status).toBe(200);
  });
});
