import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatBytes } from '../../src/kyc/contract/bytes.ts';

const UNIT = { B: 1, kB: 1024, MB: 1024 * 1024, GB: 1024 * 1024 * 1024 } as const;

describe('formatBytes', () => {
  it('writes a limit as a reader would: "20 kB", "64 MB", "256 MB", never "<1 MB" or "256.0 MB"', () => {
    expect(formatBytes(20_000)).toBe('20 kB');
    expect(formatBytes(64 * 1024 * 1024)).toBe('64 MB');
    expect(formatBytes(256 * 1024 * 1024)).toBe('256 MB');
    expect(formatBytes(1024)).toBe('1 kB');
    expect(formatBytes(1024 * 1024 - 1)).toBe('1 MB');
    expect(formatBytes(1536)).toBe('1.5 kB');
    // The late review: "1024 MB" for a 1 GiB limit, and "NaN MB".
    expect(formatBytes(1024 ** 3)).toBe('1 GB');
    expect(formatBytes(1024 ** 3 - 1)).toBe('1 GB');
    expect(formatBytes(Number.NaN)).toBe('an unknown size');
    expect(formatBytes(Number.POSITIVE_INFINITY)).toBe('an unknown size');
    expect(formatBytes(-2048)).toBe('an unknown size');
  });

  it('property: B, kB or MB, at most one decimal and never ".0", below 1024 of its unit unless in MB, and within rounding of the size', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 42 }), (bytes) => {
        const said = formatBytes(bytes);
        const match = /^(\d+)(?:\.([1-9]))? (B|kB|MB|GB)$/.exec(said);
        expect(match, said).not.toBeNull();
        const [, whole, tenth, unit] = match!;
        const number = Number(`${whole}.${tenth ?? 0}`);
        if (unit !== 'GB') expect(number, said).toBeLessThan(1024);
        if (unit === 'B') expect(number).toBe(bytes);
        // Rounded to its last digit shown: a tenth of the unit below 10, a whole unit from 10 on.
        const step = unit === 'B' ? 0 : number < 10 || tenth !== undefined || unit === 'MB' || unit === 'GB' ? 0.05 : 0.5;
        expect(Math.abs(bytes / UNIT[unit as keyof typeof UNIT] - number), said).toBeLessThanOrEqual(step + 1e-9);
      }),
    );
  });
});
