import { readFileSync } from 'node:fs';
import type http from 'node:http';
import net from 'node:net';
import { addressMatcher } from './cidr.ts';
import { ConnectionTable } from './connection-table.ts';

/**
 * What one client, or many, may hold of the server before anyone is signed in (issue 31). Node's own
 * deadlines end a request whose headers, or whose whole body, take too long (its defaults: 60 s and
 * 300 s). A connection on which nobody has signed in yet (a webhook, the sign-in form, a static file,
 * a probe, or an attacker's slow request) counts against two caps: one per client address, above which
 * a new connection is closed at once, and one for every address together, kept well below the process's
 * open-file limit, above which a connection makes room for the new one: the oldest of the address that
 * holds the most (connection-table.ts). So a flood from one address, or from many, can never take every
 * file descriptor, a new connection (the health checker's, a user's) always gets in, and it is not closed
 * before its request is read while any address holds more connections than it. A connection leaves both
 * caps once a request on it is signed in: a user's long lookups and live update streams are bounded by
 * their own per-user limits.
 *
 * The address is the connection's. A reverse proxy in TRUSTED_PROXIES carries many browsers on its
 * connections: it is not capped per address (its own limits apply there, e.g. nginx's limit_conn), only
 * counted with everyone.
 */
export interface ConnectionLimits {
  /** Node's headersTimeout: every header of a request within this (10 s). */
  headersTimeoutMs: number;
  /** Node's requestTimeout: a whole request, its body included, within this (30 s). */
  requestTimeoutMs: number;
  /** Connections not signed in from one address (an IPv6 /64); 0: no cap (256). */
  perAddress: number;
  /** Connections not signed in from all addresses; 0: no cap; undefined: half the open-file limit, at most 10 000. */
  anonymous?: number;
}

export const DEFAULT_CONNECTION_LIMITS = { headersTimeoutMs: 10_000, requestTimeoutMs: 30_000, perAddress: 256 } as const;

/**
 * A request body is read within this: a webhook delivery's, at most 64 kB sent by a service that has it
 * ready (webhook-receiver.ts), and an API request's JSON (request-body.ts's readJsonBody: a batch, at most
 * 1 MiB sent by a browser that has it ready). A body trickled in holds its connection, and Node's own
 * deadline for the whole request is too long to stop a signed-in user holding thousands that way.
 */
export const DEFAULT_BODY_TIMEOUT_MS = 5000;

/** At most this many, however high the open-file limit: each costs memory, and real traffic is signed in. */
const MAX_DEFAULT_ANONYMOUS = 10_000;

/** Node's options for the deadlines, looked at often enough to hold them within a second (Node's default: every 30 s). */
export function deadlineOptions(limits: ConnectionLimits): http.ServerOptions {
  return {
    headersTimeout: limits.headersTimeoutMs,
    requestTimeout: limits.requestTimeoutMs,
    connectionsCheckingInterval: Math.max(25, Math.min(1000, Math.floor(limits.headersTimeoutMs / 4))),
  };
}

/** Half the process's open-file limit (Linux: /proc/self/limits), at most 10 000; 4096 where it cannot be read. */
export function defaultAnonymousConnections(read: () => string | undefined = readLimits): number {
  const soft = /^Max open files\s+(\d+|unlimited)/m.exec(read() ?? '')?.[1];
  if (soft === undefined) return 4096;
  if (soft === 'unlimited') return MAX_DEFAULT_ANONYMOUS;
  return Math.max(1, Math.min(MAX_DEFAULT_ANONYMOUS, Math.floor(Number(soft) / 2)));
}

function readLimits(): string | undefined {
  try {
    return readFileSync('/proc/self/limits', 'utf8');
  } catch {
    return undefined;
  }
}

/** What a connection counts as: its IPv4 address, or its IPv6 /64 (one host holds a whole /64). */
export function addressKey(address: string): string {
  const plain = address.replace(/^::ffff:(?=\d+\.\d+\.\d+\.\d+$)/i, '').replace(/%.*$/, '');
  if (net.isIPv4(plain) || !net.isIPv6(plain) || plain.includes('.')) return plain;
  const [head = '', tail] = plain.toLowerCase().split('::') as [string, string | undefined];
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const groups = tail === undefined ? left : [...left, ...Array(8 - left.length - right.length).fill('0'), ...right];
  return `${groups
    .slice(0, 4)
    .map((group) => group.replace(/^0+(?=.)/, ''))
    .join(':')}::/64`;
}

type Refusal = 'per_address' | 'evicted';

/** Sockets the guard counts, and how it lets one go once signed in. */
const releases = new WeakMap<net.Socket, () => void>();

/** A request on this connection was signed in: it leaves the caps (a no-op for a server without a guard). */
export function noteSignedIn(req: http.IncomingMessage): void {
  releases.get(req.socket)?.();
}

/**
 * The two metrics the caps feed (ops/metrics.ts's gauge and counter of the same names), by their shape:
 * http/ sits below ops/, which answers its probes with http/'s replies.
 */
export interface ConnectionMetrics {
  anonymousConnections: { set(value: number): void };
  connectionsRefused: { inc(labels: { reason: Refusal }): void };
}

/** Puts the caps on `server`'s connections (the deadlines are deadlineOptions', given when it is made). */
export function guardConnections(
  server: http.Server,
  limits: ConnectionLimits,
  options: { trustedProxies?: readonly string[]; metrics?: ConnectionMetrics } = {},
): void {
  const anonymousCap = limits.anonymous ?? defaultAnonymousConnections();
  const trusted = addressMatcher([...(options.trustedProxies ?? [])]);
  const table = new ConnectionTable<net.Socket>();
  const gauge = () => options.metrics?.anonymousConnections.set(table.size);
  const refused = (reason: Refusal) => options.metrics?.connectionsRefused.inc({ reason });

  const release = (socket: net.Socket) => {
    releases.delete(socket);
    table.remove(socket);
    gauge();
  };
  // The oldest connection of the address holding the most, waiting ones first (connection-table.ts).
  const makeRoom = () => {
    const victim = table.victim();
    if (!victim) return;
    release(victim);
    refused('evicted');
    victim.destroy();
  };

  server.on('connection', (socket: net.Socket) => {
    const address = socket.remoteAddress;
    if (address === undefined) return;
    const key = addressKey(address);
    const capped = !trusted(address);
    if (capped && limits.perAddress > 0 && table.count(key) >= limits.perAddress) {
      refused('per_address');
      return void socket.destroy();
    }
    if (anonymousCap > 0 && table.size >= anonymousCap) makeRoom();
    table.add(socket, capped ? key : undefined);
    releases.set(socket, () => release(socket));
    socket.once('close', () => release(socket));
    gauge();
  });
  // A request under way makes room only after those waiting; once answered, the connection waits again, the newest.
  server.on('request', (req: http.IncomingMessage, res: http.ServerResponse) => {
    const socket = req.socket;
    table.busy(socket);
    res.once('close', () => table.idle(socket));
  });
}
