import { describe, expect, it } from 'vitest';
import { compareCounterpart, picturesNamedIn } from '../../src/kyc/view/attributes.ts';

const PICTURES = ['selfie', 'passport', 'national_id', 'driving_license', 'selfie_national_id', 'proof_of_address'];

describe('picturesNamedIn', () => {
  it('finds a picture by its label, its name or its name in words, as whole words, in the order of the pictures', () => {
    expect(picturesNamedIn(['Document check flagged the national ID photo: compare it with the selfie.'], PICTURES)).toEqual([
      'selfie',
      'national_id',
    ]);
    expect(picturesNamedIn(['see driving_license', 'The PASSPORT is blurred'], PICTURES)).toEqual(['passport', 'driving_license']);
    expect(picturesNamedIn(['Driving license expired'], PICTURES)).toEqual(['driving_license']);
    expect(picturesNamedIn(['passports and selfies are not names; nor is selfie_x'], PICTURES)).toEqual([]);
  });

  it('reads "selfie with national ID" as that picture alone, not the selfie and the national ID', () => {
    expect(picturesNamedIn(['The selfie with national ID is dark.'], PICTURES)).toEqual(['selfie_national_id']);
  });

  it('attack: a picture name holding pattern characters is read as text, and a long note of its letters is still read', () => {
    const names = ['(a+)+$', 'x.*', 'passport'];
    expect(picturesNamedIn([`${'a'.repeat(50_000)}!`, 'xyz'], names)).toEqual([]);
    expect(picturesNamedIn(['see (a+)+$ and x.*'], names)).toEqual(['(a+)+$', 'x.*']);
  });
});

describe('compareCounterpart', () => {
  it('holds the selfie against a document, the first document against the selfie or another picture, a noted one first', () => {
    expect(compareCounterpart(PICTURES, 0)).toBe(1);
    expect(compareCounterpart(PICTURES, 3)).toBe(0);
    expect(compareCounterpart(PICTURES, 5)).toBe(1);
    expect(compareCounterpart(PICTURES, 0, ['national_id'])).toBe(2);
    expect(compareCounterpart(PICTURES, 2, ['national_id', 'selfie'])).toBe(0);
    expect(compareCounterpart(['passport', 'proof_of_address'], 0)).toBe(1);
    expect(compareCounterpart(['selfie'], 0)).toBeUndefined();
  });
});
