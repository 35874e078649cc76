import http from 'node:http';
import { afterEach, describe, expect, it } from 'vitest';
import { createArchivingGuard } from '../../src/server/archiving/archiving-guard.ts';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { ApiFailure, BROKE_OFF_MESSAGE } from '../../src/server/http/api-failure.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { type Behaviour, startFakeUpstream } from './fake-upstream.ts';
import { listen, startTestApp } from './http.ts';

/**
 * After each start, full lookups wait behind the first one until its answer shows whether the key archives
 * after extract (archiving-gate.ts). Found by a reviewer against the built server: a service that accepted
 * connections and never answered had the first lookup told 504 after 15 s and every other one, 15 s later
 * still, 503 "Candidate Lookup is still checking … Nothing was asked of the KYC service. Try again in a
 * moment." (or sent into the same silence after its wait, 30 s in all), and one user's lookups waiting for
 * their slots 429 "several lookups waiting for the KYC service". Waits here are the configured 1 s.
 */

const cleanups: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0)) await cleanup();
});

/** A record without willArchiveAtDate, its start: `}` closes the record, `}}` the envelope. */
const record = (id: string) =>
  `{"status":"success","data":{"status":"approved","refId":"${id}","recordId":"x","isArchived":false,"approvedDate":"2026-01-01T00:00:00.000Z"`;

async function serviceThat(behave: Behaviour, limits: Record<string, number> = {}) {
  const upstream = await startFakeUpstream();
  upstream.behave = behave;
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'full-key-9a1e-c07d22' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    settings: { limits: { upstreamTimeoutMs: 1000, upstreamAnswerTimeoutMs: 60_000, ...limits } },
  });
  cleanups.push(app.close, upstream.close);
  const lookup = (id: string, user: string) => lookupAt(app.port, `/api/candidates/refId/${id}`, user);
  return { upstream, lookup, asked: () => upstream.seen.length };
}

/** A compliance user's lookup read to its end: its status and error. */
function lookupAt(port: number, path: string, user: string) {
  return new Promise<{ status: number | undefined; error?: { code: string; message: string; retryAfterSeconds?: number } }>((resolve) => {
    const headers = { 'x-candidate-lookup': '1', 'x-user': user, 'x-role': 'compliance', accept: 'application/json' };
    const req = http.request({ host: '127.0.0.1', port, path, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('close', () => {
        const body = Buffer.concat(chunks).toString();
        resolve({ status: res.statusCode, error: res.statusCode === 200 ? undefined : JSON.parse(body).error });
      });
    });
    req.on('error', () => resolve({ status: undefined }));
    req.end();
  });
}

const hangs: Behaviour = () => {};

/**
 * The first lookup's wait, long enough that the others reach the server before it runs out: one that
 * arrives after the check failed is the next check, sent, and on a loaded machine (CI's under-load step)
 * a request can take longer to arrive than a short wait leaves. A bound of the test, not a speed of the product.
 */
const SLOW_ENOUGH = { upstreamTimeoutMs: 3000 };

describe('attack: the KYC service hangs after a start', () => {
  it('the lookups waiting behind the first are told what it was told (the service did not answer), and none is sent after its wait', async () => {
    const { lookup, asked } = await serviceThat(hangs, SLOW_ENOUGH);
    const first = lookup('ref-1', 'ana');
    await expect.poll(asked).toBe(1);
    const others = await Promise.all([lookup('ref-2', 'bob'), lookup('ref-3', 'cai')]);
    const told = await first;
    expect(told).toMatchObject({ status: 504, error: { code: 'upstream_timeout', message: 'The KYC service did not answer within 3 s.' } });
    // Before: 503 archiving_check_unavailable, "still checking … Nothing was asked of the KYC service", or sent into the same silence.
    for (const other of others) expect(other).toEqual(told);
    expect(asked()).toBe(1);
  });

  it("one user's six lookups at once: each is told the service did not answer, none that it had several waiting, none sent after the first", async () => {
    const { lookup, asked } = await serviceThat(hangs, { ...SLOW_ENOUGH, upstreamInFlightPerUser: 4 });
    const first = lookup('ref-0', 'ana');
    await expect.poll(asked).toBe(1);
    // Three wait behind the check with the user's other slots, two for those slots.
    const all = await Promise.all([first, ...[1, 2, 3, 4, 5].map((n) => lookup(`ref-${n}`, 'ana'))]);
    for (const told of all) {
      expect(told).toMatchObject({
        status: 504,
        error: { code: 'upstream_timeout', message: 'The KYC service did not answer within 3 s.' },
      });
    }
    expect(asked()).toBe(1);
  });
});

