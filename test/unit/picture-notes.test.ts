import fc from 'fast-check';
import { afterEach, describe, expect, it } from 'vitest';
import { attributeLabel, compareCounterpart, picturesNamedIn } from '../../src/kyc/view/attributes.ts';
import { countPatterns } from '../support/count-patterns.ts';

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

/** As picturesNamedIn read notes with a pattern per phrase per note: what it must still find, on any input. */
function namedWithPatterns(notes: readonly string[], names: readonly string[]): string[] {
  const phrasesOf = (name: string) => [
    ...new Set([attributeLabel(name), name, name.replace(/_/g, ' ')].map((phrase) => phrase.toLowerCase())),
  ];
  const phrases = names
    .flatMap((name) => phrasesOf(name).map((phrase) => ({ name, phrase })))
    .sort((a, b) => b.phrase.length - a.phrase.length);
  const named = new Set<string>();
  for (const note of notes) {
    let text = note.toLowerCase();
    for (const { name, phrase } of phrases) {
      const words = new RegExp(`(?<![\\p{L}\\p{N}_])${phrase.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\p{L}\\p{N}_])`, 'gu');
      const rest = text.replace(words, ' ');
      if (rest !== text) named.add(name);
      text = rest;
    }
  }
  return names.filter((name) => named.has(name));
}

describe('picturesNamedIn, at scale and on any text', () => {
  let patterns: ReturnType<typeof countPatterns> | undefined;
  afterEach(() => patterns?.stop());

  it('attack: 5,000 picture attributes with a text note are read without a regex per picture per phrase', () => {
    const names = Array.from({ length: 5000 }, (_, i) => (i % 2 ? `pic${i}` : `picture_${i}`));
    const note = 'Document check flagged the picture 4998 and pic4999: compare them with the selfie.';
    patterns = countPatterns();
    expect(picturesNamedIn([note], names)).toEqual(['picture_4998', 'pic4999']);
    // Before: 7,500 patterns (one for each of a picture's phrases) for one note, and 2 to 7 s here.
    expect(patterns.count()).toBe(0);
  });

  it('attack: pictures named by underscores alone do not put a space between words once per picture', () => {
    // Each such name's label is empty, read between words: each pass put a space there, making one place more, and
    // 64 of them doubled the note 64 times (out of memory).
    const names = Array.from({ length: 64 }, (_, i) => '_'.repeat(i + 1));
    expect(picturesNamedIn(['Checked, see above.'], names)).toEqual(names);
    expect(picturesNamedIn(['Checked'], names)).toEqual([]);
  });

  // Characters where a pattern of code points and a search of text could differ: pattern characters, `_`,
  // letters in other scripts, one whose lower case is longer, surrogates alone and in a pair, a direction control.
  const unit = fc.constantFrom(...'abx1_  -.(+*$éİS\u202e\ud83d\ude00'.split(''), '😀');
  const anyName = fc.oneof(fc.constantFrom(...PICTURES, ''), fc.string({ unit, maxLength: 6 }));
  const namesAndNotes = fc.uniqueArray(anyName, { maxLength: 8 }).chain((names) => {
    const said = names.flatMap((name) => [name, name.replace(/_/g, ' '), attributeLabel(name), name.toUpperCase()]);
    const piece = fc.oneof(fc.constantFrom(...said, ' ', '_', 'x'), fc.string({ unit, maxLength: 4 }));
    const note = fc.array(piece, { maxLength: 10 }).map((pieces) => pieces.join(''));
    return fc.tuple(fc.constant(names), fc.array(note, { maxLength: 3 }));
  });

  it('property: finds exactly the pictures the pattern per phrase found, in the same order', () => {
    fc.assert(
      fc.property(namesAndNotes, ([names, notes]) => {
        expect(picturesNamedIn(notes, names)).toEqual(namedWithPatterns(notes, names));
      }),
      {
        numRuns: 1000,
        // A longer name taken out can leave a shorter one standing as words: "x   y" in what is left of "x selfie y".
        examples: [[[['selfie', 'x   y'], ['x selfie y']]], [[['x.', 'selfie'], ['x.selfie']]], [[['_', 'selfie'], ['_😀d']]]],
      },
    );
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
