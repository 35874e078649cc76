import { describe, expect, it } from 'vitest';
import { formatAge } from '../../src/kyc/view/time.ts';

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;
const DAY = 24 * HOUR;

describe('formatAge, the queue’s age column', () => {
  it.each([
    [0, 'under 1 min'],
    [-5 * MINUTE, 'under 1 min'],
    [59_999, 'under 1 min'],
    [12 * MINUTE + 59_000, '12 min'],
    [5 * HOUR, '5 h'],
    [5 * HOUR + 12 * MINUTE, '5 h 12 min'],
    [DAY, '1 d'],
    [3 * DAY + 4 * HOUR + 59 * MINUTE, '3 d 4 h'],
    [40 * DAY + HOUR, '40 d 1 h'],
    [Number.NaN, 'under 1 min'],
  ])('%d ms is "%s"', (ms, text) => {
    expect(formatAge(ms)).toBe(text);
  });
});
