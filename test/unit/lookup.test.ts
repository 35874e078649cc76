import { describe, expect, it } from 'vitest';
import { checkId, decodeIdSegment, encodeIdSegment, MAX_ID_LENGTH } from '../../src/kyc/contract/lookup.ts';

describe('checkId', () => {
  it('accepts ids as given, without trimming', () => {
    expect(checkId(' padded ')).toEqual({ ok: true, id: ' padded ' });
    expect(checkId('张伟/?#')).toEqual({ ok: true, id: '张伟/?#' });
    expect(checkId('x'.repeat(MAX_ID_LENGTH)).ok).toBe(true);
    expect(checkId('🙂'.repeat(MAX_ID_LENGTH)).ok).toBe(true); // counted in characters, not UTF-16 units
  });

  it.each([
    ['', /empty/],
    ['  ', /empty/],
    ['x'.repeat(MAX_ID_LENGTH + 1), /too long/],
    ['a\nb', /control character/],
    ['a\u0000', /control character/],
    ['a\u009b', /control character/],
    ['a\u2029', /control character/],
    ['a\ud800b', /invalid character/],
    ['.', /not a valid id/],
    ['..', /not a valid id/],
  ])('refuses %j', (id, message) => {
    const check = checkId(id);
    expect(check.ok).toBe(false);
    if (!check.ok) expect(check.message).toMatch(message);
  });
});

describe('encodeIdSegment', () => {
  it('makes one path segment that decodes back to the id', () => {
    for (const id of ['a/b', '../x', '?q=1', '#h', '%2F', 'é 中']) {
      const segment = encodeIdSegment(id);
      expect(segment).toMatch(/^(?:[A-Za-z0-9\-_.!~*'()]|%[0-9A-F]{2})+$/);
      expect(segment).not.toContain('/');
      expect(decodeURIComponent(segment)).toBe(id);
    }
  });
});

describe('decodeIdSegment', () => {
  it('decodes one segment, and says why it cannot otherwise', () => {
    expect(decodeIdSegment('a%2Fb%20%C3%A9')).toEqual({ ok: true, id: 'a/b é' });
    expect(decodeIdSegment('')).toEqual({ ok: true, id: '' });
    expect(decodeIdSegment('a/b')).toEqual({ ok: false, problem: 'not_one_segment' });
    expect(decodeIdSegment('100%')).toEqual({ ok: false, problem: 'bad_encoding' });
    expect(decodeIdSegment('%C3')).toEqual({ ok: false, problem: 'bad_encoding' });
  });
});
