import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/free-port.mjs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { createAccessControl } from '../../src/server/auth/access.ts';
import { createAuditLog } from '../../src/server/audit/audit.ts';
import { auditLogCheck, auditVolume, sharedStoreCheck, upstreamHostCheck, watchAuditFreeSpace } from '../../src/server/ops/health.ts';
import { createLogger } from '../../src/server/log/log.ts';
import { createMetrics, observeAuditLog } from '../../src/server/ops/metrics.ts';
import { createRedisStore } from '../../src/server/state/redis-store.ts';
import { startFakeUpstream } from './fake-upstream.ts';
import { blockedFifo } from './fifo.ts';
import { startTestApp, type TestApp } from './http.ts';
import { hasRedisServer, NO_REDIS_MESSAGE, startRedis } from './redis-fixture.ts';
import { withClockAhead } from './clock.ts';

/**
 * access() and statfs() as the server calls them, watched: each call is noted, and under `hang.dir` one
 * does not answer until released, as on a hung network mount.
 */
const fsSpy = vi.hoisted(() => ({ calls: [] as string[], hang: undefined as { dir: string; release?: () => void } | undefined }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof import('node:fs/promises')>();
  const watched =
    <A extends unknown[], R>(name: string, call: (target: string, ...rest: A) => Promise<R>) =>
    (target: string, ...rest: A): Promise<R> => {
      fsSpy.calls.push(`${name} ${target}`);
      const hang = fsSpy.hang;
      if (!hang || !target.startsWith(hang.dir)) return call(target, ...rest);
      return new Promise<void>((resolve) => {
        hang.release = resolve;
      }).then(() => call(target, ...rest));
    };
  return {
    ...fs,
    access: watched('access', fs.access as (target: string, mode?: number) => Promise<void>),
    statfs: watched('statfs', fs.statfs as (target: string) => Promise<import('node:fs').StatsFs>),
  };
});
const callsUnder = (folder: string) => fsSpy.calls.filter((call) => call.split(' ')[1]!.startsWith(folder));

const dir = mkdtempSync(path.join(os.tmpdir(), 'cl-health-'));
const json = (body: string) =>
  JSON.parse(body) as { status: string; checks?: Record<string, { ok: boolean; problem?: string; note?: string }> };
let upstream: Awaited<ReturnType<typeof startFakeUpstream>>;
const apps: TestApp[] = [];

beforeAll(async () => {
  upstream = await startFakeUpstream();
});
afterAll(async () => {
  for (const app of apps) await app.close();
  await upstream.close();
});

/** The app behind an identity-aware proxy (so /api needs a user), with the given audit file and checks. */
async function appWith(auditFile: string, minFreeBytes = 0) {
  const audit = observeAuditLog(createAuditLog(auditFile), createMetrics());
  const app = await startTestApp({
    upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
    access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
    audit,
    checks: [auditLogCheck(auditFile, minFreeBytes, audit), upstreamHostCheck(upstream.url)],
  });
  apps.push(app);
  return app;
}

