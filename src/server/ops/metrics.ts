import http from 'node:http';
import client from 'prom-client';
import { SIGN_IN_REFUSALS } from '../../kyc/contract/api.ts';
import type { ClosableAuditLog } from '../audit/audit.ts';
import { intakeMetrics } from './intake-metrics.ts';

/**
 * The server's Prometheus metrics, in a registry of their own (not prom-client's global one), so that
 * each server, and each test, counts for itself. Labels are never an id, a user or candidate data.
 */
export interface Metrics {
  registry: client.Registry;
  /** Lookups by outcome: `code` is `ok`, `cut` (the answer broke off) or the error code answered; `level` is the user's. */
  lookups: client.Counter<'code' | 'role' | 'level'>;
  lookupSeconds: client.Histogram<'level'>;
  lookupsInFlight: client.Gauge;
  /** Bytes of lookup answers sent to browsers. */
  lookupBytes: client.Counter<'level'>;
  /** From the request to the KYC service until its status line, or until it failed. */
  upstreamSeconds: client.Histogram<'outcome'>;
  auditWriteSeconds: client.Histogram;
  auditWriteFailures: client.Counter;
  /** Free bytes where the audit log is written, as last measured. */
  auditFreeBytes: client.Gauge;
  signInFailures: client.Counter;
  /** Sign-ins refused without a check: the username or address is locked after failures, or busy. */
  signInLocked: client.Counter;
  /** Requests refused 429 rate_limited by this server's own limits, by which (see LIMITS). */
  rateLimited: client.Counter<'limit'>;
  /** OpenID Connect sign-ins that gave no session, by why (the refusal page's reason). */
  oidcSignInRefusals: client.Counter<'reason'>;
  /** Live update streams (`GET /api/events`) open now. */
  eventStreams: client.Gauge;
  /** Connections on which nobody has signed in yet, open now (connection-guard.ts). */
  anonymousConnections: client.Gauge;
  /** Connections closed by the caps: `per_address` at once, `evicted` (the oldest) to make room for a new one. */
  connectionsRefused: client.Counter<'reason'>;
  /** Webhook deliveries (issue 22) by event (a documented one, `other` or `unknown`) and result (accepted, duplicate, ping or the error code). */
  webhookDeliveries: client.Counter<'event' | 'result'>;
  /** This server's own status-level lookups (the queue's dates, webhook checks), by outcome: `ok` or the error code. */
  queueIndexLookups: client.Counter<'code'>;
  /** The queue index's entries and bytes per environment (issue 32), and its evictions past its bound. */
  queueIndexEntries: client.Gauge<'environment'>;
  queueIndexBytes: client.Gauge<'environment'>;
  queueIndexEvictions: client.Counter<'environment'>;
  /** Accepted webhook deliveries checked against the service: published, stale (the record says otherwise) or unconfirmed. */
  webhookChecks: client.Counter<'result'>;
  /** The queue of accepted deliveries (issue 32, intake-metrics.ts): tries again, and deliveries given up, by reason. */
  webhookIntakeRetries: client.Counter<'reason'>;
  webhookIntakeDropped: client.Counter<'reason'>;
}

/**
 * The `limit` label: the per-user limit as a lookup, a page of the applicants list or an export took
 * it (a batch refused for its environment is counted as a batch), the batch budget, or a wait for one
 * of the user's requests to the service that outlasted KYC_TIMEOUT_MS, or a full lookup held back while the
 * first full answer shows whether the key archives after extract (archiving-gate.ts), as long; `audit`: a lead's searches.
 */
export const LIMITS = ['lookup', 'applicants', 'export', 'batch', 'in_flight', 'archiving_check', 'audit', 'activity'] as const;
export type Limit = (typeof LIMITS)[number];

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(options: { processMetrics?: boolean } = {}): Metrics {
  const registry = new client.Registry();
  const registers = [registry];
  if (options.processMetrics) client.collectDefaultMetrics({ register: registry, prefix: 'candidate_lookup_' });
  const webhookDeliveries = new client.Counter({
    name: 'candidate_lookup_webhook_deliveries_total',
    help: 'Webhook deliveries from the KYC service, by event (documented ones by name, other, or unknown when refused before it was read) and result (accepted, duplicate, ping, or the error code answered).',
    labelNames: ['event', 'result'],
    registers,
  });
  return {
    registry,
    ...lookupMetrics(registers),
    ...auditMetrics(registers),
    ...refusalMetrics(registers),
    ...liveMetrics(registers),
    webhookDeliveries,
    webhookChecks: new client.Counter({
      name: 'candidate_lookup_webhook_checks_total',
      help: "Accepted webhook deliveries checked against the service's record before anyone is told, by result: published (confirmed), stale (the record says otherwise: a replay, or overtaken) or unconfirmed (the service could not be asked).",
      labelNames: ['result'],
      registers,
    }),
    queueIndexLookups: new client.Counter({
      name: 'candidate_lookup_queue_index_lookups_total',
      help: "Status-level lookups that learn the queue's dates (list work, bounded by queueIndexLookupsPerSecond), by outcome: ok or the error code.",
      labelNames: ['code'],
      registers,
    }),
    ...queueIndexMetrics(registers),
    ...intakeMetrics(registers),
  };
}

