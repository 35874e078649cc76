import type http from 'node:http';
import net from 'node:net';
import { addressMatcher } from './cidr.ts';

/**
 * Where a request comes from, as far as this server may believe it. Behind a reverse proxy every
 * connection comes from the proxy: only a proxy in TRUSTED_PROXIES may say who its client is
 * (X-Forwarded-For) and whether the browser used https (X-Forwarded-Proto). Anyone else could say
 * anything, so from anyone else these headers are ignored.
 */
export interface Client {
  /** The browser's address: the connection's, or behind trusted proxies the nearest hop they did not add. */
  address: string;
  /** The browser reached us over https: the connection is TLS, or a trusted proxy's X-Forwarded-Proto says so. */
  https: boolean;
}

export type ClientResolver = (req: http.IncomingMessage) => Client;

export function createClientResolver(trustedProxies: readonly string[]): ClientResolver {
  const trusted = addressMatcher([...trustedProxies]);
  return (req) => {
    const peer = req.socket.remoteAddress ?? '';
    const tls = Boolean((req.socket as { encrypted?: boolean }).encrypted);
    if (trustedProxies.length === 0 || !trusted(peer)) return { address: peer, https: tls };
    return { address: forwardedFor(req.headers['x-forwarded-for'], peer, trusted), https: tls || forwardedHttps(req) };
  };
}

/**
 * X-Forwarded-For is a list each proxy appends its client to: read from the right, the first address
 * that is not one of our proxies is the browser's (anything left of it was written by the browser, and
 * proves nothing). When every hop is trusted, the leftmost is the client; an entry that is not an
 * address ends the walk at the proxy that reported it.
 */
function forwardedFor(header: string | string[] | undefined, peer: string, trusted: (address: string) => boolean): string {
  const hops = (Array.isArray(header) ? header.join(',') : (header ?? '')).split(',').map((hop) => hop.trim());
  let client = peer;
  for (let index = hops.length - 1; index >= 0; index--) {
    const address = plainAddress(hops[index]!);
    if (!address) break;
    client = address;
    if (!trusted(address)) break;
  }
  return client;
}

/** The protocol the browser used, as the first proxy saw it: the first value of the list. */
function forwardedHttps(req: http.IncomingMessage): boolean {
  const header = req.headers['x-forwarded-proto'];
  const first = (Array.isArray(header) ? header[0] : header)?.split(',')[0]?.trim().toLowerCase();
  return first === 'https';
}

/** `203.0.113.7`, `2001:db8::1`, also with a port (`203.0.113.7:51234`, `[2001:db8::1]:443`), as some proxies write them. */
function plainAddress(hop: string): string | undefined {
  if (net.isIP(hop)) return hop;
  const withPort = /^\[([^\]]+)\](?::\d+)?$/.exec(hop) ?? /^(\d+\.\d+\.\d+\.\d+):\d+$/.exec(hop);
  return withPort && net.isIP(withPort[1]!) ? withPort[1] : undefined;
}

const resolved = new WeakMap<http.IncomingMessage, Client>();

/** Settles, once per request and before anything reads it, where the request comes from. */
export function noteClient(req: http.IncomingMessage, resolve: ClientResolver): Client {
  let client = resolved.get(req);
  if (!client) {
    client = resolve(req);
    resolved.set(req, client);
  }
  return client;
}

/** Where the request comes from: as noted by the API handler, else as the connection says (no proxy believed). */
export function clientOf(req: http.IncomingMessage): Client {
  return (
    resolved.get(req) ?? { address: req.socket.remoteAddress ?? '', https: Boolean((req.socket as { encrypted?: boolean }).encrypted) }
  );
}
