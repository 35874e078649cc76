import { lookup } from 'node:dns/promises';
import { constants } from 'node:fs';
import { access, statfs } from 'node:fs/promises';
import type http from 'node:http';
import { isIP } from 'node:net';
import path from 'node:path';
import { methodNotAllowed, sendFailure } from '../http/http-reply.ts';
import { type Logger, setRoute } from '../log/log.ts';
import type { SharedStore } from '../state/store.ts';
import { setSecurityHeaders } from '../http/security-headers.ts';

/**
 * `/healthz` (the process is up and answering) and `/readyz` (it can serve lookups: each check below).
 * Both answer without sign-in and say nothing about candidates, users or paths: only which check
 * failed, in a word. The detail goes to the log.
 */
export type CheckResult = { ok: true; note?: string } | { ok: false; problem: string };

export interface ReadinessCheck {
  name: string;
  run(): Promise<CheckResult>;
}

/** A check that takes longer than this failed: a hung DNS server or mount must not hang /readyz. */
const CHECK_TIMEOUT_MS = 2000;
/** Results are reused this long, so that polling /readyz cannot be turned into load. */
const CACHE_MS = 1000;

export function createHealthRoutes(checks: readonly ReadinessCheck[]): (req: http.IncomingMessage, res: http.ServerResponse) => boolean {
  let cached: { at: number; result: Promise<Record<string, CheckResult>> } | undefined;
  const runAll = () => {
    if (!cached || performance.now() - cached.at > CACHE_MS) cached = { at: performance.now(), result: runChecks(checks) };
    return cached.result;
  };
  return (req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== '/healthz' && pathname !== '/readyz') return false;
    setRoute(res, pathname);
    setSecurityHeaders(req, res);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      sendFailure(res, methodNotAllowed('GET, HEAD', `Probe ${pathname} with GET or HEAD.`));
      return true;
    }
    if (pathname === '/healthz') {
      send(req, res, 200, { status: 'ok' });
      return true;
    }
    void runAll().then((results) => {
      const ready = Object.values(results).every((result) => result.ok);
      send(req, res, ready ? 200 : 503, { status: ready ? 'ready' : 'not ready', checks: results });
    });
    return true;
  };
}

async function runChecks(checks: readonly ReadinessCheck[]): Promise<Record<string, CheckResult>> {
  const results = await Promise.all(
    checks.map(async (check): Promise<[string, CheckResult]> => {
      let timer: NodeJS.Timeout | undefined;
      const timeout = new Promise<CheckResult>((resolve) => {
        timer = setTimeout(() => resolve({ ok: false, problem: 'timed out' }), CHECK_TIMEOUT_MS);
      });
      const result = await Promise.race([check.run().catch((): CheckResult => ({ ok: false, problem: 'failed' })), timeout]);
      clearTimeout(timer);
      return [check.name, result];
    }),
  );
  return Object.fromEntries(results);
}

function send(req: http.IncomingMessage, res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(req.method === 'HEAD' ? undefined : text);
}

/** Free bytes for an unprivileged writer on the filesystem that holds `file`. */
export async function freeBytes(file: string): Promise<number> {
  const stats = await statfs(path.dirname(path.resolve(file)));
  return stats.bavail * stats.bsize;
}

/** What the audit log says of itself to the checks (observeAuditLog's log). */
export interface AuditState {
  /** False while a write is stuck (a hung mount, a pipe nobody reads). */
  available(): boolean;
  lastWriteFailed(): boolean;
}

/**
 * The audit log's filesystem, asked one question at a time. access() and statfs() run in libuv's thread
 * pool, like the log's writes: on a hung mount each would strand a thread, and four stranded threads
 * stall static files and sign-in too. So nothing is asked while the log is stuck, and nothing while an
 * earlier question is still unanswered: `answered: false`, at once.
 */
export interface AuditVolume {
  ask<T>(question: () => Promise<T>): Promise<{ answered: true; value: T } | { answered: false }>;
  /** Resolves when the question being asked is answered, or after `ms` (a hung mount never answers). */
  idle(ms: number): Promise<void>;
}

export function auditVolume(audit: Pick<AuditState, 'available'> = { available: () => true }): AuditVolume {
  let asking: Promise<unknown> | undefined;
  return {
    async ask(question) {
      if (asking || !audit.available()) return { answered: false };
      const answer = question();
      asking = answer;
      try {
        return { answered: true, value: await answer };
      } finally {
        asking = undefined;
      }
    },
    async idle(ms) {
      if (!asking) return;
      let timer: NodeJS.Timeout | undefined;
      const late = new Promise<void>((resolve) => {
        timer = setTimeout(resolve, ms);
      });
      await Promise.race([asking.then(noop, noop), late]);
      clearTimeout(timer);
    },
  };
}