/** The queue index (issue 32): its size per environment, and what its bound evicted. */
function queueIndexMetrics(registers: client.Registry[]): Pick<Metrics, 'queueIndexEntries' | 'queueIndexBytes' | 'queueIndexEvictions'> {
  return {
    queueIndexEntries: new client.Gauge({
      name: 'candidate_lookup_queue_index_entries',
      help: "Candidates in the environment's queue index, as of this instance's last write to it.",
      labelNames: ['environment'],
      registers,
    }),
    queueIndexBytes: new client.Gauge({
      name: 'candidate_lookup_queue_index_bytes',
      help: "Bytes of the environment's queue index as its bound counts them (entries, members, aliases), as of this instance's last write.",
      labelNames: ['environment'],
      registers,
    }),
    queueIndexEvictions: new client.Counter({
      name: 'candidate_lookup_queue_index_evictions_total',
      help: "Entries the environment's queue index evicted past its bound (queueIndexMax candidates, 512 bytes each on average).",
      labelNames: ['environment'],
      registers,
    }),
  };
}

/** Live updates (issue 22): the event streams open; connections before sign-in (issue 31). */
function liveMetrics(registers: client.Registry[]): Pick<Metrics, 'eventStreams' | 'anonymousConnections' | 'connectionsRefused'> {
  return {
    eventStreams: new client.Gauge({
      name: 'candidate_lookup_event_streams_open',
      help: 'Live update streams (GET /api/events, Server-Sent Events) open now on this instance.',
      registers,
    }),
    anonymousConnections: new client.Gauge({
      name: 'candidate_lookup_anonymous_connections',
      help: 'Connections open now on which no request has been signed in yet (webhooks, sign-in, static files, probes, slow clients).',
      registers,
    }),
    connectionsRefused: new client.Counter({
      name: 'candidate_lookup_connections_refused_total',
      help: 'Connections closed by the caps on connections not signed in: per_address (closed at once), evicted (the oldest, to make room).',
      labelNames: ['reason'],
      registers,
    }),
  };
}

/** Lookups and their requests to the KYC service: how many, how they ended, how long, how large. */
function lookupMetrics(
  registers: client.Registry[],
): Pick<Metrics, 'lookups' | 'lookupSeconds' | 'lookupsInFlight' | 'lookupBytes' | 'upstreamSeconds'> {
  return {
    lookups: new client.Counter({
      name: 'candidate_lookup_lookups_total',
      help: 'Lookups answered, by outcome code (ok, cut, or the error code), role, and the level that role gets (full, status, stripped).',
      labelNames: ['code', 'role', 'level'],
      registers,
    }),
    lookupSeconds: new client.Histogram({
      name: 'candidate_lookup_lookup_duration_seconds',
      help: 'Time from the request until the answer was sent in full (or cut), by level fetched.',
      labelNames: ['level'],
      buckets: SECONDS,
      registers,
    }),
    lookupsInFlight: new client.Gauge({
      name: 'candidate_lookup_lookups_in_flight',
      help: 'Lookups being answered now.',
      registers,
    }),
    lookupBytes: new client.Counter({
      name: 'candidate_lookup_lookup_response_bytes_total',
      help: 'Bytes of lookup answers sent to browsers, by level fetched.',
      labelNames: ['level'],
      registers,
    }),
    upstreamSeconds: new client.Histogram({
      name: 'candidate_lookup_upstream_duration_seconds',
      help: "Time until the KYC service's status line, by outcome: its status class (2xx, 4xx, 5xx), timeout or error.",
      labelNames: ['outcome'],
      buckets: SECONDS,
      registers,
    }),
  };
}

