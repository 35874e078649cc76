import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { escapeToAscii } from '../../src/server/audit/audit-line.ts';
import { foldCase, includesFolded, matches, userNeedle } from '../../src/server/trail/audit-match.ts';
import { auditRow } from '../component/audit-row.ts';

/**
 * The audit files' search by user reads a line's bytes before parsing it (audit-file-search.ts): the
 * test it makes there must never pass over a line whose user the filter names, whatever the capitals,
 * the escapes or the other `"user":` keys of the line (an audit search's line names a user in its filter).
 */

/** A line as the writer writes one (JSON, escaped to ASCII), with the user first or after a filter naming another. */
function lineOf(user: string, filterUser: string | undefined, userFirst: boolean): Buffer {
  const filter = filterUser === undefined ? {} : { filter: { user: filterUser } };
  const fields = userFirst ? { user, kind: 'audit', ...filter } : { kind: 'audit', ...filter, user };
  return Buffer.from(escapeToAscii(JSON.stringify({ time: '2026-11-29T10:00:00.000Z', ...fields })), 'latin1');
}

/** Letters and their capitals, ASCII and not. */
const PAIRS: readonly (readonly [string, string])[] = [
  ['a', 'A'],
  ['z', 'Z'],
  ['i', 'I'],
  ['é', 'É'],
  ['ж', 'Ж'],
  ['𐐨', '𐐀'],
];
const name = fc.string({
  // And what no capital folds to, or stays itself: the dotless ı, ß, a final ς, İ, the Kelvin sign.
  unit: fc.constantFrom(...PAIRS.flat(), 'ı', 'ß', 'ς', 'İ', '\u212A', '@', '.', '"', '\\', '\n', '😀', ' '),
  maxLength: 8,
});
/** The same name with some letters for their capitals or back: what a provider may send another day. */
const respelled = (text: string, flips: boolean[]) =>
  [...text]
    .map((c, i) => {
      const pair = PAIRS.find(([small, capital]) => c === small || c === capital);
      if (!pair || !flips[i % flips.length]) return c;
      return c === pair[0] ? pair[1] : pair[0];
    })
    .join('');

describe('the audit files: a line by the user a search names', () => {
  it('is never passed over, whatever the capitals of either (É, Ж, 𐐀 as much as A to Z), the escapes, or another user named in the line', () => {
    fc.assert(
      fc.property(
        name,
        fc.array(fc.boolean(), { minLength: 1 }),
        fc.option(name, { nil: undefined }),
        fc.boolean(),
        (user, flips, other, first) => {
          const asked = respelled(user, flips);
          expect(foldCase(asked)).toBe(foldCase(user));
          expect(includesFolded(lineOf(user, other, first), userNeedle({ user: asked })!)).toBe(true);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('is told from other users: a longer name, a shorter one, another letter; ÉLODIE found by élodie, where it was told apart', () => {
    const line = lineOf('Ana.Smith@Example.org', 'ben', false);
    const passes = (user: string) => includesFolded(line, userNeedle({ user })!);
    expect(passes('ana.smith@example.org')).toBe(true);
    expect(passes('ANA.SMITH@EXAMPLE.ORG')).toBe(true);
    expect(passes('ana.smith@example.or')).toBe(false);
    expect(passes('ana.smith@example.org.evil')).toBe(false);
    expect(passes('ana.smyth@example.org')).toBe(false);
    // The other `"user":` of the line (its filter's) passes this test too: the parsed row decides (matches).
    expect(passes('ben')).toBe(true);
    // Before: capitals A to Z only, so "ÉLODIE" never found élodie's lines, whatever the hint said of capitals.
    expect(includesFolded(lineOf('élodie', undefined, true), userNeedle({ user: 'ÉLODIE' })!)).toBe(true);
    expect(matches(auditRow({ user: 'élodie' }), { user: 'ÉLODIE' })).toBe(true);
    expect(matches(auditRow({ user: 'elodie' }), { user: 'ÉLODIE' })).toBe(false);
    expect(foldCase('ÉMILE Ana')).toBe('émile ana');
    // No letter outside ASCII folds into it (the line's ASCII is read as written): İ and the Kelvin sign stay.
    expect(foldCase('İLKER \u212AIM')).toBe('İlker \u212Aim');
    expect(matches(auditRow({ user: 'ilker' }), { user: 'İlker' })).toBe(false);
  });
});