describe('the check still answering when a wait runs out', () => {
  it('is said so, with the seconds waited; one user waiting for slots held behind it is told the same, not "several lookups waiting for the KYC service"', async () => {
    let finish = () => {};
    const { lookup, asked, upstream } = await serviceThat(() => {}, { upstreamInFlightPerUser: 1 });
    upstream.behave = (req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const id = req.url!.split('/').pop()!;
      // The record trickles: its date, if any, comes last.
      res.write(`${record(id)},"customFields":{"note":"`);
      const drip = setInterval(() => res.write('a'), 50);
      res.on('close', () => clearInterval(drip));
      finish = () => {
        clearInterval(drip);
        res.end('"}}}');
      };
    };
    const first = lookup('slow-1', 'bob');
    await expect.poll(asked).toBe(1);
    // Ana's first waits behind bob's check with her one slot, her second for that slot.
    const ana = await Promise.all([lookup('ref-2', 'ana'), lookup('ref-3', 'ana')]);
    for (const told of ana) {
      expect(told).toMatchObject({ status: 503, error: { code: 'archiving_check_unavailable', retryAfterSeconds: 5 } });
      expect(told.error?.message).toMatch(
        /^The KYC service is still sending its answer to another full lookup, .* this one waited [\d.]+ s for it and was not sent/,
      );
    }
    expect(asked()).toBe(1);
    finish();
    expect((await first).status).toBe(200);
  });
});

describe('the guard, its check failed by the service', () => {
  const log = createLogger({ write: () => {} }, 'warn');
  const waiting = (ms: number) => ({ since: Date.now(), until: Date.now() + ms });

  it('unreachable, or a 5xx: those waiting get its failure, those after it check again', async () => {
    const failures = [
      new ApiFailure('upstream_unreachable', 'The KYC service could not be reached (connection refused).'),
      new ApiFailure('upstream_error', 'The KYC service answered 500 (Internal error).'),
    ];
    for (const failure of failures) {
      const guard = createArchivingGuard({ accept: false });
      const first = await guard.admit(waiting(60_000), log);
      const behind = [guard.admit(waiting(60_000), log), guard.admit(waiting(60_000), log)];
      if (!first.ok) throw new Error('the first is let through');
      first.watch({ ok: false, failure, upstreamStatus: null }, Date.now());
      for (const told of await Promise.all(behind)) expect(told).toEqual({ ok: false, failure, waited: false });
      // A lookup after it is the next check: sent.
      expect(await guard.admit(waiting(60_000), log)).toMatchObject({ ok: true });
    }
  });

  it('a 404 says nothing of the service: the next one waiting checks', async () => {
    const guard = createArchivingGuard({ accept: false });
    const first = await guard.admit(waiting(60_000), log);
    const next = guard.admit(waiting(60_000), log);
    if (!first.ok) throw new Error('the first is let through');
    first.watch({ ok: false, failure: new ApiFailure('not_found', 'No candidate with refId "x".'), upstreamStatus: 404 }, Date.now());
    expect(await next).toMatchObject({ ok: true });
  });

  it('an answer that broke off: those waiting are told it broke off', async () => {
    const server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
      res.write('{"status":"success","data":{"status":"approved","note":"');
      setImmediate(() => res.socket?.destroy());
    });
    const { port, close } = await listen(server);
    cleanups.push(close);
    const guard = createArchivingGuard({ accept: false });
    const first = await guard.admit(waiting(60_000), log);
    const behind = guard.admit(waiting(60_000), log);
    if (!first.ok) throw new Error('the first is let through');
    const response = await new Promise<http.IncomingMessage>((resolve) => http.get({ host: '127.0.0.1', port, agent: false }, resolve));
    first.watch({ ok: true, response }, Date.now())?.resume();
    expect(await behind).toMatchObject({ ok: false, failure: { code: 'upstream_error', message: BROKE_OFF_MESSAGE }, waited: false });
  });
});
