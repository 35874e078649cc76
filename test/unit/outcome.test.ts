import { describe, expect, it } from 'vitest';
import { OUTCOME_TONES, outcomeTone, worstTone } from '../../src/kyc/view/outcome.ts';

describe('outcome tones', () => {
  it.each([
    ['clear', 'positive'],
    ['no_match', 'positive'],
    ['approved', 'positive'],
    ['consider', 'caution'],
    ['potential_match', 'caution'],
    ['caution', 'caution'],
    ['rejected', 'negative'],
    ['match', 'negative'],
    ['true_positive', 'negative'],
    ['suspected', 'negative'],
  ] as const)('%s is %s', (value, tone) => {
    expect(outcomeTone(value)).toBe(tone);
    expect(outcomeTone(` ${value.toUpperCase()} `)).toBe(tone);
  });

  it('has a test above for every value in the table', () => {
    expect(Object.keys(OUTCOME_TONES).sort()).toEqual(
      ['clear', 'no_match', 'approved', 'consider', 'potential_match', 'caution', 'rejected', 'match', 'true_positive', 'suspected'].sort(),
    );
  });

  it.each(['unidentified', 'pending', '', 'clear-ish', 'toString', '__proto__'])('%j is unknown, so neutral', (value) => {
    expect(outcomeTone(value)).toBe('neutral');
  });

  it('takes the worst of several', () => {
    expect(worstTone(['positive', 'caution', 'positive'])).toBe('caution');
    expect(worstTone(['positive', 'negative', 'caution'])).toBe('negative');
    expect(worstTone(['positive'])).toBe('positive');
    expect(worstTone([])).toBe('neutral');
  });
});
