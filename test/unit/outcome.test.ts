import { describe, expect, it } from 'vitest';
import { KNOWN_OUTCOMES, outcomeTone, worstOutcome } from '../../src/kyc/contract/outcome.ts';

const TONES = {
  clear: 'positive',
  no_match: 'positive',
  approved: 'positive',
  passed: 'positive',
  false_positive: 'positive',
  consider: 'caution',
  potential_match: 'caution',
  caution: 'caution',
  // This tool's word for a pass read from a certificate that does not parse (certificate-triage.ts).
  unconfirmed: 'caution',
  // This tool's word for a certificate that states no known result (certificate-text.ts).
  unreadable: 'caution',
  rejected: 'negative',
  declined: 'negative',
  failed: 'negative',
  match: 'negative',
  true_positive: 'negative',
  suspected: 'negative',
} as const;

describe('outcome tones', () => {
  it.each(Object.entries(TONES))('%s is %s, in any case, separator style or surrounding spaces', (value, tone) => {
    expect(outcomeTone(value)).toBe(tone);
    expect(outcomeTone(` ${value.toUpperCase()} `)).toBe(tone);
    expect(outcomeTone(value.replace(/_/g, ' '))).toBe(tone);
    expect(outcomeTone(value.replace(/_(\w)/g, (_, letter: string) => letter.toUpperCase()))).toBe(tone);
  });

  it('has a test above for every value in the table', () => {
    expect(Object.keys(KNOWN_OUTCOMES).sort()).toEqual(Object.keys(TONES).sort());
  });

  it('reads false_positive as not a hit: a screening hit a reviewer dismissed', () => {
    expect(KNOWN_OUTCOMES.false_positive).toMatchObject({ tone: 'positive', meaning: expect.stringMatching(/^Not a hit/) });
  });

  it.each(['unidentified', 'pending', '', 'clear-ish', 'toString', '__proto__', 'constructor'])('%j is unknown, so neutral', (value) => {
    expect(outcomeTone(value)).toBe('neutral');
  });

  it('takes the worst of several words, the same whatever their order', () => {
    expect(worstOutcome(['clear', 'potential_match', 'no_match'])).toBe('potential_match');
    expect(worstOutcome(['consider', 'Potential Match'])).toBe('Potential Match');
    expect(worstOutcome(['potential_match', 'match'])).toBe('match');
    expect(worstOutcome(['true_positive', 'match'])).toBe(worstOutcome(['match', 'true_positive']));
    expect(worstOutcome(['pending', 'done'])).toBeUndefined();
    expect(worstOutcome(['false_positive', 'no_match'])).toBe('false_positive');
    // A pass not confirmed by its certificate is worse than any pass, and better than any caution a provider states.
    expect(worstOutcome(['clear', 'unconfirmed', 'false_positive'])).toBe('unconfirmed');
    expect(worstOutcome(['unconfirmed', 'caution'])).toBe('caution');
  });
});