/** The audit log: its writes, their failures, and the room left for it. */
function auditMetrics(registers: client.Registry[]): Pick<Metrics, 'auditWriteSeconds' | 'auditWriteFailures' | 'auditFreeBytes'> {
  return {
    auditWriteSeconds: new client.Histogram({
      name: 'candidate_lookup_audit_write_duration_seconds',
      help: "Time until a lookup's audit line was written (or failed), including waiting for the write before it.",
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 5],
      registers,
    }),
    auditWriteFailures: new client.Counter({
      name: 'candidate_lookup_audit_write_failures_total',
      help: 'Audit lines that could not be written (each refused a lookup with 503 audit_unavailable).',
      registers,
    }),
    auditFreeBytes: new client.Gauge({
      name: 'candidate_lookup_audit_free_bytes',
      help: 'Free bytes on the filesystem of the audit log, measured every minute (AUDIT_MIN_FREE_MB warns).',
      registers,
    }),
  };
}

/** What this server refused on its own: failed and locked sign-ins, and requests over a limit. */
function refusalMetrics(
  registers: client.Registry[],
): Pick<Metrics, 'signInFailures' | 'signInLocked' | 'rateLimited' | 'oidcSignInRefusals'> {
  return {
    signInFailures: new client.Counter({
      name: 'candidate_lookup_sign_in_failures_total',
      help: 'Sign-ins refused for a wrong username or password (built-in users).',
      registers,
    }),
    signInLocked: new client.Counter({
      name: 'candidate_lookup_sign_in_locked_total',
      help: 'Sign-ins refused unchecked (429 too_many_sign_in_attempts): locked after repeated failures, or another sign-in of that name in progress.',
      registers,
    }),
    oidcSignInRefusals: oidcSignInRefusals(registers),
    rateLimited: new client.Counter({
      name: 'candidate_lookup_rate_limited_total',
      help:
        "Requests refused 429 rate_limited by this server's own limits, by limit: lookup, applicants, export (the per-user " +
        'limit each takes from), presence (announcements per user), batch (the batch budget), in_flight (a wait for a slot at the KYC service that took too long), archiving_check (a full lookup held ' +
        'back, or waiting for a slot held behind it, while the first shows whether the key archives after extract: refused 503 archiving_check_unavailable, or 504 upstream_timeout while the service has not begun to answer the first).',
      labelNames: ['limit'],
      registers,
    }),
  };
}

function oidcSignInRefusals(registers: client.Registry[]): client.Counter<'reason'> {
  const counter = new client.Counter({
    name: 'candidate_lookup_oidc_sign_in_refusals_total',
    help: 'OpenID Connect sign-ins refused, by reason: no_role, stale (wrong state, expired or used), rejected (code or token refused), provider_unavailable, store_unavailable.',
    labelNames: ['reason'],
    registers,
  });
  // Every reason from the start, at 0: an alert on its rate need not wait for the first refusal.
  for (const reason of SIGN_IN_REFUSALS) counter.inc({ reason }, 0);
  return counter;
}

/** The audit log, timed and counted; `lastWriteFailed` tells /readyz whether the log takes lines now. */
export function observeAuditLog(audit: ClosableAuditLog, metrics: Metrics): ClosableAuditLog & { lastWriteFailed(): boolean } {
  let failed = false;
  return {
    async record(entry) {
      const end = metrics.auditWriteSeconds.startTimer();
      try {
        await audit.record(entry);
        failed = false;
      } catch (error) {
        failed = true;
        metrics.auditWriteFailures.inc();
        throw error;
      } finally {
        end();
      }
    },
    available: () => audit.available(),
    close: () => audit.close(),
    lastWriteFailed: () => failed,
  };
}

/** The upstream outcome label: the status class, or what went wrong before a status line came. */
export function upstreamOutcome(status: number | null, code?: string): string {
  if (status !== null) return `${Math.floor(status / 100)}xx`;
  return code === 'upstream_timeout' ? 'timeout' : 'error';
}

/**
 * `/metrics` on a port of its own (METRICS_PORT), never on the public one: the figures are for the
 * operator's scraper, not for whoever reaches the app. Everything else on that port is a 404.
 */
export function createMetricsServer(metrics: Metrics): http.Server {
  return http.createServer((req, res) => {
    const pathname = (req.url ?? '/').split('?')[0];
    if (pathname !== '/metrics') {
      res.writeHead(404, { 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Not found: metrics are at /metrics\n');
    }
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.writeHead(405, { allow: 'GET, HEAD', 'content-type': 'text/plain; charset=utf-8' });
      return void res.end('Method not allowed\n');
    }
    metrics.registry.metrics().then(
      (text) => {
        res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' });
        res.end(req.method === 'HEAD' ? undefined : text);
      },
      () => {
        res.writeHead(500, { 'content-type': 'text/plain; charset=utf-8' });
        res.end('The metrics could not be collected.\n');
      },
    );
  });
}
