import { afterEach, describe, expect, it, vi } from 'vitest';
import { MAX_RETRY_AFTER_SECONDS, parseRetryAfter } from '../../src/kyc/contract/retry-after.ts';

describe('parseRetryAfter', () => {
  afterEach(() => vi.useRealTimers());

  it('reads delay-seconds, the first of repeated headers, and nothing from nonsense', () => {
    expect(parseRetryAfter('30')).toBe(30);
    expect(parseRetryAfter(' 7 ')).toBe(7);
    expect(parseRetryAfter(['12', '99'])).toBe(12);
    for (const value of [undefined, null, '', '  ', 'soon', []]) expect(parseRetryAfter(value)).toBeUndefined();
  });

  it('counts an HTTP date from now; a date past is no wait said', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T12:00:00Z') });
    expect(parseRetryAfter('Sun, 01 Mar 2026 12:01:30 GMT')).toBe(90);
    expect(parseRetryAfter('Sunday, 01-Mar-26 12:01:30 GMT')).toBe(90);
    expect(parseRetryAfter('Sun, 01 Mar 2026 11:00:00 GMT')).toBeUndefined();
  });

  it('attack: values V8 reads as dates of 2001 ("1.5", "-5", "120, 5") are not a wait of 0, which had a batch ask again at once', () => {
    vi.useFakeTimers({ now: Date.parse('2026-03-01T12:00:00Z') });
    expect(parseRetryAfter('1.5')).toBe(2);
    expect(parseRetryAfter('2.5')).toBe(3);
    expect(parseRetryAfter('120, 5')).toBe(120);
    expect(parseRetryAfter('30.0')).toBe(30);
    for (const value of ['-5', '0', '0.0', '1 2', '5 minutes', '2001']) {
      const read = parseRetryAfter(value);
      expect(read === undefined || read > 0, value).toBe(true);
    }
    expect(parseRetryAfter('-5')).toBeUndefined();
    expect(parseRetryAfter('0')).toBeUndefined();
  });

  it('attack: a run of 10 digits or more was no wait at all; it is the longest wait read, finite, whatever its length', () => {
    for (const value of ['9999999999', '99999999999', '99999999999.5', `${'9'.repeat(400)}, 5`, '1000000000']) {
      expect(parseRetryAfter(value), value).toBe(MAX_RETRY_AFTER_SECONDS);
    }
    expect(parseRetryAfter('999999999')).toBe(999_999_999);
    expect(parseRetryAfter('00000000000042')).toBe(42);
    // A time from now a Date holds: the page counts the wait down from it.
    expect(Number.isNaN(new Date(Date.now() + parseRetryAfter('9'.repeat(400))! * 1000).getTime())).toBe(false);
  });
});