const noop = () => {};

/** How long /readyz waits for another question to the audit volume (the free-space watcher's) before calling it stuck. */
const VOLUME_BUSY_MS = 1000;

/** Why the audit file (or, before the first line, its directory) cannot be written; undefined: it can. */
function writableProblem(file: string): Promise<string | undefined> {
  return access(file, constants.W_OK).then(
    () => undefined,
    (error: NodeJS.ErrnoException) =>
      error.code === 'ENOENT'
        ? access(path.dirname(path.resolve(file)), constants.W_OK).then(
            () => undefined,
            () => 'not writable',
          )
        : 'not writable',
  );
}

/**
 * The audit log can take a line: it is not stuck, the file (or, before the first line, its directory) is
 * writable, and the last write did not fail. Low free space is reported, but the server stays ready:
 * every instance on that volume would otherwise leave the load balancer at once, while lookups still work.
 */
export function auditLogCheck(
  file: string,
  minFreeBytes: number,
  audit: AuditState,
  volume = auditVolume(audit),
  busyMs = VOLUME_BUSY_MS,
): ReadinessCheck {
  const stuck: CheckResult = { ok: false, problem: 'stuck' };
  return {
    name: 'auditLog',
    async run() {
      let writable = await volume.ask(() => writableProblem(file));
      if (!writable.answered && audit.available()) {
        // Another question is being asked (the free-space watcher's, at start): its answer is waited
        // for, a moment, rather than taken for a stuck log.
        await volume.idle(busyMs);
        writable = await volume.ask(() => writableProblem(file));
      }
      if (!writable.answered) return stuck;
      if (writable.value) return { ok: false, problem: writable.value };
      if (audit.lastWriteFailed()) return { ok: false, problem: 'the last write failed' };
      const free = await volume.ask(() => freeBytes(file).catch(() => undefined));
      if (!free.answered) return audit.available() ? { ok: true } : stuck;
      return free.value !== undefined && free.value < minFreeBytes ? { ok: true, note: 'low free space' } : { ok: true };
    },
  };
}

/** The KYC service's host name resolves (an address needs no lookup). */
export function upstreamHostCheck(baseUrl: string, name = 'upstreamHost'): ReadinessCheck {
  const host = new URL(baseUrl).hostname.replace(/^\[|\]$/g, '');
  return {
    name,
    async run() {
      if (isIP(host)) return { ok: true };
      return lookup(host).then(
        (): CheckResult => ({ ok: true }),
        (): CheckResult => ({ ok: false, problem: 'does not resolve' }),
      );
    },
  };
}

/** The shared state store answers (with REDIS_URL): without it, lookups and sign-ins fail closed. */
export function sharedStoreCheck(store: Pick<SharedStore, 'ping'>): ReadinessCheck {
  return {
    name: 'redis',
    run: async () => ((await store.ping()) ? { ok: true } : { ok: false, problem: 'not reachable' }),
  };
}

/**
 * Watches the free space where the audit log is written: one clear warning when it falls under
 * AUDIT_MIN_FREE_MB (and at start if it already is), one line when it is back. A full disk would refuse
 * every lookup (the log fails closed), so the warning comes first.
 */
export function watchAuditFreeSpace(
  file: string,
  minFreeBytes: number,
  logger: Logger,
  options: {
    onFree?: (bytes: number) => void;
    everyMs?: number;
    /** Shared with /readyz: not asked while the audit log is stuck, or while another question is unanswered. */
    volume?: AuditVolume;
  } = {},
): { check(): Promise<void>; stop(): void } {
  const { onFree = () => {}, everyMs = 60_000, volume = auditVolume() } = options;
  let low = false;
  const check = async () => {
    const answer = await volume.ask(() => freeBytes(file).catch(() => undefined));
    const free = answer.answered ? answer.value : undefined;
    if (free === undefined) return;
    onFree(free);
    const mb = Math.floor(free / 1024 / 1024);
    const minMb = Math.round(minFreeBytes / 1024 / 1024);
    if (free < minFreeBytes && !low) {
      logger.warn(
        { freeMb: mb, minFreeMb: minMb },
        `Low free space for the audit log: ${mb} MB free, under AUDIT_MIN_FREE_MB=${minMb}. When it is full, every lookup is refused.`,
      );
    } else if (free >= minFreeBytes && low) {
      logger.info({ freeMb: mb, minFreeMb: minMb }, `Free space for the audit log is back above AUDIT_MIN_FREE_MB: ${mb} MB free.`);
    }
    low = free < minFreeBytes;
  };
  const timer = setInterval(() => void check(), everyMs);
  timer.unref();
  return { check, stop: () => clearInterval(timer) };
}
