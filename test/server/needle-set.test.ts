import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { NeedleSet } from '../../src/server/answer/needle-set.ts';

/** Letters from a small alphabet, so that needles and haystacks share many groups of four and near misses. */
const letters = (min: number, max: number) =>
  fc.array(fc.constantFrom(0x41, 0x42, 0x43, 0x2f), { minLength: min, maxLength: max }).map((bytes) => Buffer.from(bytes));

describe('the one-pass search of many needles (needle-set.ts)', () => {
  it('answers as Buffer.includes of each needle would, for any needles and any haystack, planted or not', () => {
    fc.assert(
      fc.property(
        fc.array(letters(1, 40), { minLength: 1, maxLength: 12 }),
        letters(0, 400),
        fc.nat(),
        fc.nat(),
        fc.boolean(),
        (needles, hay, which, at, plant) => {
          let haystack = hay;
          if (plant) {
            const needle = needles[which % needles.length]!;
            const offset = at % (hay.length + 1);
            haystack = Buffer.concat([hay.subarray(0, offset), needle, hay.subarray(offset)]);
          }
          const expected = needles.some((needle) => haystack.includes(needle));
          expect(new NeedleSet(needles).in(haystack)).toBe(expected);
          if (plant) expect(expected).toBe(true);
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('answers alike wherever the haystack starts in memory (the samples are read as aligned words)', () => {
    fc.assert(
      fc.property(
        fc.array(letters(8, 40), { minLength: 1, maxLength: 6 }),
        letters(0, 300),
        fc.nat(7),
        fc.nat(),
        fc.nat(),
        (needles, hay, shift, which, at) => {
          const needle = needles[which % needles.length]!;
          const offset = at % (hay.length + 1);
          const planted = Buffer.concat([hay.subarray(0, offset), needle, hay.subarray(offset)]);
          for (const haystack of [hay, planted]) {
            const shifted = Buffer.alloc(haystack.length + shift).subarray(shift);
            haystack.copy(shifted);
            expect(new NeedleSet(needles).in(shifted)).toBe(needles.some((one) => haystack.includes(one)));
          }
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('finds a key of any length from eight bytes at every offset of a megabyte of base64, and nothing in one without it', () => {
    const hay = Buffer.from(Buffer.alloc(1 << 20, 0x5a).toString('base64'));
    const clean = new NeedleSet([Buffer.from('sandbox-key-full-access'), Buffer.from('c2FuZGJveC1rZXk')]);
    expect(clean.in(hay)).toBe(false);
    for (let length = 8; length <= 64; length += 7) {
      const needle = Buffer.from('k3y/'.repeat(16).slice(0, length));
      const set = new NeedleSet([needle, Buffer.from('another-needle-of-forty-bytes-long-000000')]);
      for (let offset = hay.length - 3 * length; offset <= hay.length - length; offset++) {
        const planted = Buffer.from(hay);
        needle.copy(planted, offset);
        expect(set.in(planted)).toBe(true);
      }
      const early = Buffer.from(hay);
      needle.copy(early, 0);
      expect(set.in(early)).toBe(true);
    }
  });

  it('finds nothing when it has no needles, and a needle of any length across the whole buffer', () => {
    expect(new NeedleSet([]).in(Buffer.from('anything'))).toBe(false);
    expect(new NeedleSet([Buffer.from('exactly-this')]).in(Buffer.from('exactly-this'))).toBe(true);
    expect(new NeedleSet([Buffer.from('ab')]).in(Buffer.from('xxab'))).toBe(true);
  });
});
