import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { readOneId, unlabelList } from '../../src/kyc/view/id-label.ts';
import { splitIdList } from '../../src/kyc/view/id-list.ts';
import { anyString } from '../support/any-code-point.ts';

/** The id a batch reads from `line`, as the batch page reads its box (splitIdList, then unlabelList), or '' where it reads none. */
const batchLineId = (line: string) => unlabelList(splitIdList(`${line}\n`, undefined, true)).entries.find((e) => e.line === 1)?.id ?? '';

/** Lines built of what tickets, mail and spreadsheets put around an id. */
const ticketLine = fc
  .array(
    fc.constantFrom(
      'cust_000482',
      '65f1c2a9e4b0d3a1f0c9b801',
      'refId: ',
      'RefID ',
      'Customer ',
      '42',
      '#',
      '.',
      ',',
      ';',
      ':',
      '!',
      '?',
      '"',
      "'",
      '(',
      ')',
      '[',
      ']',
      '<',
      '>',
      '\u201c',
      '\u201d',
      '\u00ab',
      '\u00bb',
      ' ',
      '\t',
      '\u200b',
      '\u00a0',
      '/',
      '@',
      'a',
    ),
    { maxLength: 12 },
  )
  .map((parts) => parts.join(''));

describe('one id read: the search box and a batch line alike', () => {
  it("the single id read and the batch's line read agree for any input", () => {
    // Before: the box kept `cust_000482.` whole (and looked it up with its dot, a miss) where the batch's
    // line dropped the dot; quotes, a `(…)`, a label were each read by a rule of their own.
    const line = fc.oneof(ticketLine, anyString(40), fc.string({ unit: 'grapheme', maxLength: 40 })).filter((text) => !/[\r\n]/.test(text));
    fc.assert(
      fc.property(line, (text) => {
        expect(readOneId(text).id).toBe(batchLineId(text));
      }),
      { numRuns: 2000 },
    );
  });

  it.each([
    ['cust_000482.', 'cust_000482', 'the full stop after it'],
    ['(cust_000482),', 'cust_000482', 'the brackets around it and the comma after it'],
    ['"cust_000482"', 'cust_000482', 'the quotes around it'],
    ['refId: cust_000482.', 'cust_000482', 'the label "refId:"'],
    ['#user-7781', 'user-7781', 'the hash before it'],
    ['acme(1)', 'acme(1)', undefined],
    ["Sean O'Brien Jr.", "Sean O'Brien Jr.", undefined],
    ['.', '.', undefined],
  ])('reads %j as %j, saying what went (%j)', (text, id, removed) => {
    expect(readOneId(text)).toEqual({ id, removed });
    expect(batchLineId(text)).toBe(id);
  });
});