describe('/healthz and /readyz', () => {
  it('answer without sign-in while the API asks for one, and say nothing else', async () => {
    const app = await appWith(path.join(dir, 'a.jsonl'));
    expect((await app.get('/api/candidates/refId/x')).status).toBe(401);
    const health = await app.get('/healthz');
    expect(health.status).toBe(200);
    expect(json(health.body)).toEqual({ status: 'ok' });
    expect(health.headers['cache-control']).toBe('no-store');
    const ready = await app.get('/readyz');
    expect(ready.status).toBe(200);
    expect(json(ready.body)).toEqual({ status: 'ready', checks: { auditLog: { ok: true }, upstreamHost: { ok: true } } });
    expect(ready.body).not.toContain(dir); // no paths, no hosts
    expect(ready.body).not.toContain('127.0.0.1');
    expect((await app.get('/readyz')).headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
    await expect
      .poll(() => app.requests().map((record) => record.route))
      .toEqual(['/api/candidates/refId/:id', '/healthz', '/readyz', '/readyz']);
  });

  it('refuse other methods and answer HEAD', async () => {
    const app = await appWith(path.join(dir, 'b.jsonl'));
    const { rawRequest } = await import('./http.ts');
    expect((await rawRequest(app.port, '/healthz', { method: 'POST' })).status).toBe(405);
    const head = await rawRequest(app.port, '/healthz', { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
  });

  it('is not ready when the audit log cannot be written, while /healthz still answers', async () => {
    const notADirectory = await appWith('/etc/hostname/audit.jsonl');
    const res = await notADirectory.get('/readyz');
    expect(res.status).toBe(503);
    expect(json(res.body)).toMatchObject({ status: 'not ready', checks: { auditLog: { ok: false, problem: 'not writable' } } });
    expect((await notADirectory.get('/healthz')).status).toBe(200); // the process is still up

    // /dev/full passes the permission check; the failed write is what tells.
    const full = await appWith('/dev/full');
    expect((await full.get('/readyz')).status).toBe(200);
    const lookup = await full.get('/api/candidates/refId/x', { 'x-user': 'ana', 'x-role': 'compliance' });
    expect(JSON.parse(lookup.body).error.code).toBe('audit_unavailable');
    // Past the readiness cache (a second by performance.now()), the failed write is what the check reports.
    const ready = await withClockAhead(1100, () => full.get('/readyz'), ['performance']);
    expect(json(ready.body).checks?.auditLog).toEqual({ ok: false, problem: 'the last write failed' });
  });

  it('reports low free space for the audit log without leaving the load balancer', async () => {
    const app = await appWith(path.join(dir, 'c.jsonl'), Number.MAX_SAFE_INTEGER);
    const res = await app.get('/readyz');
    expect(res.status).toBe(200);
    expect(json(res.body).checks?.auditLog).toEqual({ ok: true, note: 'low free space' });
  });

  it('is not ready when the upstream host does not resolve', async () => {
    const check = upstreamHostCheck('https://no-such-host.invalid');
    expect(await check.run()).toEqual({ ok: false, problem: 'does not resolve' });
    expect(await upstreamHostCheck('https://[::1]:8443').run()).toEqual({ ok: true });
    expect(await upstreamHostCheck('http://localhost:1').run()).toEqual({ ok: true });
  });
});

describe('/readyz on a hung audit destination (issue 9, item 5)', () => {
  it('answers 503 stuck while the audit log is stuck, asking nothing of its filesystem; static files and /healthz answer', async () => {
    const fifoDir = mkdtempSync(path.join(os.tmpdir(), 'cl-health-fifo-'));
    const fifo = blockedFifo(fifoDir);
    const audit = observeAuditLog(createAuditLog(fifo.file, { writeTimeoutMs: 300 }), createMetrics());
    const app = await startTestApp({
      upstream: { baseUrl: upstream.url, clientId: 'c', apiKey: 'k' },
      access: createAccessControl({ mode: 'proxy', userHeader: 'x-user', roleHeader: 'x-role', trusted: ['127.0.0.1/32'] }),
      audit,
      checks: [auditLogCheck(fifo.file, 0, audit)],
    });
    try {
      const lookup = await app.get('/api/candidates/refId/x', { 'x-user': 'ana', 'x-role': 'compliance' });
      expect(JSON.parse(lookup.body).error.code).toBe('audit_unavailable');
      expect(audit.available()).toBe(false);

      // Polled for longer than the results are reused (a second by performance.now(), moved ahead rather than
      // waited for): every answer is 503 stuck, and no access() or statfs() went to the thread pool for the
      // audit log's volume.
      for (const ahead of [0, 1100, 2200, 3300]) {
        const ready = await withClockAhead(ahead, () => app.get('/readyz'), ['performance']);
        expect(ready.status).toBe(503);
        expect(json(ready.body).checks?.auditLog).toEqual({ ok: false, problem: 'stuck' });
      }
      expect(callsUnder(fifoDir)).toEqual([]);
      expect((await app.get('/favicon.svg')).status).toBe(200);
      expect((await app.get('/healthz')).status).toBe(200);

      // Someone reads the pipe: the log recovers, a lookup's line is written, and the check asks the
      // filesystem again.
      fifo.drain();
      await expect.poll(() => audit.available(), { timeout: 15_000 }).toBe(true);
      const written = app.get('/api/candidates/refId/y', { 'x-user': 'ana', 'x-role': 'compliance' });
      await expect.poll(() => fifo.drain().includes('"id":"y"'), { timeout: 15_000 }).toBe(true);
      expect((await written).status).not.toBe(503);
      await expect.poll(async () => (await app.get('/readyz')).status, { timeout: 15_000 }).toBe(200);
      expect(callsUnder(fifoDir).length).toBeGreaterThan(0);
    } finally {
      await app.close();
      fifo.close();
    }
  });

  it('never asks the volume a second question while one is unanswered: later checks and the free-space watch are stuck at once', async () => {
    const volumeDir = mkdtempSync(path.join(os.tmpdir(), 'cl-health-hung-'));
    const file = path.join(volumeDir, 'audit.jsonl');
    fsSpy.hang = { dir: volumeDir };
    const audit = { available: () => true, lastWriteFailed: () => false };
    const volume = auditVolume(audit);
    // A question unanswered after 50 ms is taken for a hung mount (1 s in the server).
    const check = auditLogCheck(file, 0, audit, volume, 50);
    const first = check.run(); // its access() hangs
    for (let i = 0; i < 10; i++) expect(await check.run()).toEqual({ ok: false, problem: 'stuck' });
    const measured: number[] = [];
    const watch = watchAuditFreeSpace(file, 0, createLogger({ write: () => {} }), { onFree: (bytes) => measured.push(bytes), volume });
    await watch.check();
    watch.stop();
    expect(measured).toEqual([]);
    expect(callsUnder(volumeDir)).toEqual([`access ${file}`]);

    // The mount answers again: the hung question ends, and the next ones are asked.
    const { release } = fsSpy.hang;
    fsSpy.hang = undefined;
    release!();
    expect(await first).toEqual({ ok: true });
    expect(await check.run()).toEqual({ ok: true });
    await watch.check();
    expect(measured).toHaveLength(1);
  });

  it("is ready, not 'stuck', when /readyz is asked while the free-space watcher's question is still being answered (the start's race)", async () => {
    const volumeDir = mkdtempSync(path.join(os.tmpdir(), 'cl-health-busy-'));
    const file = path.join(volumeDir, 'audit.jsonl');
    const audit = { available: () => true, lastWriteFailed: () => false };
    const volume = auditVolume(audit);
    const watch = watchAuditFreeSpace(file, 0, createLogger({ write: () => {} }), { onFree: () => {}, volume });
    fsSpy.hang = { dir: volumeDir };
    const watching = watch.check(); // its statfs() is slow: answered below, while /readyz waits
    const ready = auditLogCheck(file, 0, audit, volume, 10_000).run();
    await expect.poll(() => callsUnder(volumeDir)).toEqual([expect.stringMatching(/^statfs /)]);
    const { release } = fsSpy.hang;
    fsSpy.hang = undefined;
    release!();
    await watching;
    watch.stop();
    expect(await ready).toEqual({ ok: true });
  });
});

describe('free space for the audit log', () => {
  it('logs one clear warning under AUDIT_MIN_FREE_MB, not one a minute', async () => {
    const lines: string[] = [];
    const logger = createLogger({ write: (text: string) => void lines.push(text) });
    const measured: number[] = [];
    const watch = watchAuditFreeSpace(path.join(dir, 'd.jsonl'), 10 * 1024 ** 5, logger, { onFree: (bytes) => measured.push(bytes) });
    await watch.check();
    await watch.check();
    watch.stop();
    expect(lines).toHaveLength(1);
    const line = JSON.parse(lines[0]!);
    expect(line.level).toBe('warn');
    expect(line.msg).toMatch(/^Low free space for the audit log: \d+ MB free, under AUDIT_MIN_FREE_MB=10737418240\./);
    expect(measured).toHaveLength(2);
    expect(measured[0]).toBeGreaterThan(0);
  });

  it('stays quiet above the threshold', async () => {
    const lines: string[] = [];
    const watch = watchAuditFreeSpace(path.join(dir, 'e.jsonl'), 1, createLogger({ write: (text: string) => void lines.push(text) }));
    await watch.check();
    watch.stop();
    expect(lines).toEqual([]);
  });
});

describe.skipIf(!hasRedisServer)(`readiness with Redis${hasRedisServer ? '' : ` (${NO_REDIS_MESSAGE})`}`, () => {
  it('is not ready while Redis is down, and ready again when it is back', async () => {
    const redis = await startRedis();
    const store = createRedisStore(redis.url);
    const check = sharedStoreCheck(store);
    try {
      await expect.poll(() => check.run(), { timeout: 15_000 }).toEqual({ ok: true });
      await redis.kill();
      await expect.poll(() => check.run(), { timeout: 15_000 }).toEqual({ ok: false, problem: 'not reachable' });
      await redis.restart();
      await expect.poll(() => check.run(), { timeout: 10_000 }).toEqual({ ok: true });
    } finally {
      await store.close();
      await redis.stop();
    }
  }, 30_000);
});

describe('the Dockerfile HEALTHCHECK', () => {
  // The command exactly as the Dockerfile has it, run with the image's node.
  const dockerfile = readFileSync(path.resolve(import.meta.dirname, '../../Dockerfile'), 'utf8').replace(/\\\n/g, ' ');
  const command = JSON.parse(/HEALTHCHECK .*?CMD (\[.*\])/.exec(dockerfile)![1]!) as string[];
  const run = (port: number) =>
    new Promise<number | null>((resolve) => {
      const child = spawn(process.execPath, command.slice(1), { env: { PORT: String(port) }, stdio: 'ignore' });
      child.once('exit', (code) => resolve(code));
    });

  it('exits 0 against a running server and 1 when nothing answers', async () => {
    const app = await appWith(path.join(dir, 'f.jsonl'));
    expect(command[0]).toBe('node');
    expect(await run(app.port)).toBe(0);
    // Nothing listens on a free port below the kernel's ephemeral range: a port a closed server of ours had
    // with listen(0) could be handed to another test file's server meanwhile, which would answer.
    expect(await run(await freePort())).toBe(1);
  });
});
