import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { withoutMarks } from '../../src/app/candidate/id-marks.ts';
import { readOneId } from '../../src/kyc/view/id-label.ts';
import { readEntry } from '../../src/kyc/view/id-list.ts';
import { marksInWords, splitMarks } from '../../src/kyc/view/sentence-marks.ts';

/** The marks splitMarks takes before and after an id. */
const LEAD = [...'("\'#<[{\u201c\u201e\u2018\u00ab\u2039'];
const TAIL = [...')"\'>].,;:!?}\u201d\u2019\u00bb\u203a'];

describe('a sentence\'s marks dropped from around a pasted id, said in words (UX review: `the "\'" before it and the "\'," after it`)', () => {
  it.each([
    ["'user-7781',", 'the quotes around it and the comma after it'],
    ['cust_000482.', 'the full stop after it'],
    ['#user-7781', 'the hash before it'],
    ['(cust_000482),', 'the brackets around it and the comma after it'],
    ['("cust_1")', 'the quotes and brackets around it'],
    ['cust_1...', 'the three full stops after it'],
    ['#(cust_1', 'the hash and bracket before it'],
    ['\u201ccust_1\u201d!', 'the quotes around it and the exclamation mark after it'],
  ])('the search box reads %j and says what went: %j', (pasted, words) => {
    expect(readOneId(pasted).removed).toBe(words);
  });

  it('one wording for the search box, a batch line and the not-found screen', () => {
    expect(readEntry("'user-7781',", true).marks).toBe('the quotes around it and the comma after it');
    expect(withoutMarks("'user-7781',")).toEqual({ id: 'user-7781', marks: 'the quotes around it and the comma after it' });
  });

  it('a character without a name is set apart, not put between straight quotes', () => {
    expect(marksInWords('~', ',')).toBe('the \u2039~\u203a before it and the comma after it');
    expect(marksInWords('', '^^')).toBe('the \u2039^^\u203a after it');
  });

  it('names every mark in words, whatever the marks around the id: no mark of the sentence stands bare in the note', () => {
    const marks = (pool: string[]) => fc.array(fc.constantFrom(...pool), { maxLength: 6 }).map((chars) => chars.join(''));
    fc.assert(
      fc.property(marks(LEAD), marks(TAIL), (lead, tail) => {
        const split = splitMarks(`${lead}cust_1${tail}`);
        fc.pre(split.lead !== '' || split.tail !== '');
        const words = marksInWords(split.lead, split.tail);
        // Every character of it is a letter, a count, a space or a comma between names: no mark left as it was pasted.
        expect(words).toMatch(/^the [a-z0-9 ,]+ (before|around|after) it$/);
        // The same words wherever the id is read.
        expect(withoutMarks(`${lead}cust_1${tail}`)?.marks).toBe(words);
        // (A batch line takes a pair of quotes off first, and says so apart: then its marks are the rest.)
        const entry = readEntry(`${lead}cust_1${tail}`, true);
        if (!entry.unquoted) expect(entry.marks).toBe(words);
      }),
      { numRuns: 1000 },
    );
  });
});

describe('a closing bracket the id itself opened stays with it, of every kind (UI review: `abc/def<>` was looked up as `abc/def<`)', () => {
  it('keeps `<>`, `()`, `[]` and `{}` that the id opened, and drops the one it did not', () => {
    expect(splitMarks('abc/def<>')).toEqual({ lead: '', bare: 'abc/def<>', tail: '' });
    expect(splitMarks('<cust_1>,')).toEqual({ lead: '<', bare: 'cust_1', tail: '>,' });
    expect(splitMarks('cust<1>>.')).toEqual({ lead: '', bare: 'cust<1>', tail: '>.' });
  });

  it('whatever the id and the marks after it: the id keeps as many closing brackets of a kind as it opened, never one it did not', () => {
    const PAIRS = [
      ['(', ')'],
      ['[', ']'],
      ['{', '}'],
      ['<', '>'],
    ] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...PAIRS),
        fc.stringMatching(/^[a-z0-9_-]{1,8}$/),
        fc.integer({ min: 0, max: 3 }),
        fc.integer({ min: 0, max: 3 }),
        fc.array(fc.constantFrom(...TAIL), { maxLength: 4 }).map((chars) => chars.join('')),
        ([open, close], id, opens, closes, after) => {
          fc.pre(!after.startsWith(close));
          const typed = `${id}${open.repeat(opens)}${close.repeat(closes)}${after}`;
          const { bare } = splitMarks(typed);
          // The id keeps every bracket it opened and the closing ones that match them, none beyond.
          const kept = Math.min(opens, closes);
          expect(bare).toBe(`${id}${open.repeat(opens)}${close.repeat(kept)}`);
        },
      ),
      { numRuns: 2000 },
    );
  });
});
