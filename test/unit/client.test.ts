import type http from 'node:http';
import { describe, expect, it } from 'vitest';
import { createClientResolver } from '../../src/server/http/client.ts';

/** A request as the resolver sees it: the connection's address and the headers. */
const request = (remoteAddress: string, headers: http.IncomingHttpHeaders = {}) =>
  ({ socket: { remoteAddress }, headers }) as unknown as http.IncomingMessage;

describe('where a request comes from (TRUSTED_PROXIES)', () => {
  const resolve = createClientResolver(['10.0.0.0/8', '127.0.0.1/32']);

  it('believes X-Forwarded-For only from a trusted proxy, and only the hops it added', () => {
    // A browser that writes its own X-Forwarded-For, straight to the server: its own address counts.
    expect(resolve(request('203.0.113.7', { 'x-forwarded-for': '198.51.100.1' })).address).toBe('203.0.113.7');
    // Through one proxy: the hop it added.
    expect(resolve(request('10.0.0.2', { 'x-forwarded-for': '203.0.113.7' })).address).toBe('203.0.113.7');
    // The browser prepended a forged hop; the proxy appended the real one: read from the right.
    expect(resolve(request('10.0.0.2', { 'x-forwarded-for': '198.51.100.1, 203.0.113.7' })).address).toBe('203.0.113.7');
    // Two trusted proxies in a row.
    expect(resolve(request('127.0.0.1', { 'x-forwarded-for': '203.0.113.7, 10.1.2.3' })).address).toBe('203.0.113.7');
    // IPv4-mapped connection addresses are matched as IPv4.
    expect(resolve(request('::ffff:10.0.0.2', { 'x-forwarded-for': '203.0.113.7' })).address).toBe('203.0.113.7');
  });

  it('reads addresses written with ports, and stops at anything that is not an address', () => {
    expect(resolve(request('10.0.0.2', { 'x-forwarded-for': '203.0.113.7:51234' })).address).toBe('203.0.113.7');
    expect(resolve(request('10.0.0.2', { 'x-forwarded-for': '[2001:db8::1]:443' })).address).toBe('2001:db8::1');
    expect(resolve(request('10.0.0.2', { 'x-forwarded-for': 'unknown' })).address).toBe('10.0.0.2');
    expect(resolve(request('10.0.0.2', { 'x-forwarded-for': 'evil, 10.9.9.9' })).address).toBe('10.9.9.9');
    expect(resolve(request('10.0.0.2')).address).toBe('10.0.0.2');
  });

  it('takes https from the first value of a trusted X-Forwarded-Proto only', () => {
    expect(resolve(request('10.0.0.2', { 'x-forwarded-proto': 'https' })).https).toBe(true);
    expect(resolve(request('10.0.0.2', { 'x-forwarded-proto': 'http, https' })).https).toBe(false);
    expect(resolve(request('10.0.0.2', { 'x-forwarded-proto': 'https,http' })).https).toBe(true);
    expect(resolve(request('203.0.113.7', { 'x-forwarded-proto': 'https' })).https).toBe(false);
    expect(createClientResolver([])(request('127.0.0.1', { 'x-forwarded-proto': 'https' })).https).toBe(false);
  });
});
