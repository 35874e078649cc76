import { afterEach, describe, expect, it, vi } from 'vitest';
import { parseRetryAfter } from '../../src/kyc/contract/retry-after.ts';

describe('parseRetryAfter', () => {
  afterEach(() => vi.useRealTimers());

  it('reads delay-seconds, the first of repeated headers, and nothing from nonsense', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(' 7 ')).toBe(7);
    expect(parseRetryAfter(['12', '99'])).toBe(12);
    for (const value of [undefined, null, '', '  ', 'soon', []]) expect(parseRetryAfter(value)).toBeUndefined();
  });

  it('counts an HTTP date from now, and never below zero', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T12:00:00Z') });
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT')).toBe(90);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT')).toBe(0);
  });
});
